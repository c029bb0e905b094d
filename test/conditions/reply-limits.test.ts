/**
 * Issue #33: what agents, routers, providers and judges hand back is bounded before anything
 * recursive sees it — nesting 100,000 deep, `1e309`, a 64 MiB router reply — and each breach is an
 * error with its own code, never a crash.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandAgent } from "../../src/conditions/agents/command.ts";
import { buildCatalog } from "../../src/conditions/catalog/index.ts";
import { createRouter } from "../../src/conditions/routing/index.ts";
import { FabenchError } from "../../src/core/index.ts";
import { readAnthropicMessage } from "../../src/providers/anthropic.ts";
import { readToolCall } from "../../src/providers/openai.ts";
import { parseTextToolCalls } from "../../src/providers/index.ts";
import { parseJudgeReply } from "../../src/judge/reply.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const DEEP = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`;
const endpoints = buildCatalog(100).endpoints;
const request = { query: "export the artifact", catalogSize: 100, endpoints };

async function rejection(promise: Promise<unknown>): Promise<FabenchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return error as FabenchError;
  }
  throw new Error("expected a rejection");
}

function thrownSync(f: () => unknown): FabenchError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return error as FabenchError;
  }
  throw new Error("expected a throw");
}

describe("a command agent's reply", () => {
  const temp = useTempDir();
  /** An agent that prints `printed` (JSON text) whatever it is asked. */
  const agentPrinting = (printed: string) => {
    const dir = temp();
    writeFileSync(join(dir, "reply.json"), printed);
    const path = join(dir, "agent.mjs");
    writeFileSync(
      path,
      `#!/usr/bin/env node\nimport { readFileSync } from "node:fs";\nprocess.stdin.resume().on("end", () => process.stdout.write(readFileSync(${JSON.stringify(join(dir, "reply.json"))})));\n`,
    );
    chmodSync(path, 0o755);
    return commandAgent({
      path,
      args: [],
      passEnv: [],
      env: { PATH: process.env["PATH"] },
      timeoutMs: 30_000,
      maxStdoutBytes: 8 * 1024 * 1024,
      maxStderrBytes: 1024 * 1024,
      taskSetSha256: "0".repeat(64),
    });
  };
  const turn = (agent: ReturnType<typeof commandAgent>) =>
    agent.startEpisode({} as never).turn({ messages: [], tools: [], turn: 1, maxTurns: 10, inputTokens: 0 });

  it("nested 100,000 deep in a tool call's arguments is command_bad_response, never parsed", async () => {
    const printed = `{"text":"","tool_calls":[{"name":"papers__search","arguments":{"q":${DEEP}}}]}`;
    const error = await rejection(turn(agentPrinting(printed)));
    expect([error.code, error.message]).toEqual([
      "command_bad_response",
      expect.stringContaining("nested deeper than 64 levels"),
    ]);
  });

  it("with 1e309 in a tool call's arguments is tool_arguments_number_out_of_range, not a recorded null", async () => {
    const printed = '{"text":"","tool_calls":[{"name":"papers__search","arguments":{"limit":1e309}}]}';
    expect((await rejection(turn(agentPrinting(printed)))).code).toBe("tool_arguments_number_out_of_range");
  });

  it("within the limits is read as before", async () => {
    const printed = '{"text":"ok","tool_calls":[{"name":"papers__search","arguments":{"limit":1e308}}]}';
    const reply = await turn(agentPrinting(printed));
    expect(reply.toolCalls.map((c) => c.arguments)).toEqual([{ limit: 1e308 }]);
  });
});

describe("a command router's reply", () => {
  const temp = useTempDir();
  it("nested 100,000 deep is router_bad_response saying so", async () => {
    const dir = temp();
    writeFileSync(join(dir, "reply.json"), `{"ranking":${DEEP}}`);
    const path = join(dir, "router.mjs");
    writeFileSync(
      path,
      `#!/usr/bin/env node\nimport { readFileSync } from "node:fs";\nprocess.stdin.resume().on("end", () => process.stdout.write(readFileSync(${JSON.stringify(join(dir, "reply.json"))})));\n`,
    );
    chmodSync(path, 0o755);
    const error = await rejection(
      createRouter(`command:${path}`, { path: process.env["PATH"] ?? "" }).rank(request),
    );
    expect([error.code, error.message]).toEqual([
      "router_bad_response",
      expect.stringContaining("nested deeper than 64 levels"),
    ]);
  });
});

