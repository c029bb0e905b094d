/**
 * Native tool search (#34) against the loopback fake that speaks the providers' wire formats:
 * Anthropic BM25 and regex, OpenAI hosted and client-executed. Each turn sends every catalog tool
 * with `defer_loading: true` beside the provider's search tool, reads the searches back with the
 * names they loaded, and sends the provider's content back as it came on the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelAgent } from "../../src/conditions/agents/model.ts";
import type { AgentTurnRequest, AgentTurnResponse } from "../../src/conditions/agents/index.ts";
import type { SearchEngine } from "../../src/conditions/search/types.ts";
import {
  Budget,
  createClient,
  RateLimiter,
  type ClientOptions,
  type ToolDefinition,
} from "../../src/providers/index.ts";
import { startFakeToolSearch, type FakeToolSearch } from "../helpers/fake-tool-search.ts";

const instant = { now: () => 0, sleep: async () => undefined, random: () => 0.5 };
const settings = { temperature: 0, max_output_tokens: 64, seed: null, prompt_cache: true };
const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
});
const TOOLS = [
  tool("weather__current", "Current conditions at a place."),
  tool("weather__forecast", "The next days, day by day."),
  tool("billing__invoice", "One invoice by its number."),
];
const SYSTEM = { role: "system", content: "You answer with tools." } as const;
const USER = { role: "user", content: "What is it like outside in Oslo?" } as const;

type Json = Record<string, unknown>;

function agentFor(fake: FakeToolSearch, client: Partial<ClientOptions> & Pick<ClientOptions, "kind">) {
  const base = client.kind === "anthropic" ? fake.url : `${fake.url}/v1`;
  return modelAgent({
    identity: { agent: client.kind, model: "m", settings: {} },
    provider: createClient({
      model: "m",
      env: { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" },
      openaiApi: "chat",
      timeoutMs: 10_000,
      baseUrl: base,
      ...client,
    }),
    toolProtocol: "native",
    settings,
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    timing: instant,
    limiter: new RateLimiter(null, null, instant),
    budget: new Budget(null, null, 1),
    tokens: { name: "t", count: (text: string) => text.length },
  }).startEpisode({} as never, "k");
}

function turnRequest(
  engine: SearchEngine,
  messages: AgentTurnRequest["messages"],
  clientSearch: (query: string) => readonly string[] = () => [],
): AgentTurnRequest {
  return {
    messages,
    tools: TOOLS,
    turn: messages.length === 2 ? 1 : 2,
    maxTurns: 10,
    toolSearch: { settings: { engine, k: 5, executor: "provider" }, clientSearch },
  };
}

/** Turn 2: the assistant turn as the loop keeps it (with `raw`), then the called tool's result. */
function secondTurn(first: AgentTurnResponse): AgentTurnRequest["messages"] {
  const call = first.toolCalls[0];
  if (!call) throw new Error("the fake model called no tool");
  return [
    SYSTEM,
    USER,
    { role: "assistant", content: first.text, tool_calls: first.toolCalls, raw: first.raw },
    { role: "tool", tool_call_id: call.id, name: call.name, content: '{"temp_c": 4}' },
  ];
}

