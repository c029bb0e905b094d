/**
 * kill -9 of `fabench run` at chosen points (the first line and the last, both half written, and
 * cleanly between two lines mid-run), then --resume: the same episodes, none twice. Slow tier: each
 * point runs the subset in a child process.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { key, read, type Rec } from "../helpers/run-records.ts";

const KILL_AT_LINE = fileURLToPath(new URL("../helpers/kill-at-line.mjs", import.meta.url));
const SUBSET = ["--agent", "reference", "--task", "v4-single*", "--trials", "3"];

const stable = (records: Rec[]) =>
  records
    .map(({ timings: _t, shard: _s, ...rest }) => rest)
    .sort((a, b) => (key(a as Rec) < key(b as Rec) ? -1 : 1));

describe("fabench run, killed", () => {
  const temp = useTempDir();

  it("gives the same episodes after kill -9 at chosen points and --resume, none twice", {
    timeout: 180_000,
  }, async () => {
    const full = join(temp(), "full.jsonl");
    await runCli(["run", ...SUBSET, "--out", full]);
    // [whole lines written before the kill, bytes of the next line written when it lands]: at the
    // first line and at the last, both half written, and cleanly between two lines mid-run. The
    // child kills itself at exactly that point (test/helpers/kill-at-line.mjs), whatever its speed.
    for (const [after, tear] of [
      [0, 200],
      [250, 0],
      [719, 200],
    ] as const) {
      const out = join(temp(), `killed-${after}.jsonl`);
      const env = {
        ...process.env,
        FABENCH_TEST_KILL_FILE: out,
        FABENCH_TEST_KILL_AFTER: String(after),
        FABENCH_TEST_KILL_TEAR: String(tear),
      };
      const child = spawn(
        process.execPath,
        ["--import", KILL_AT_LINE, "bin/fabench.mjs", "run", ...SUBSET, "--out", out],
        { stdio: "ignore", env },
      );
      const signal = await new Promise((r) => child.on("close", (_code, signal) => r(signal)));
      expect(signal).toBe("SIGKILL");
      const text = readFileSync(out, "utf8");
      expect(text.split("\n").length - 1).toBe(after);
      expect(Buffer.byteLength(text.slice(text.lastIndexOf("\n") + 1))).toBe(tear);
      const result = await runCli(["run", ...SUBSET, "--out", out, "--resume", "--json"]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({
        planned: 720,
        skipped: after,
        written: 720 - after,
        errors: 0,
      });
      expect(result.err.includes("dropped a torn last line")).toBe(tear > 0);
      const records = read(out);
      expect(records).toHaveLength(720);
      expect(new Set(records.map(key)).size).toBe(720);
      expect(stable(records)).toEqual(stable(read(full)));
    }
  });
});
