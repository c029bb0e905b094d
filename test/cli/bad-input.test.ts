/**
 * Bad input through the real binary: one clear line naming the file (and line), exit 2, no stack
 * trace, nothing written. Spawning is slow, so this file holds only what needs a real process.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/authoring/index.ts";
import { toJsonl, validRows } from "../helpers/corpus.ts";
import { bundledProtocol } from "../helpers/protocol.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function fabench(args: string[]): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/fabench.mjs", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Deterministic pseudo-random bytes (xorshift), so the garbage is the same on every run. */
function garbage(size: number, ascii: boolean): Buffer {
  const out = Buffer.alloc(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = ascii ? 0x21 + ((x >>> 0) % 90) : (x >>> 0) & 0xff;
  }
  return out;
}

const plan = buildPlan(bundledProtocol());

describe("bad corpus input", () => {
  // One folder for the whole block (the cases run concurrently), removed after it.
  const temp = useSuiteTempDir();
  const rows = validRows(plan);
  const nonStringQuery = rows.map((r, i) => (i === 4 ? { ...r, query: ["not", "text"] } : r));

  const cases: Array<[string, string, Buffer | string, RegExp]> = [
    ["an empty file", "empty.json", "", /^FILE: empty_file: /],
    [
      "invalid UTF-8",
      "latin1.jsonl",
      Buffer.concat([Buffer.from(toJsonl(rows.slice(0, 2))), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]),
      /^FILE:3: invalid_utf8: /,
    ],
    [
      "a truncated JSONL line",
      "cut.jsonl",
      toJsonl(rows).slice(0, -40),
      /^FILE:144: invalid_json: .*truncated/,
    ],
    ["a top-level number", "number.json", "144\n", /^FILE: not_a_corpus: /],
    [
      "a non-string query",
      "query.jsonl",
      toJsonl(nonStringQuery),
      /^FILE:5: invalid_row: .*query must be a string/,
    ],
    ["10 MB of random bytes", "noise.json", garbage(10 * 1024 * 1024, false), /^FILE:\d+: invalid_utf8: /],
    ["10 MB of printable garbage", "noise.txt", garbage(10 * 1024 * 1024, true), /^FILE:1: invalid_json: /],
  ];

  // Each case spawns the binary, all at once: the time limit is generous and only stops a hang.
  it.concurrent.each(cases)(
    "%s gets one clear line, exit 2, no stack trace and nothing written",
    { timeout: 120_000 },
    async (_label, name, content, pattern) => {
      const path = join(temp(), name);
      writeFileSync(path, content);
      const freeze = join(temp(), `${name}.freeze.json`);
      const run = await fabench(["corpus", "validate", path, "--out", freeze]);
      const lines = run.stderr.trim().split("\n");
      expect(run.code).toBe(2);
      // A non-string query is reported with the validation summary line after it.
      expect(lines[0]?.startsWith(path)).toBe(true);
      expect(lines[0]?.replace(path, "FILE")).toMatch(pattern);
      expect(lines.length).toBeLessThanOrEqual(2);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr.length).toBeLessThan(400);
      expect(existsSync(freeze)).toBe(false);
    },
  );

  it("names a missing file and exits 2", { timeout: 120_000 }, async () => {
    const run = await fabench(["corpus", "validate", join(temp(), "nope.json")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nope\.json: unreadable_file: no such file\n$/);
  });
});
