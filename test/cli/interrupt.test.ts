/**
 * Issue #33 item 4: Ctrl-C and SIGTERM stop `fabench run` whatever the agent. The in-process
 * reference agent never waits on I/O, yet the signal gets through: the run stops, prints the resume
 * line and exits 130 (143 for SIGTERM), and `--resume` completes it to the records of a run never
 * interrupted (timings aside). A command agent that hangs is stopped by the first Ctrl-C: its
 * episode is not recorded, no child is left alive, and a plain `--resume` runs it again. The runs
 * are the real binary in a child process, sent real signals. Before the first episode (the world
 * loading, a provider's preflight) there is nothing to finish: an interrupt exits at once.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { alive, deadSoon } from "../helpers/processes.ts";
import { key, read, type Rec } from "../helpers/run-records.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { GOOD_REPLY } from "../judge/fake-judge.ts";

/** The single-call tasks × 3 sizes × 5 conditions × 2 trials: 480 episodes, long enough to interrupt. */
const REFERENCE = ["--agent", "reference", "--task", "v4-single*", "--trials", "2"];
/** 6 tasks × 1 catalog size × 2 conditions: 12 episodes. */
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-PROGRESSIVE"];

/** Each record without its timings, by episode. */
const byEpisode = (records: Rec[]) =>
  new Map(records.map(({ timings: _, ...rest }) => [key(rest as Rec), JSON.stringify(rest)]));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** `fabench ARGS` (`run` unless `command` says otherwise) as a child process; `exit` resolves with its exit code and signal. */
function start(args: readonly string[], command: readonly string[] = ["run"]) {
  const child = spawn(process.execPath, ["bin/fabench.mjs", ...command, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { PATH: process.env["PATH"] },
  });
  children.push(child);
  const state = { err: "" };
  child.stderr?.on("data", (d: Buffer) => (state.err += d.toString()));
  const exit = new Promise<[number | null, string | null]>((resolve) =>
    child.once("exit", (code, signal) => resolve([code, signal])),
  );
  return { child, state, exit };
}

/** Resolves when `test` holds; rejects if `child` exits first. */
function until(test: () => boolean, child: ChildProcess, what: string, err: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (!test()) return;
      clearInterval(timer);
      resolve();
    }, 10);
    child.once("exit", (code, signal) => {
      clearInterval(timer);
      reject(new Error(`fabench run exited (${code ?? signal}) before ${what}:\n${err()}`));
    });
  });
}

describe("fabench run of the reference agent, interrupted", () => {
  const temp = useTempDir();

  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    it(`stops on ${signal} once episodes are running, exits ${code} with the resume line, and resumes to the uninterrupted run's records`, {
      timeout: 240_000,
    }, async () => {
      const dir = temp();
      const out = join(dir, "run.jsonl");
      const run = start([...REFERENCE, "--out", out]);
      // The first record is written: the episodes are running, in-process, without a pause.
      await until(
        () => existsSync(out) && statSync(out).size > 0,
        run.child,
        "its first record",
        () => run.state.err,
      );
      run.child.kill(signal);
      expect(await run.exit).toEqual([code, null]);
      expect(run.state.err).toContain("interrupted; continue with the same command and --resume");
      expect(existsSync(`${out}.lock`)).toBe(false);
      const partial = read(out);
      expect(partial.length).toBeGreaterThan(0);
      expect(partial.length).toBeLessThan(480);

      const resumed = await runCli(["run", ...REFERENCE, "--out", out, "--resume", "--json"]);
      expect(resumed.code, resumed.err).toBe(0);
      expect(JSON.parse(resumed.out)).toMatchObject({ skipped: partial.length, errors: 0 });
      const whole = join(dir, "whole.jsonl");
      expect((await runCli(["run", ...REFERENCE, "--out", whole])).code).toBe(0);
      const records = read(out);
      expect(records).toHaveLength(480);
      expect(byEpisode(records)).toEqual(byEpisode(read(whole)));
    });
});

