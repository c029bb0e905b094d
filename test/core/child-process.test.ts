/**
 * The child supervisor (issue #33): a child's whole process group dies on a time limit, an
 * interrupt, stopAllChildren and at the end of every run; a grandchild holding the pipe does not
 * keep the run waiting; output is bytes until decoded strictly.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  decodeStrictUtf8,
  liveGroupCount,
  runChild,
  stopAllChildren,
  type ChildRun,
} from "../../src/core/child-process.ts";
import { deadSoon, pidsIn, script, useKillAfter } from "../helpers/processes.ts";
import { useTempDir } from "../helpers/temp.ts";

const temp = useTempDir();
const killAfter = useKillAfter();
const PATH = process.env["PATH"] ?? "";

const run = (command: string, extra: Partial<ChildRun> = {}): ChildRun => ({
  command,
  args: [],
  env: { PATH },
  input: "",
  timeoutMs: 60_000,
  maxStdoutBytes: 1024,
  maxStderrBytes: 1024,
  keepStderrBytes: 1024,
  ...extra,
});

/** A `#!/bin/sh` script that starts `sleep 300` in the background (its pid and its own in `pids`). */
function sleeper(tail: string): { path: string; pids: string } {
  const pids = killAfter();
  const path = script(
    temp(),
    "child.sh",
    `#!/bin/sh\necho $$ >> ${pids}\nsleep 300 &\necho $! >> ${pids}\n${tail}\n`,
  );
  return { path, pids };
}

describe("the child supervisor", () => {
  it("ends when the child exits although a grandchild holds stdout, and kills the grandchild", async () => {
    const { path, pids } = sleeper(`echo answer`);
    const outcome = await runChild(run(path));
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
    expect(outcome.kind === "exited" && outcome.stdout.toString()).toBe("answer\n");
    const [shell, grandchild] = pidsIn(pids);
    expect(await deadSoon(grandchild!)).toBe(true);
    expect(await deadSoon(shell!)).toBe(true);
    expect(liveGroupCount()).toBe(0);
  });

  it("on a time limit kills the whole group, child and grandchild", async () => {
    const { path, pids } = sleeper("sleep 300");
    const outcome = await runChild(run(path, { timeoutMs: 200 }));
    expect(outcome).toMatchObject({ kind: "stopped", reason: "timeout" });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
    expect(liveGroupCount()).toBe(0);
  });

  it("on an interrupt stops the group and says so", async () => {
    const { path, pids } = sleeper("sleep 300");
    const controller = new AbortController();
    const pending = runChild(run(path, { signal: controller.signal }));
    while (pidsIn(pids).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await pending).toMatchObject({ kind: "stopped", reason: "interrupted" });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("stopAllChildren kills every live group, and a second call is harmless", async () => {
    const { path, pids } = sleeper("sleep 300");
    const pending = runChild(run(path));
    while (pidsIn(pids).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(liveGroupCount()).toBe(1);
    stopAllChildren();
    stopAllChildren();
    expect(liveGroupCount()).toBe(0);
    // An interrupt, not a child that died on its own: a turn cut this way is not recorded as its failure.
    expect(await pending).toMatchObject({ kind: "stopped", reason: "interrupted" });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("does not wait for a grandchild that left the group and holds stdout", async () => {
    const pids = killAfter();
    const path = script(
      temp(),
      "escape.sh",
      `#!/bin/sh\nsetsid sh -c 'echo $$ >> ${pids}; exec sleep 300' &\nwhile [ ! -s ${pids} ]; do sleep 0.01; done\necho answer\n`,
    );
    const outcome = await runChild(run(path));
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
    expect(outcome.kind === "exited" && outcome.stdout.toString()).toBe("answer\n");
  });

  it("does not wait for a grandchild that left the group and keeps writing to stderr", async () => {
    const pids = killAfter();
    const path = script(
      temp(),
      "chatty.sh",
      `#!/bin/sh\nsetsid sh -c 'echo $$ >> ${pids}; exec yes chatter' >&2 &\nwhile [ ! -s ${pids} ]; do sleep 0.01; done\necho answer\n`,
    );
    const outcome = await runChild(
      run(path, { maxStderrBytes: Number.POSITIVE_INFINITY, keepStderrBytes: 64 }),
    );
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
    expect(outcome.kind === "exited" && outcome.stdout.toString()).toBe("answer\n");
  });

  it("stops a child over its output limit, counted in bytes", async () => {
    const path = script(temp(), "big.sh", `#!/bin/sh\nhead -c 5000 /dev/zero\n`);
    expect(await runChild(run(path, { maxStdoutBytes: 4096 }))).toMatchObject({
      kind: "stopped",
      reason: "stdout_limit",
    });
  });

  it("reports a program that cannot start", async () => {
    expect(await runChild(run(join(temp(), "missing")))).toMatchObject({
      kind: "start_failed",
      errno: "ENOENT",
    });
    expect(liveGroupCount()).toBe(0);
  });

  it("decodes strictly: a split character is whole, invalid bytes are refused", () => {
    const bytes = Buffer.from("日本", "utf8");
    expect(decodeStrictUtf8(Buffer.concat([bytes.subarray(0, 2), bytes.subarray(2)]))).toBe("日本");
    expect(decodeStrictUtf8(Buffer.from([0x61, 0xff, 0x62]))).toBeNull();
    expect(decodeStrictUtf8(bytes.subarray(0, 2))).toBeNull();
  });
});
