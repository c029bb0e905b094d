/**
 * Issue #25 item 3: SIGTERM — what `kill`, systemd, Docker and CI runners send — stops `fabench
 * run` as Ctrl-C does: the lock is released, and the exit code is 143 (128 + SIGTERM's 15, as
 * Ctrl-C gives 130); `--resume` then finishes the set with each episode once. Since issue #33 the
 * turn in flight is stopped, not waited for: its episode is not written, and `--resume` reruns it.
 * The run is the real binary in a child process, sent a real signal.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { join, useTempDir } from "../helpers/temp.ts";

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

/** Resolves when `test` holds; rejects if `child` exits first. */
function until(test: () => boolean, child: ChildProcess, what: string, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (test()) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    child.once("exit", (code, signal) => {
      clearInterval(timer);
      reject(new Error(`fabench run exited (${code ?? signal}) before ${what}:\n${stderr()}`));
    });
  });
}

describe("fabench run sent SIGTERM", () => {
  const temp = useTempDir();

  it("stops the episode in flight unrecorded, releases the lock, exits 143, and resumes to the full set", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // A command agent that counts its turns and the episodes it starts (a first turn);
    // on its third turn it says so in a file and waits for the test's go-ahead, so the signal
    // arrives while that turn's episode is in flight.
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      `#!/usr/bin/env node
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  // An episode's first turn holds only the system prompt and the query.
  if (JSON.parse(s).messages.length === 2) appendFileSync(dir + "/episodes", "started\\n");
  appendFileSync(dir + "/turns", "turn\\n");
  const n = readFileSync(dir + "/turns", "utf8").trim().split("\\n").length;
  if (n === 3) {
    writeFileSync(dir + "/waiting", "");
    while (!existsSync(dir + "/go")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  process.stdout.write(JSON.stringify({ text: JSON.stringify({ answer: "a", facts: [], sources: [] }) }));
});
`,
    );
    chmodSync(agent, 0o755);
    const out = join(dir, "run.jsonl");
    const args = ["run", "--agent", `command:${agent}`, "--agent-arg", dir, "--conveyor", conveyor];
    const child = spawn(process.execPath, ["bin/fabench.mjs", ...args, "--out", out, ...SMALL], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env["PATH"] },
    });
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    const exit = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal])),
    );
    try {
      await until(
        () => existsSync(join(dir, "waiting")),
        child,
        "the third episode",
        () => err,
      );
      expect(existsSync(`${out}.lock`)).toBe(true);
      child.kill("SIGTERM");
      await until(
        () => err.includes("interrupt: stopping"),
        child,
        "it saw the signal",
        () => err,
      );
    } finally {
      writeFileSync(join(dir, "go"), "");
    }
    expect(await exit).toEqual([143, null]);
    expect(err).toContain("interrupted; continue with the same command and --resume");
    expect(existsSync(`${out}.lock`)).toBe(false);
    // The episode in flight was stopped and not written, and none was started after the signal:
    // every other episode the agent saw is a complete record.
    const partial = read(out);
    const started = readFileSync(join(dir, "episodes"), "utf8").trim().split("\n").length;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBe(started - 1);
    expect(partial.every((r) => r.status === "completed")).toBe(true);

    const resumed = await runCli([...args, "--out", out, ...SMALL, "--resume", "--json"], {
      env: { PATH: process.env["PATH"] },
    });
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({
      skipped: partial.length,
      written: 12 - partial.length,
      errors: 0,
    });
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(new Set(records.map(key)).size).toBe(12);
  });
});
