/**
 * Issue #16 items 1–2: one writer per run file. A second `fabench run` on a run file another one
 * is writing exits 2 naming it (with --retry-errors too, leaving the file as it was); a lock left
 * by a process that is gone is taken over with a warning; `runs dedupe` repairs a file two writers
 * appended to before the lock.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const KILL_AT_LINE = fileURLToPath(new URL("../helpers/kill-at-line.mjs", import.meta.url));
/** 6 tasks × 1 catalog size × 2 conditions: 12 episodes. */
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-PROGRESSIVE"];

type Rec = {
  semantic_task_id: string;
  catalog_size: number;
  condition: string;
  trial: number;
  status: string;
};
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);
const key = (r: Rec) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`;
const warnings = (err: string) => err.split("\n").filter((l) => l.startsWith("warning:"));

/** Resolves when `path` exists; rejects if `child` exits first. */
function appears(path: string, child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (existsSync(path)) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`the first writer exited (${code}) before ${path} appeared:\n${stderr()}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("one writer per run file", () => {
  const temp = useTempDir();

  it("refuses a second writer (exit 2, naming the first), --retry-errors included; each episode once after both", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // A command agent, one turn per episode: its first two episodes fail (error-coded records);
    // on the third it says so in a file and waits for the test's go-ahead, so the first writer is
    // held mid-run, lock taken, for as long as the test needs.
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      `#!/usr/bin/env node
import { existsSync, readFileSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
const count = dir + "/turns";
const n = (existsSync(count) ? Number(readFileSync(count, "utf8")) : 0) + 1;
writeFileSync(count, String(n));
if (n <= 2) process.exit(3);
if (n === 3) {
  writeFileSync(dir + "/waiting", "");
  while (!existsSync(dir + "/go")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  process.stdout.write(JSON.stringify({ text: JSON.stringify({ answer: "a", facts: [], sources: [] }) }));
});
`,
    );
    chmodSync(agent, 0o755);
    const out = join(dir, "run.jsonl");
    const args = [
      "run",
      "--agent",
      `command:${agent}`,
      "--agent-arg",
      dir,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
    ];
    const env = { PATH: process.env["PATH"] };

    const first = spawn(process.execPath, ["bin/fabench.mjs", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let firstErr = "";
    first.stderr?.on("data", (d: Buffer) => (firstErr += d.toString()));
    try {
      await appears(join(dir, "waiting"), first, () => firstErr);
      const lock = JSON.parse(readFileSync(`${out}.lock`, "utf8")) as Record<string, unknown>;
      expect(lock).toMatchObject({ pid: first.pid, host: hostname(), command: "fabench run" });
      const before = readFileSync(out);
      expect(read(out).map((r) => r.status)).toEqual(["error", "error"]);

      // The second writer, as the issue ran it: the same command line with --resume.
      const second = await runCli([...args, "--resume"], { env });
      expect(second.code).toBe(2);
      expect(second.err).toContain(
        `run_file_locked: ${out} is being written by pid ${first.pid} on ${hostname()} (fabench run, since ${String(lock["started_at"])})`,
      );
      // The same through a symbolic link and a hard link to the run file (#25 item 3): one lock
      // per file, not per spelling of its path.
      symlinkSync(out, join(dir, "sym.jsonl"));
      linkSync(out, join(dir, "hard.jsonl"));
      for (const name of ["sym.jsonl", "hard.jsonl"]) {
        const through = [...args.slice(0, -SMALL.length - 2), "--out", join(dir, name), ...SMALL, "--resume"];
        const refused = await runCli(through, { env });
        expect([name, refused.code]).toEqual([name, 2]);
        expect(refused.err).toContain(`is being written by pid ${first.pid} on ${hostname()} (fabench run`);
      }
      expect(readFileSync(out).equals(before)).toBe(true);
      // --retry-errors would rewrite the file under the first writer: refused before it reads it.
      const retry = await runCli([...args, "--resume", "--retry-errors"], { env });
      expect([retry.code, retry.err.includes("run_file_locked")]).toEqual([2, true]);
      expect(readFileSync(out).equals(before)).toBe(true);
      // Nor may runs merge or runs dedupe read the file, or write over it.
      const other = join(dir, "other.jsonl");
      writeFileSync(other, before);
      for (const argv of [
        ["runs", "dedupe", out, "--out", join(dir, "copy.jsonl")],
        ["runs", "dedupe", other, "--out", out],
        ["runs", "merge", out, "--out", join(dir, "copy.jsonl"), "--allow-incomplete"],
        ["runs", "merge", other, "--out", out, "--allow-incomplete"],
      ]) {
        const refused = await runCli(argv);
        expect([argv.join(" "), refused.code, refused.err.includes("run_file_locked")]).toEqual([
          argv.join(" "),
          2,
          true,
        ]);
      }
      expect(readFileSync(out).equals(before)).toBe(true);
      expect(existsSync(join(dir, "copy.jsonl"))).toBe(false);
    } finally {
      writeFileSync(join(dir, "go"), "");
    }
    expect(await exited(first)).toBe(0);
    expect(existsSync(`${out}.lock`)).toBe(false);
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(new Set(records.map(key)).size).toBe(12);
    expect(records.filter((r) => r.status === "error")).toHaveLength(2);

    // Once the first writer is done, --retry-errors runs: each episode still once, none failed.
    const retried = await runCli([...args, "--resume", "--retry-errors", "--json"], { env });
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.out)).toMatchObject({ skipped: 10, written: 2, errors: 0 });
    const after = read(out);
    expect(after).toHaveLength(12);
    expect(new Set(after.map(key)).size).toBe(12);
    expect(after.every((r) => r.status === "completed")).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("takes over a lock whose process is gone, with one warning line, and completes", async () => {
    const out = join(temp(), "run.jsonl");
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await exited(gone);
    const lock = {
      pid: gone.pid,
      host: hostname(),
      started_at: "2026-01-01T00:00:00.000Z",
      command: "fabench run",
    };
    writeFileSync(`${out}.lock`, `${JSON.stringify(lock)}\n`);
    const result = await runCli(["run", "--agent", "reference", ...SMALL, "--out", out, "--json"]);
    expect(result.code).toBe(0);
    expect(warnings(result.err)).toEqual([
      `warning: ${out}: taking over the stale lock ${out}.lock of pid ${gone.pid} on ${hostname()} (fabench run, since 2026-01-01T00:00:00.000Z): that process is no longer running`,
    ]);
    expect(JSON.parse(result.out)).toMatchObject({ planned: 12, written: 12 });
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("treats the lock of a writer killed with kill -9 as stale: --resume takes it over and finishes", {
    timeout: 60_000,
  }, async () => {
    const out = join(temp(), "run.jsonl");
    const child = spawn(
      process.execPath,
      ["--import", KILL_AT_LINE, "bin/fabench.mjs", "run", "--agent", "reference", ...SMALL, "--out", out],
      {
        stdio: "ignore",
        env: {
          ...process.env,
          FABENCH_TEST_KILL_FILE: out,
          FABENCH_TEST_KILL_AFTER: "5",
          FABENCH_TEST_KILL_TEAR: "100",
        },
      },
    );
    const signal = await new Promise((r) => child.on("close", (_code, s) => r(s)));
    expect(signal).toBe("SIGKILL");
    expect(JSON.parse(readFileSync(`${out}.lock`, "utf8"))).toMatchObject({ pid: child.pid });
    const result = await runCli([
      "run",
      "--agent",
      "reference",
      ...SMALL,
      "--out",
      out,
      "--resume",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(warnings(result.err)).toHaveLength(1);
    expect(warnings(result.err)[0]).toContain(`taking over the stale lock ${out}.lock of pid ${child.pid}`);
    expect(JSON.parse(result.out)).toMatchObject({ skipped: 5, written: 7 });
    expect(new Set(read(out).map(key)).size).toBe(12);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("takes no lock for --estimate", async () => {
    const out = join(temp(), "run.jsonl");
    writeFileSync(
      `${out}.lock`,
      `${JSON.stringify({ pid: process.pid, host: "elsewhere", started_at: "x", command: "fabench run" })}\n`,
    );
    const result = await runCli(["run", "--agent", "reference", ...SMALL, "--out", out, "--estimate"]);
    expect(result.code).toBe(0);
  });
});

describe("fabench runs dedupe", () => {
  const temp = useTempDir();
  const TRIALS2 = ["run", "--agent", "reference", ...SMALL, "--trials", "2"];

  it("keeps the first complete record of each episode, byte for byte, and reports what it dropped", async () => {
    const dir = temp();
    const run = join(dir, "run.jsonl");
    expect((await runCli([...TRIALS2, "--out", run])).code).toBe(0);
    const original = readFileSync(run);
    // What two writers of one run file left: every episode twice, and a torn last line.
    const doubled = join(dir, "doubled.jsonl");
    writeFileSync(doubled, Buffer.concat([original, original, original.subarray(0, 300)]));
    const out = join(dir, "deduped.jsonl");
    const result = await runCli(["runs", "dedupe", doubled, "--out", out, "--json"]);
    expect(result.code).toBe(0);
    expect(readFileSync(out).equals(original)).toBe(true);
    const report = JSON.parse(result.out) as { duplicates: Array<{ line: number; kept_line: number }> };
    expect(report).toMatchObject({
      ok: true,
      records: 48,
      kept: 24,
      dropped: 24,
      differing: 0,
      kept_errors_completed_later: 0,
      torn_bytes: 300,
      duplicates_not_listed: 4,
    });
    expect(report.duplicates).toHaveLength(20);
    expect(report.duplicates[0]).toMatchObject({ line: 25, kept_line: 1, differs: false });

    const human = await runCli(["runs", "dedupe", doubled, "--out", join(dir, "h.jsonl")]);
    const lines = human.out.trim().split("\n");
    expect(lines[0]).toBe(
      `wrote ${join(dir, "h.jsonl")}: 24 episode(s) from ${doubled}; dropped 24 duplicate(s) (0 differing from the record kept, besides timings) and a torn last line (300 bytes)`,
    );
    expect(lines[1]).toMatch(new RegExp(`^${doubled}:25: duplicate of line 1: v4-`));
    expect(lines).toHaveLength(22);
    expect(lines[21]).toBe("… and 4 more");
  });

  it("keeps the first record even when it is an error, and says how many duplicates differed", async () => {
    const dir = temp();
    const run = join(dir, "run.jsonl");
    expect((await runCli([...TRIALS2, "--out", run])).code).toBe(0);
    const [firstLine, ...rest] = readFileSync(run, "utf8").trim().split("\n");
    const failed = {
      ...(JSON.parse(firstLine as string) as Record<string, unknown>),
      status: "error",
      error_code: "provider_timeout",
      end_reason: "infrastructure_error",
    };
    const mixed = join(dir, "mixed.jsonl");
    writeFileSync(mixed, `${JSON.stringify(failed)}\n${firstLine}\n${rest.join("\n")}\n`);
    const out = join(dir, "deduped.jsonl");
    const result = await runCli(["runs", "dedupe", mixed, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      "dropped 1 duplicate(s) (1 differing from the record kept, besides timings)",
    );
    expect(result.out).toContain(`${mixed}:2: duplicate of line 1 (differs): `);
    expect(result.out).toContain("1 kept record(s) are error-coded where a later duplicate completed");
    expect(read(out)[0]?.status).toBe("error");
    expect(read(out)).toHaveLength(24);
  });

  it("refuses --out equal to the input, and records of different runs", async () => {
    const dir = temp();
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    expect((await runCli([...TRIALS2, "--out", a])).code).toBe(0);
    expect((await runCli(["run", "--agent", "reference", ...SMALL, "--out", b])).code).toBe(0);
    const before = readFileSync(a);
    const same = await runCli(["runs", "dedupe", a, "--out", a]);
    expect([same.code, same.err.includes("output_is_input")]).toEqual([2, true]);
    expect(readFileSync(a).equals(before)).toBe(true);
    const both = join(dir, "both.jsonl");
    writeFileSync(both, Buffer.concat([readFileSync(a), readFileSync(b)]));
    const out = join(dir, "out.jsonl");
    const mixed = await runCli(["runs", "dedupe", both, "--out", out]);
    // Records of different runs are bad input: exit 2, as from score, judge run and runs merge.
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain(`${both}:25: metadata_mismatch: metadata trials differ from line 1's`);
    expect(existsSync(out)).toBe(false);
  });
});