describe("an http router's reply", () => {
  let server: Server;
  let base = "";
  let answer: (res: ServerResponse) => void = (res) => res.end("{}");
  /** Whether the last streamed reply was cut before the server wrote all of it. */
  let cutShort: boolean | null = null;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume().on("end", () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rank`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );

  /** 64 MiB of JSON-ish bytes, written as the client reads them (backpressure kept). */
  const stream64MiB = (declare: boolean) => (res: ServerResponse) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = 64;
    cutShort = null;
    res.on("error", () => undefined);
    res.on("close", () => (cutShort = left > 0));
    res.writeHead(200, {
      "content-type": "application/json",
      ...(declare ? { "content-length": String(64 * 1024 * 1024) } : {}),
    });
    const pump = () => {
      while (left > 0) {
        left--;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  };

  it.each([
    ["streamed", false],
    ["declared", true],
  ])(
    "of 64 MiB (%s) is router_bad_response at the 8 MiB cap, and the rest is never read",
    async (_, declare) => {
      answer = stream64MiB(declare);
      const error = await rejection(createRouter(`http:${base}`).rank(request));
      expect([error.code, error.message]).toEqual([
        "router_bad_response",
        `http router ${base} answered more than 8388608 bytes`,
      ]);
      await new Promise<void>((resolve) => {
        const wait = () => (cutShort === null ? setTimeout(wait, 10) : resolve());
        wait();
      });
      expect(cutShort).toBe(true);
    },
  );

  it("nested 100,000 deep, or not UTF-8, is router_bad_response", async () => {
    answer = (res) => res.end(`{"results":${DEEP}}`);
    const deep = await rejection(createRouter(`http:${base}`).rank(request));
    expect([deep.code, deep.message]).toEqual([
      "router_bad_response",
      expect.stringContaining("nested deeper than 64"),
    ]);
    answer = (res) => res.end(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    const bytes = await rejection(createRouter(`http:${base}`).rank(request));
    expect([bytes.code, bytes.message]).toEqual(["router_bad_response", expect.stringContaining("UTF-8")]);
  });
});

describe("tool arguments from a provider", () => {
  it("nested too deep end the episode with tool_arguments_too_deep (OpenAI, Anthropic, text protocol)", () => {
    expect(
      thrownSync(() => readToolCall({ function: { name: "f", arguments: `{"a":${DEEP}}` } }, 0)).code,
    ).toBe("tool_arguments_too_deep");
    const input = JSON.parse(`{"a":${DEEP}}`) as unknown;
    expect(
      thrownSync(() => readAnthropicMessage({ content: [{ type: "tool_use", id: "t", name: "f", input }] }))
        .code,
    ).toBe("tool_arguments_too_deep");
    expect(
      thrownSync(() => parseTextToolCalls(`<tool_call>{"name":"f","arguments":{"a":${DEEP}}}</tool_call>`, 1))
        .code,
    ).toBe("tool_arguments_too_deep");
  });

  it("holding 1e309 end it with tool_arguments_number_out_of_range; truncated JSON stays a malformed call", () => {
    expect(
      thrownSync(() => readToolCall({ function: { name: "f", arguments: '{"n":1e309}' } }, 0)).code,
    ).toBe("tool_arguments_number_out_of_range");
    const input = JSON.parse('{"n":-1e309}') as unknown;
    expect(
      thrownSync(() => readAnthropicMessage({ content: [{ type: "tool_use", id: "t", name: "f", input }] }))
        .code,
    ).toBe("tool_arguments_number_out_of_range");
    expect(readToolCall({ function: { name: "f", arguments: '{"n":' } }, 0).malformed).toBeDefined();
  });
});

describe("a judge's reply", () => {
  it("nested 100,000 deep is malformed, never parsed", () => {
    const judge = { dimensions: [{ id: "accuracy", min: 1, max: 5 }], rationale_max_chars: 100 } as never;
    expect(parseJudgeReply(DEEP, judge)).toMatchObject({ ok: false, reason: "reply_not_object" });
  });
});