describe("native tool search against the loopback fake", () => {
  let fake: FakeToolSearch;
  beforeAll(async () => {
    fake = await startFakeToolSearch({ queries: { bm25: "weather", regex: "forecast|INVOICE" } });
  });
  afterAll(async () => fake.close());

  it.each([
    [
      "bm25",
      "tool_search_tool_bm25_20251119",
      "tool_search_tool_bm25",
      "weather",
      ["weather__current", "weather__forecast"],
    ],
    [
      "regex",
      "tool_search_tool_regex_20251119",
      "tool_search_tool_regex",
      "forecast|INVOICE",
      ["weather__forecast", "billing__invoice"],
    ],
  ] as const)(
    "Anthropic %s: deferred catalog, the search tool, searches read, raw sent back",
    async (engine, type, name, query, loaded) => {
      fake.bodies.length = 0;
      const episode = agentFor(fake, { kind: "anthropic" });
      const first = await episode.turn(turnRequest(engine, [SYSTEM, USER]));
      const sent = fake.bodies[0] as Json;
      const tools = sent.tools as Json[];
      expect(tools.slice(0, 3).map((t) => [t.name, t.defer_loading, t.cache_control])).toEqual(
        TOOLS.map((t) => [t.name, true, undefined]),
      );
      // The only tool loaded up front carries the tools' cache breakpoint; the system prompt keeps its own.
      expect(tools[3]).toEqual({ type, name, cache_control: { type: "ephemeral" } });
      expect((sent.system as Json[])[0]?.cache_control).toEqual({ type: "ephemeral" });
      expect(first.searches).toEqual([{ query, loaded }]);
      // The fake model calls the first tool its search loaded.
      expect(first.toolCalls.map((c) => c.name)).toEqual([loaded[0]]);
      expect((first.raw as Json[]).map((b) => b.type)).toEqual([
        "text",
        "server_tool_use",
        "tool_search_tool_result",
        "tool_use",
      ]);
      const second = await episode.turn(turnRequest(engine, secondTurn(first)));
      expect(second.text).toBe("done");
      expect(second.searches).toEqual([]);
      const messages = (fake.bodies[1] as Json).messages as Json[];
      expect(messages[1]).toEqual({ role: "assistant", content: first.raw });
      expect(fake.bodies).toHaveLength(2);
    },
  );

  it("OpenAI hosted: deferred functions, tool_search, the output's tools read, items sent back", async () => {
    fake.bodies.length = 0;
    const episode = agentFor(fake, { kind: "openai", openaiApi: "responses" });
    const first = await episode.turn(turnRequest("bm25", [SYSTEM, USER]));
    const tools = (fake.bodies[0] as Json).tools as Json[];
    expect(tools.slice(0, 3).map((t) => [t.type, t.name, t.defer_loading])).toEqual(
      TOOLS.map((t) => ["function", t.name, true]),
    );
    expect(tools[3]).toEqual({ type: "tool_search" });
    expect(first.searches).toEqual([{ query: "weather", loaded: ["weather__current", "weather__forecast"] }]);
    expect(first.toolCalls.map((c) => [c.id, c.name])).toEqual([["call_1", "weather__current"]]);
    const second = await episode.turn(turnRequest("bm25", secondTurn(first)));
    expect(second.text).toBe("done");
    const input = (fake.bodies[1] as Json).input as Json[];
    expect(input.slice(1, 4)).toEqual(first.raw);
    expect(input[4]).toEqual({ type: "function_call_output", call_id: "call_1", output: '{"temp_c": 4}' });
  });

  it("OpenAI client-executed: fabench's search answers tool_search_call within the turn", async () => {
    fake.bodies.length = 0;
    const queries: string[] = [];
    const clientSearch = (query: string) => {
      queries.push(query);
      // A name the catalog does not hold is never loaded.
      return ["weather__forecast", "weather__nowhere"];
    };
    const episode = agentFor(fake, { kind: "openai", openaiApi: "responses", openaiToolSearch: "client" });
    const first = await episode.turn(turnRequest("bm25", [SYSTEM, USER], clientSearch));
    expect(fake.bodies).toHaveLength(2);
    const search = ((fake.bodies[0] as Json).tools as Json[])[3] as Json;
    expect(search).toMatchObject({ type: "tool_search", execution: "client" });
    expect((search.parameters as Json).required).toEqual(["query"]);
    expect(
      ((fake.bodies[0] as Json).tools as Json[]).slice(0, 3).every((t) => t.defer_loading === true),
    ).toBe(true);
    expect(queries).toEqual(["weather"]);
    expect(first.searches).toEqual([{ query: "weather", loaded: ["weather__forecast"] }]);
    expect(first.toolCalls.map((c) => c.name)).toEqual(["weather__forecast"]);
    // The follow-up request carried the call and fabench's answer: the loaded function, as sent.
    const answer = ((fake.bodies[1] as Json).input as Json[]).at(-1) as Json;
    expect(answer).toEqual({
      type: "tool_search_output",
      call_id: "call_search_1",
      execution: "client",
      status: "completed",
      tools: [((fake.bodies[0] as Json).tools as Json[])[1]],
    });
    expect((first.raw as Json[]).map((o) => o.type)).toEqual([
      "tool_search_call",
      "tool_search_output",
      "function_call",
    ]);
    // Both requests' usage: 10 + 10 input, 5 + 5 output.
    expect(first.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    const second = await episode.turn(turnRequest("bm25", secondTurn(first), clientSearch));
    expect(second.text).toBe("done");
    expect(((fake.bodies[2] as Json).input as Json[]).slice(1, 4)).toEqual(first.raw);
  });

  it("OpenAI client-executed regex: the search tool asks for a pattern", async () => {
    fake.bodies.length = 0;
    const episode = agentFor(fake, { kind: "openai", openaiApi: "responses", openaiToolSearch: "client" });
    const first = await episode.turn(turnRequest("regex", [SYSTEM, USER], () => ["weather__current"]));
    const search = ((fake.bodies[0] as Json).tools as Json[])[3] as Json;
    expect((search.parameters as Json).required).toEqual(["pattern"]);
    expect(first.searches).toEqual([{ query: "forecast|INVOICE", loaded: ["weather__current"] }]);
  });
});