describe("fabench run interrupted before its first episode", () => {
  const temp = useTempDir();

  it("exits at once (130) with the resume line while the provider's preflight hangs: nothing written, no lock left", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // A provider that accepts the preflight's connection and never answers: the run is still
    // setting up (no episode has started) when the interrupt comes.
    const sockets: Socket[] = [];
    const provider = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const port = (provider.address() as AddressInfo).port;
    const out = join(dir, "runs", "run.jsonl");
    try {
      const run = start([
        "--agent",
        "openai-compatible:local-model",
        "--base-url",
        `http://127.0.0.1:${port}/v1`,
        "--conveyor",
        conveyor,
        "--out",
        out,
        ...SMALL,
      ]);
      await until(
        () => sockets.length > 0,
        run.child,
        "the preflight",
        () => run.state.err,
      );
      run.child.kill("SIGINT");
      expect(await run.exit).toEqual([130, null]);
      expect(run.state.err).toContain(
        "interrupted before the first episode; continue with the same command and --resume",
      );
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.lock`)).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => provider.close(resolve));
    }
  });
});

describe("fabench run of a hung command agent, interrupted", () => {
  const temp = useTempDir();

  it("stops the hung turn on the first Ctrl-C: exit 130, its episode unrecorded, no child alive, and a plain --resume reruns it", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // Answers at once, except on the third episode it ever sees: then it writes its pid and
    // sleeps for 300 s (far past the test), holding its pipes.
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      `#!/usr/bin/env node
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  if (JSON.parse(s).messages.length === 2) appendFileSync(dir + "/episodes", "started\\n");
  const n = readFileSync(dir + "/episodes", "utf8").trim().split("\\n").length;
  if (n === 3) {
    // Written whole, then renamed: the test waits for the name and must never read it empty.
    writeFileSync(dir + "/pid.part", String(process.pid));
    renameSync(dir + "/pid.part", dir + "/pid");
    setTimeout(() => undefined, 300_000);
    return;
  }
  process.stdout.write(JSON.stringify({ text: JSON.stringify({ answer: "a", facts: [], sources: [] }) }));
});
`,
    );
    chmodSync(agent, 0o755);
    const out = join(dir, "run.jsonl");
    const args = [
      "--agent",
      `command:${agent}`,
      "--agent-arg",
      dir,
      "--agent-timeout",
      "60000",
      "--conveyor",
      conveyor,
    ];
    const run = start([...args, "--out", out, ...SMALL]);
    await until(
      () => existsSync(join(dir, "pid")),
      run.child,
      "the hung turn",
      () => run.state.err,
    );
    const pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    expect(alive(pid)).toBe(true);
    run.child.kill("SIGINT");
    expect(await run.exit).toEqual([130, null]);
    expect(run.state.err).toContain("interrupted; continue with the same command and --resume\n");
    expect(run.state.err).not.toContain("--retry-errors");
    expect(alive(pid)).toBe(false);
    // Every episode the agent started is recorded, complete, but the hung one, which is not recorded at all.
    const partial = read(out);
    const started = readFileSync(join(dir, "episodes"), "utf8").trim().split("\n").length;
    expect(partial.length).toBe(started - 1);
    expect(partial.every((r) => r["status"] === "completed")).toBe(true);

    const resumed = await runCli(["run", ...args, "--out", out, ...SMALL, "--resume", "--json"], {
      env: { PATH: process.env["PATH"] },
    });
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({
      skipped: partial.length,
      written: 12 - partial.length,
      errors: 0,
    });
    const records = read(out);
    expect(new Set(records.map(key)).size).toBe(12);
    expect(records.every((r) => r["status"] === "completed")).toBe(true);
  });
});

describe("a second Ctrl-C", () => {
  const temp = useTempDir();

  it("needs no second Ctrl-C when a hung turn's grandchild holds the agent's pipe: its process group dies with it", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // A plain shell wrapper: on the third episode it starts \`sleep 300\`, which inherits its stdout
    // and outlives it, and waits for it.
    const agent = join(dir, "agent.sh");
    writeFileSync(
      agent,
      `#!/bin/sh
dir="$1"
input=$(cat)
case "$input" in *'"role":"assistant"'*) ;; *) echo x >> "$dir/episodes";; esac
if [ "$(wc -l < "$dir/episodes")" -eq 3 ]; then sleep 300 & echo $! > "$dir/grandchild"; wait; fi
printf '%s' '{"text":"{\\"answer\\":\\"a\\",\\"facts\\":[],\\"sources\\":[]}"}'
`,
    );
    chmodSync(agent, 0o755);
    const out = join(dir, "run.jsonl");
    const run = start([
      "--agent",
      `command:${agent}`,
      "--agent-arg",
      dir,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
    ]);
    const grandchild = join(dir, "grandchild");
    try {
      await until(
        () => existsSync(grandchild) && statSync(grandchild).size > 0,
        run.child,
        "the hung turn",
        () => run.state.err,
      );
      run.child.kill("SIGINT");
      await until(
        () => run.state.err.includes("interrupted; continue with the same command and --resume"),
        run.child,
        "the resume line",
        () => run.state.err,
      );
      // The first Ctrl-C kills the turn's whole process group, grandchild included, so nothing
      // holds the pipe and fabench exits by itself (before #33 it waited for the sleep).
      expect(await run.exit).toEqual([130, null]);
      expect(read(out).every((r) => r["status"] === "completed")).toBe(true);
      expect(await deadSoon(Number(readFileSync(grandchild, "utf8")))).toBe(true);
    } finally {
      const pid = Number(readFileSync(grandchild, "utf8"));
      if (pid > 0 && alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("exits at once (130) while a judge request is still in flight, releasing the lock, and --resume goes on", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const runFile = join(dir, "run.jsonl");
    expect((await runCli(["run", "--agent", "reference", ...SMALL, "--out", runFile])).code).toBe(0);
    // A judge that, while the file `pid.hang` exists, writes its pid and never answers (its time
    // limit is far past the test); without it, it answers at once.
    const judge = join(dir, "judge.mjs");
    writeFileSync(
      judge,
      `#!/usr/bin/env node
