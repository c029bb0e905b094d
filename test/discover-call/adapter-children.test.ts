/**
 * A discover-call adapter as a child (issue #33): it gets only the variables it is named, its
 * group dies with each stage, and bytes that are not UTF-8 are a bad answer (`invalid_json`).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import { selectRequest, type RequestContext } from "../../src/discover-call/adapter-protocol.ts";
import { checkProcessAdapter } from "../../src/discover-call/adapter-check.ts";
import { processAdapter } from "../../src/discover-call/adapters.ts";
import type { DiscoverCallRunOptions } from "../../src/discover-call/run-request.ts";
import { buildAdapter } from "../../src/discover-call/run-adapter.ts";
import { deadSoon, pidsIn, script, useKillAfter } from "../helpers/processes.ts";
import { useTempDir } from "../helpers/temp.ts";

const temp = useTempDir();
const killAfter = useKillAfter();
const CONTEXT: RequestContext = { model: "m", trial: 1, taskSetSha256: "a".repeat(64) };
const REQUEST = selectRequest(
  { id: "t", prompt: "p" },
  { search_id: "s", total: 1, results: [{ tool_id: "x.y" }] },
  CONTEXT,
);
const PARENT = {
  PATH: process.env["PATH"] ?? "",
  HOME: "/nonexistent-home",
  LANG: "C.UTF-8",
  FABENCH_SERVE_API_KEY: "serve-key-123456",
  QVERIS_API_KEY: "qveris-key-123456",
  OPENAI_API_KEY: "openai-key-123456",
  ANTHROPIC_API_KEY: "anthropic-key-123456",
  SOME_OTHER_TOKEN: "other-token-123456",
};

/** An adapter that answers with the names and values of its environment. */
const envAdapter = () =>
  script(temp(), "env.mjs", `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.env));\n`);

async function failure(promise: Promise<unknown>): Promise<FabenchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return error as FabenchError;
  }
  throw new Error("expected a rejection");
}

describe("an adapter's environment", () => {
  it("has the base variables only, unless a provider key is named by --pass-env", async () => {
    const bare = (await processAdapter({ command: envAdapter(), args: [], env: PARENT })(REQUEST)) as object;
    expect(Object.keys(bare).sort()).toEqual(["HOME", "LANG", "PATH"]);
    const named = (await processAdapter({
      command: envAdapter(),
      args: [],
      env: PARENT,
      passEnv: ["OPENAI_API_KEY"],
    })(REQUEST)) as Record<string, string>;
    expect(Object.keys(named).sort()).toEqual(["HOME", "LANG", "OPENAI_API_KEY", "PATH"]);
    expect(named["OPENAI_API_KEY"]).toBe("openai-key-123456");
  });

  const options = (more: Partial<DiscoverCallRunOptions>): DiscoverCallRunOptions => ({
    model: "m",
    lane: "configured-model",
    tasks: "tasks.jsonl",
    adapter: envAdapter(),
    adapterArg: [],
    adapterRevision: "r",
    trials: 1,
    limit: 10,
    execute: false,
    adapterTimeoutMs: 10_000,
    output: "out.jsonl",
    resume: false,
    concurrency: 1,
    openaiApi: "chat",
    ...more,
  });

  it("refuses --pass-env naming the benchmark's own keys (exit 2), and passes a named provider key", async () => {
    for (const name of ["FABENCH_SERVE_API_KEY", "QVERIS_API_KEY", "GITHUB_TOKEN"])
      expect(() => buildAdapter(options({ passEnv: [name] }), PARENT)).toThrow(
        expect.objectContaining({ code: "withheld_variable", kind: "usage" }),
      );
    const adapter = buildAdapter(options({ passEnv: ["ANTHROPIC_API_KEY"] }), PARENT);
    const seen = (await adapter(REQUEST)) as Record<string, string>;
    expect(Object.keys(seen).sort()).toEqual(["ANTHROPIC_API_KEY", "HOME", "LANG", "PATH"]);
  });

  it("--pass-env is refused for a built-in model adapter, whose key --adapter-api-key-env names", () => {
    expect(() =>
      buildAdapter(options({ adapter: "openai:gpt-test", passEnv: ["OPENAI_API_KEY"] }), PARENT),
    ).toThrow(expect.objectContaining({ code: "adapter_option_unused" }));
    expect(() =>
      buildAdapter(
        options({ adapter: "openai:gpt-test", adapterApiKeyEnv: "FABENCH_SERVE_API_KEY" }),
        PARENT,
      ),
    ).toThrow(expect.objectContaining({ code: "missing_api_key" }));
  });

  it("the start check passes the same environment and leaves nothing running", async () => {
    const pids = killAfter();
    const path = script(
      temp(),
      "start.sh",
      `#!/bin/sh\necho $$ >> ${pids}\nsleep 300 &\necho $! >> ${pids}\nsleep 300\n`,
    );
    await checkProcessAdapter({ command: path, args: [], env: PARENT, passEnv: ["OPENAI_API_KEY"] });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });
});

describe("an adapter's process and bytes", () => {
  it("answers although a grandchild holds stdout, and the grandchild is dead after the stage", async () => {
    const pids = killAfter();
    const path = script(
      temp(),
      "wrapper.sh",
      `#!/bin/sh\necho $$ >> ${pids}\nsleep 300 &\necho $! >> ${pids}\nprintf '{"tool_id":"x.y"}'\n`,
    );
    expect(await processAdapter({ command: path, args: [], env: PARENT })(REQUEST)).toEqual({
      tool_id: "x.y",
    });
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("a time limit kills the whole group (timeout)", async () => {
    const pids = killAfter();
    const path = script(
      temp(),
      "hang.sh",
      `#!/bin/sh\necho $$ >> ${pids}\nsleep 300 &\necho $! >> ${pids}\nsleep 300\n`,
    );
    const adapter = processAdapter({ command: path, args: [], env: PARENT, timeoutMs: 200, killGraceMs: 50 });
    expect((await failure(adapter(REQUEST))).code).toBe("timeout");
    for (const pid of pidsIn(pids)) expect(await deadSoon(pid)).toBe(true);
  });

  it("invalid UTF-8 is invalid_json; a split character is whole", async () => {
    const bad = script(temp(), "bad.sh", `#!/bin/sh\nprintf '{"tool_id":"\\377"}'\n`);
    expect((await failure(processAdapter({ command: bad, args: [], env: PARENT })(REQUEST))).code).toBe(
      "invalid_json",
    );
    const split = script(
      temp(),
      "split.mjs",
      `#!${process.execPath}\nconst b = Buffer.from('{"tool_id":"日本"}');\nprocess.stdout.write(b.subarray(0, 13));\nsetTimeout(() => process.stdout.write(b.subarray(13)), 100);\n`,
    );
    expect(await processAdapter({ command: split, args: [], env: PARENT })(REQUEST)).toEqual({
      tool_id: "日本",
    });
  });
});
