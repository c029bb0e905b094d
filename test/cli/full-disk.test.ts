/**
 * A disk that fills during `run`: the record being written is cut back, the run stops with
 * `cannot_write` (exit 2, never an internal error), and `--resume` on a disk with room finishes
 * the same records an uninterrupted run writes.
 */
import * as fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { RunWriterFs } from "../../src/conditions/runner/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const SUBSET = ["--agent", "reference", "--task", "v4-single*-en-0?", "--condition", "FULL,ORACLE"];

/** Node's file operations on a device with `room` bytes left: a write past it is partial, then ENOSPC. */
function fullAfter(room: number): RunWriterFs & { readonly refused: () => number } {
  let left = room;
  let refused = 0;
  return {
    openSync: (path, flags) => fs.openSync(path, flags),
    writeSync: (fd, buffer, offset) => {
      if (left === 0) {
        refused += 1;
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      const n = fs.writeSync(fd, buffer, offset, Math.min(left, buffer.length - offset));
      left -= n;
      return n;
    },
    fsyncSync: (fd) => fs.fsyncSync(fd),
    fstatSync: (fd) => fs.fstatSync(fd),
    ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
    closeSync: (fd) => fs.closeSync(fd),
    refused: () => refused,
  };
}

const lines = (path: string) => fs.readFileSync(path, "utf8").split("\n").filter(Boolean);
const stable = (path: string) =>
  lines(path)
    .map((l) => {
      const { timings: _t, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .sort();

describe("run on a full disk", () => {
  const temp = useTempDir();

  it("stops with cannot_write (exit 2), leaves only whole records, and resumes to the same records", async () => {
    const whole = join(temp(), "whole.jsonl");
    expect((await runCli(["run", ...SUBSET, "--out", whole])).code).toBe(0);
    const expected = stable(whole);
    expect(expected.length).toBe(16);
    // Room for three and a half records of this run: the fourth is written in part, then refused.
    const recordBytes = Buffer.byteLength(`${lines(whole)[0]}\n`);
    const disk = fullAfter(Math.floor(recordBytes * 3.5));

    const out = join(temp(), "run.jsonl");
    const full = await runCli(["run", ...SUBSET, "--out", out, "--concurrency", "1"], { runWriterFs: disk });
    expect(full.code).toBe(2);
    expect(full.err).toMatch(
      /run\.jsonl: cannot_write: cannot write here: no space left on the device \(ENOSPC\)/,
    );
    expect(full.err).toContain("--resume");
    expect(full.err).not.toMatch(/internal_error/);
    expect(disk.refused()).toBeGreaterThan(0);
    // The torn fourth record was cut back: the file ends on a newline, with whole records only.
    const bytes = fs.readFileSync(out);
    expect(bytes.at(-1)).toBe(0x0a);
    expect(lines(out).length).toBe(3);
    expect(fs.existsSync(`${out}.lock`)).toBe(false);

    const resumed = await runCli(["run", ...SUBSET, "--out", out, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.err).not.toMatch(/torn/);
    expect(stable(out)).toEqual(expected);
    // Three in-process runs of the CLI, each loading and checking the whole world: room for a loaded machine.
  }, 180_000);
});
