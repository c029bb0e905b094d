/**
 * Issue #33 item 4, model agents: an interrupt cancels the provider request in flight (the SDK's
 * fetch is aborted, so the connection closes) and every retry it had left; the turn rejects with
 * `interrupted`. Against a model on 127.0.0.1 that never answers.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelAgent } from "../../src/conditions/agents/model.ts";
import { FabenchError } from "../../src/core/index.ts";
import {
  Budget,
  createClient,
  RateLimiter,
  withRetries,
  type ProviderKind,
  type ProviderRequest,
} from "../../src/providers/index.ts";

const KEY = "sk-interrupt-SECRET-0123456789";
const instant = { now: () => 0, sleep: async () => undefined, random: () => 0.5 };
const policy = { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 1 };
const request: ProviderRequest = {
  system: "s",
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  settings: { temperature: 0, max_output_tokens: 16, seed: null, prompt_cache: false },
};

/** A model that reads each request and never answers; it keeps the requests it got, and which closed. */
let server: Server;
let url = "";
const got: IncomingMessage[] = [];
const closed: IncomingMessage[] = [];
beforeAll(async () => {
  server = createServer((req) => {
    got.push(req);
    req.resume();
    req.socket.on("close", () => closed.push(req));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (kind: ProviderKind, openaiApi: "chat" | "responses" = "chat") =>
  createClient({
    kind,
    model: "m",
    env: { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY },
    openaiApi,
    timeoutMs: 600_000,
    baseUrl: kind === "anthropic" ? url : `${url}/v1`,
  });

/** Resolves once the server has had `n` requests in all. */
async function requests(n: number): Promise<void> {
  while (got.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof FabenchError ? error.code : `not coded: ${String(error)}`;
  }
  return "resolved";
}

describe("a provider request when the run is interrupted", () => {
  for (const [kind, api] of [
    ["anthropic", "chat"],
    ["openai-compatible", "chat"],
    ["openai", "responses"],
  ] as const)
    it(`${kind} (${api}): the request is cancelled, its connection closed, and nothing is retried`, async () => {
      const before = got.length;
      const controller = new AbortController();
      const provider = client(kind, api);
      const sent = withRetries(
        () => provider.complete(request, controller.signal),
        policy,
        instant,
        kind,
        controller.signal,
      );
      await requests(before + 1);
      controller.abort();
      expect(await codeOf(sent)).toBe("interrupted");
      const mine = got[before] as IncomingMessage;
      while (!closed.includes(mine)) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(got.length).toBe(before + 1);
    });

  it("a model agent's turn carries the signal to its request", async () => {
    const before = got.length;
    const controller = new AbortController();
    const agent = modelAgent({
      identity: { agent: "openai-compatible", model: "m", settings: {} },
      provider: client("openai-compatible"),
      toolProtocol: "native",
      settings: request.settings,
      retry: policy,
      timing: instant,
      limiter: new RateLimiter(null, null, instant),
      budget: new Budget(null, null, 1),
      tokens: { name: "t", count: (text: string) => text.length },
    });
    const turn = agent.startEpisode({} as never, "k").turn({
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "hello" },
      ],
      tools: [],
      turn: 1,
      maxTurns: 10,
      signal: controller.signal,
    });
    await requests(before + 1);
    controller.abort();
    expect(await codeOf(turn)).toBe("interrupted");
    expect(got.length).toBe(before + 1);
  });
});
