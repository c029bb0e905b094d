/**
 * Command agents and command routers as children (issue #33): what they start dies with the turn
 * or the query, their bytes are decoded as UTF-8 exactly once, and a router's quoted stderr never
 * shows a key value.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandAgent } from "../../src/conditions/agents/command.ts";
import type { Task } from "../../src/authoring/index.ts";
import { createRouter } from "../../src/conditions/routing/index.ts";
import { liveGroupCount, stopAllChildren } from "../../src/core/child-process.ts";
import { FabenchError, rememberKeyValues } from "../../src/core/index.ts";
import { deadSoon, pidsIn, script, useKillAfter } from "../helpers/processes.ts";
import { runCli } from "../helpers/cli.ts";
import { useTempDir } from "../helpers/temp.ts";

const temp = useTempDir();
const killAfter = useKillAfter();
const PATH = process.env["PATH"] ?? "";
const NODE = `#!${process.execPath}\n`;

function agentTurn(path: string, timeoutMs = 60_000, signal?: AbortSignal) {
  const agent = commandAgent({
    path,
    args: [],
    passEnv: [],
    env: { PATH },
    timeoutMs,
    maxStdoutBytes: 1_000_000,
    maxStderrBytes: 1_000_000,
    taskSetSha256: "0".repeat(64),
  });
  return agent
    .startEpisode({} as Task)
    .turn({ messages: [], tools: [], turn: 1, maxTurns: 5, ...(signal ? { signal } : {}) });
}

async function failure(promise: Promise<unknown>): Promise<FabenchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return error as FabenchError;
  }
  throw new Error("expected a rejection");
}

/** A `#!/bin/sh` child whose grandchild sleeps 300 s holding stdout; pids in the returned file. */
function withSleepingGrandchild(answer: string, after = ""): { path: string; pids: string } {
  const pids = killAfter();
  const body = `#!/bin/sh\necho $$ >> ${pids}\nsleep 300 &\necho $! >> ${pids}\nprintf '%s' '${answer}'\n${after}\n`;
  return { path: script(temp(), "child.sh", body), pids };
}

afterEach(() => expect(liveGroupCount()).toBe(0));

describe("a command agent", () => {
  it("answers although its grandchild holds stdout, and the grandchild is dead after the turn", async () => {
    // A success: the agent exited 0 with a whole answer; what it left running is not its answer.
    const { path, pids } = withSleepingGrandchild(`{"text":"done"}`);
    expect(await agentTurn(path)).toEqual({ text: "done", toolCalls: [] });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("times out as command_timeout and its whole group is killed", async () => {
    const { path, pids } = withSleepingGrandchild("", "sleep 300");
    expect((await failure(agentTurn(path, 200))).code).toBe("command_timeout");
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("is stopped by the turn's signal with code interrupted", async () => {
    const { path, pids } = withSleepingGrandchild("", "sleep 300");
    const controller = new AbortController();
    const turn = agentTurn(path, 60_000, controller.signal);
    while (pidsIn(pids).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await failure(turn);
    expect([error.code, error.kind, error.stage]).toEqual(["interrupted", "input", "agent"]);
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("is stopped by stopAllChildren (the second Ctrl-C) with code interrupted, group and all", async () => {
    const { path, pids } = withSleepingGrandchild("", "sleep 300");
    const turn = agentTurn(path);
    while (pidsIn(pids).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    stopAllChildren();
    expect((await failure(turn)).code).toBe("interrupted");
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("keeps a 3-byte character split across two writes, with a pause between, intact", async () => {
    const text = "日本語のテキスト".repeat(50);
    const path = script(
      temp(),
      "split.mjs",
      `${NODE}const b = Buffer.from(JSON.stringify({ text: ${JSON.stringify(text)} }));
process.stdout.write(b.subarray(0, 10)); // {"text":" is 9 bytes: byte 10 is inside 日
setTimeout(() => process.stdout.write(b.subarray(10)), 100);
`,
    );
    expect((await agentTurn(path)).text).toBe(text);
  });

  it("refuses invalid UTF-8 as command_invalid_utf8, not a replaced character", async () => {
    const path = script(
      temp(),
      "latin1.mjs",
      `${NODE}process.stdout.write(Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]));\n`,
    );
    expect((await failure(agentTurn(path))).code).toBe("command_invalid_utf8");
  });
});

describe("a command router", () => {
  const request = { query: "q", catalogSize: 0, endpoints: [] };
  const router = (path: string, timeoutMs?: number) =>
    createRouter(`command:${path}`, { path: PATH, ...(timeoutMs ? { timeoutMs } : {}) });

  it("ranks although a #!/bin/sh wrapper's grandchild holds stdout, and the grandchild is dead after", async () => {
    const { path, pids } = withSleepingGrandchild(`{"ranking":[]}`);
    expect(await router(path).rank(request)).toEqual([]);
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("times out as router_timeout and its whole group is killed", async () => {
    const { path, pids } = withSleepingGrandchild("", "sleep 300");
    expect((await failure(router(path, 200).rank(request))).code).toBe("router_timeout");
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("refuses invalid UTF-8 as router_bad_response", async () => {
    const path = script(temp(), "bad.sh", `#!/bin/sh\nprintf '{"ranking":["\\377"]}'\n`);
    const error = await failure(router(path).rank(request));
    expect(error.code).toBe("router_bad_response");
    expect(error.message).toContain("not UTF-8");
  });

  describe("quoting its output", () => {
    const KEY = "sk-test-0123456789abcdef";
    afterEach(() => rememberKeyValues({}));

    it("redacts a key value it prints on stderr or stdout", async () => {
      rememberKeyValues({ OPENAI_API_KEY: KEY }); // as the CLI's entry does with its environment
      const path = script(temp(), "leak.sh", `#!/bin/sh\necho "using key ${KEY} now" >&2\necho "${KEY}"\n`);
      const error = await failure(router(path).rank(request));
      expect(error.code).toBe("router_bad_response");
      expect(error.message).toContain("using key [redacted] now");
      expect(error.message).not.toContain(KEY);
    });
  });
});

describe("the CLI quoting a router's stderr", () => {
  it("shows [redacted] for a key value of its environment, never the value", async () => {
    const key = "sk-ant-cli-0123456789";
    const path = script(temp(), "leak.sh", `#!/bin/sh\necho "auth failed for ${key}" >&2\nexit 3\n`);
    const run = await runCli(
      ["conditions", "freeze", "--router", `command:${path}`, "--out", join(temp(), "m.json")],
      { env: { PATH, ANTHROPIC_API_KEY: key } },
    );
    expect(run.code).not.toBe(0);
    expect(run.err).toContain("auth failed for [redacted]");
    expect(`${run.out}${run.err}`).not.toContain(key);
  });
});