import { existsSync, writeFileSync } from "node:fs";
if (existsSync(process.argv[2] + ".hang")) {
  writeFileSync(process.argv[2], String(process.pid));
  setTimeout(() => undefined, 300_000);
} else {
  process.stdin.resume().on("end", () => process.stdout.write(JSON.stringify({ text: ${JSON.stringify(GOOD_REPLY)} })));
}
`,
    );
    chmodSync(judge, 0o755);
    const out = join(dir, "judgments.jsonl");
    const pidFile = join(dir, "pid");
    writeFileSync(`${pidFile}.hang`, "");
    const args = [
      runFile,
      "--judge",
      `command:${judge}`,
      "--agent-arg",
      pidFile,
      "--request-timeout",
      "600000",
    ];
    const run = start([...args, "--out", out], ["judge", "run"]);
    await until(
      () => existsSync(pidFile),
      run.child,
      "the judge request",
      () => run.state.err,
    );
    expect(existsSync(`${out}.lock`)).toBe(true);
    run.child.kill("SIGINT");
    await until(
      () => run.state.err.includes("interrupt: finishing the requests in flight"),
      run.child,
      "it saw the first interrupt",
      () => run.state.err,
    );
    // The request in flight is waited for, as the first interrupt promises; the second ends that.
    run.child.kill("SIGINT");
    expect(await run.exit).toEqual([130, null]);
    expect(run.state.err).toContain(
      "second interrupt: stopping now; continue with the same command and --resume",
    );
    expect(existsSync(`${out}.lock`)).toBe(false);
    // The second interrupt killed the judge's process group (stopAllChildren) before exiting.
    const pid = Number(readFileSync(pidFile, "utf8"));
    const dead = await deadSoon(pid);
    if (!dead) process.kill(pid, "SIGKILL");
    expect(dead).toBe(true);
    // The lock was released, not left stale: --resume takes it without a word and judges every episode.
    rmSync(`${pidFile}.hang`);
    const resumed = await runCli(["judge", "run", ...args, "--out", out, "--resume"], {
      env: { PATH: process.env["PATH"] },
    });
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).not.toContain("stale lock");
  });
});
