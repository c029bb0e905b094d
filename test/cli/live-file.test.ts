/**
 * Issue #25 item 3: the commands that read run files — score, report, power, judge run, runs
 * merge and runs dedupe — refuse one a live writer holds (`run_file_locked`, exit 2, naming the
 * writer), through any of its names, unless `--allow-live-file` asks for a snapshot. The writer is
 * a real process holding the lock through the library; once it is gone its lock is stale and
 * reading works again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, linkSync, readFileSync, symlinkSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const HOLD_LOCK = fileURLToPath(new URL("../helpers/hold-lock.mjs", import.meta.url));
const RUN = ["run", "--agent", "reference", "--task", "v4-*-en-01", "--trials", "2"];

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
      reject(new Error(`the lock holder exited (${code}) before it held the lock:\n${stderr()}`));
    });
  });
}

describe("readers of a run file a live writer holds", () => {
  const folder = useSuiteTempDir();
  const file = (name: string) => join(folder(), name);
  let holder: ChildProcess | undefined;
  afterAll(() => {
    holder?.kill("SIGKILL");
  });
  beforeAll(async () => {
    expect((await runCli([...RUN, "--out", file("run.jsonl")])).code).toBe(0);
    const scored = await runCli(["score", file("run.jsonl"), "--out", file("s.json"), "--allow-incomplete"]);
    expect(scored.code, scored.err).toBe(0);
    linkSync(file("run.jsonl"), file("hard.jsonl"));
    symlinkSync(file("run.jsonl"), file("sym.jsonl"));
  }, 120_000);

  it("refuse it (exit 2, naming the writer) by any name, read a snapshot with --allow-live-file, and read it once the writer is gone", {
    timeout: 120_000,
  }, async () => {
    let err = "";
    holder = spawn(process.execPath, [HOLD_LOCK, file("run.jsonl"), file("ready")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    holder.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    await appears(file("ready"), holder, () => err);
    const writer = `is being written by pid ${holder.pid} on ${hostname()} (fabench run, since `;
    const quick = ["--datasets", "4", "--iterations", "40", "--tasks-per-cell", "4"];
    const readers: Record<string, string[]> = {
      score: ["score", file("run.jsonl"), "--out", file("s2.json"), "--allow-incomplete"],
      "score (hard link)": ["score", file("hard.jsonl"), "--out", file("s2.json"), "--allow-incomplete"],
      "score (symbolic link)": ["score", file("sym.jsonl"), "--out", file("s2.json"), "--allow-incomplete"],
      report: ["report", file("s.json"), "--runs", file("run.jsonl"), "--out", file("r.html")],
      power: ["power", "--runs", file("run.jsonl"), ...quick],
      "judge run": ["judge", "run", file("run.jsonl"), "--judge", "openai:judge-model", "--estimate"],
      "runs merge": ["runs", "merge", file("run.jsonl"), "--out", file("m.jsonl"), "--allow-incomplete"],
      "runs dedupe": ["runs", "dedupe", file("hard.jsonl"), "--out", file("d.jsonl")],
    };
    for (const [name, argv] of Object.entries(readers)) {
      const refused = await runCli(argv);
      expect([name, refused.code, refused.out]).toEqual([name, 2, ""]);
      expect(refused.err, name).toContain("run_file_locked: ");
      expect(refused.err, name).toContain(writer);
      expect(refused.err, name).toContain("add --allow-live-file to read what it has written so far");
    }
    for (const out of ["s2.json", "r.html", "m.jsonl", "d.jsonl"]) expect(existsSync(file(out))).toBe(false);

    // A snapshot, when asked for: said in one warning line; here the same summary, as nothing was added.
    const snapshot = await runCli([...readers["score"]!, "--allow-live-file"]);
    expect(snapshot.code, snapshot.err).toBe(0);
    expect(snapshot.err.split("\n").filter((l) => l.startsWith("warning:"))).toEqual([
      expect.stringContaining(`warning: ${file("run.jsonl")} ${writer}`),
    ]);
    expect(snapshot.err).toContain("reading a snapshot of it (--allow-live-file)");
    expect(readFileSync(file("s2.json"), "utf8")).toBe(readFileSync(file("s.json"), "utf8"));
    for (const name of ["report", "power", "judge run", "runs merge", "runs dedupe"]) {
      const read = await runCli([...readers[name]!, "--allow-live-file"]);
      expect([name, read.code]).toEqual([name, 0]);
    }

    // The writer is gone (kill -9: its lock stays, stale): readers read again, without a word.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder?.once("exit", resolve));
    expect(existsSync(file("run.jsonl.lock"))).toBe(true);
    const after = await runCli(readers["score"]!);
    expect([after.code, after.err]).toEqual([0, ""]);
  });
});
