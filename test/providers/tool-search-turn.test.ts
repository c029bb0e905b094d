/**
 * Native tool search (#34) without a server: which agents and providers can serve it (usage errors
 * before a run), the search tool as sent (for the token count), raw content past the per-turn cap,
 * and a turn's bound on client searches and paused server turns.
 */
import { describe, expect, it } from "vitest";
import { nativeSearchTurn } from "../../src/conditions/agents/model-search.ts";
import { responsesInput } from "../../src/providers/openai-responses.ts";
import {
  checkAgentNativeSearch,
  MAX_SEARCH_ROUNDS,
  nativeSearchToolFor,
  PROBE_NAMES,
} from "../../src/conditions/agents/index.ts";
import {
  checkNativeSearch,
  createClient,
  nativeSearchToolDefinition,
  toAnthropicMessages,
  type ProviderReply,
  type ProviderRequest,
  type ToolDefinition,
} from "../../src/providers/index.ts";

const settings = { temperature: 0, max_output_tokens: 64, seed: null, prompt_cache: true };
const tool = (name: string): ToolDefinition => ({
  name,
  description: `${name} does one thing.`,
  parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
});
const TOOLS = [tool("weather__current"), tool("weather__forecast"), tool("billing__invoice")];
const USER = { role: "user", content: "What is it like outside in Oslo?" } as const;

type Json = Record<string, unknown>;
describe("which providers serve a native search", () => {
  const target = {
    kind: "anthropic",
    openaiApi: "chat",
    openaiToolSearch: "hosted",
    toolProtocol: "native",
  } as const;
  const code = (f: () => void) => {
    try {
      f();
      return null;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  it("Anthropic both engines, OpenAI Responses hosted BM25 and client-executed both", () => {
    expect(code(() => checkNativeSearch(target, "bm25"))).toBeNull();
    expect(code(() => checkNativeSearch(target, "regex"))).toBeNull();
    const responses = { ...target, kind: "openai", openaiApi: "responses" } as const;
    expect(code(() => checkNativeSearch(responses, "bm25"))).toBeNull();
    expect(code(() => checkNativeSearch({ ...responses, openaiToolSearch: "client" }, "regex"))).toBeNull();
  });

  it("refuses hosted regex, Chat Completions, OpenAI-compatible and the text protocol", () => {
    const responses = { ...target, kind: "openai", openaiApi: "responses" } as const;
    expect(code(() => checkNativeSearch(responses, "regex"))).toBe("native_search_unsupported");
    expect(code(() => checkNativeSearch({ ...target, kind: "openai" }, "bm25"))).toBe(
      "native_search_unsupported",
    );
    expect(code(() => checkNativeSearch({ ...target, kind: "openai-compatible" }, "bm25"))).toBe(
      "native_search_unsupported",
    );
    expect(code(() => checkNativeSearch({ ...target, toolProtocol: "text" }, "bm25"))).toBe(
      "native_search_unsupported",
    );
  });

  it("a Chat Completions client refuses a native search request before sending it", async () => {
    const client = createClient({
      kind: "openai",
      model: "m",
      env: { OPENAI_API_KEY: "k" },
      openaiApi: "chat",
      timeoutMs: 1000,
      baseUrl: "http://127.0.0.1:9/v1",
    });
    const request = {
      system: "s",
      messages: [USER],
      tools: TOOLS,
      settings,
      toolSearch: { engine: "bm25", k: 5 },
    } as const;
    await expect(client.complete(request)).rejects.toMatchObject({ code: "native_search_unsupported" });
  });

  it("the search tool as a model agent sends it, read from its identity", () => {
    const identity = (agent: string, settings: Record<string, unknown>) => ({ agent, model: "m", settings });
    const bm25 = { engine: "bm25", k: 5 } as const;
    expect(nativeSearchToolFor(identity("anthropic", {}), bm25)).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    expect(nativeSearchToolFor(identity("openai", { openai_api: "responses" }), bm25)).toEqual({
      type: "tool_search",
    });
    expect(
      nativeSearchToolFor(
        identity("openai", { openai_api: "responses", openai_tool_search: "client" }),
        bm25,
      ),
    ).toMatchObject({ type: "tool_search", execution: "client" });
  });

  it("the search tool definition as sent, for counting its tokens", () => {
    expect(
      nativeSearchToolDefinition(
        { kind: "anthropic", openaiToolSearch: "hosted" },
        { engine: "regex", k: 5 },
      ),
    ).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
    expect(
      nativeSearchToolDefinition({ kind: "openai", openaiToolSearch: "hosted" }, { engine: "bm25", k: 5 }),
    ).toEqual({
      type: "tool_search",
    });
  });

  it("raw content drops the tool_use blocks the loop did not run (past the per-turn cap)", () => {
    const raw = [
      { type: "text", text: "two calls" },
      { type: "tool_use", id: "a", name: "x", input: {} },
      { type: "tool_use", id: "b", name: "y", input: {} },
    ];
    const turns = toAnthropicMessages([
      { role: "assistant", content: "two calls", tool_calls: [{ id: "a", name: "x", arguments: {} }], raw },
    ]);
    expect(turns).toEqual([{ role: "assistant", content: [raw[0], raw[1]] }]);
  });

  it("Responses raw items drop uncapped calls, reasoning, and the output-only created_by", () => {
    const call = { type: "tool_search_call", id: "t1", call_id: null, execution: "server", arguments: {} };
    const output = { type: "tool_search_output", id: "t2", call_id: null, execution: "server", tools: [] };
    const raw = [
      { type: "reasoning", id: "rs_1", summary: [] },
      { ...call, created_by: "user_1" },
      { ...output, created_by: "user_1" },
      { type: "function_call", call_id: "a", name: "x", arguments: "{}" },
      { type: "function_call", call_id: "b", name: "y", arguments: "{}" },
    ];
    const input = responsesInput({
      system: "s",
      messages: [
        { role: "assistant", content: "", tool_calls: [{ id: "a", name: "x", arguments: {} }], raw },
      ],
      tools: [],
      settings,
    });
    expect(input).toEqual([call, output, raw[3]]);
  });
});

describe("a native search turn, on its own", () => {
  it("refuses agents without a provider search, and provider set-ups without one", () => {
    const options = { openaiApi: "chat", toolProtocol: "native" } as const;
    const code = (spec: string, o: Parameters<typeof checkAgentNativeSearch>[1] = options) => {
      try {
        checkAgentNativeSearch(spec, o, "bm25");
        return null;
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    for (const spec of ["reference", `probe:${PROBE_NAMES[0]}`, "careful-reader", "command:/bin/true"])
      expect(code(spec)).toBe("native_search_needs_model");
    expect(code("anthropic:m")).toBeNull();
    expect(code("openai:m")).toBe("native_search_unsupported");
    expect(code("openai:m", { ...options, openaiApi: "responses" })).toBeNull();
  });

  it(`answers at most ${MAX_SEARCH_ROUNDS} client searches in a turn, then ends it with no call`, async () => {
    const pending = (n: number): ProviderReply => ({
      text: `round ${n}`,
      toolCalls: [],
      usage: { input_tokens: 1, output_tokens: 2 },
      model: "m",
      searches: [],
      raw: [{ type: "tool_search_call", call_id: `c${n}`, execution: "client", arguments: { query: "q" } }],
      pendingSearch: { call_id: `c${n}`, query: "q" },
    });
    let sent = 0;
    const request = {
      system: "s",
      messages: [USER],
      tools: TOOLS,
      settings,
      toolSearch: { engine: "bm25", k: 5 },
    } as const;
    const turn = await nativeSearchTurn(
      request,
      pending(1),
      () => ["billing__invoice"],
      async () => pending(++sent + 1),
    );
    expect(sent).toBe(MAX_SEARCH_ROUNDS - 1);
    expect(turn.toolCalls).toEqual([]);
    expect(turn.text).toBe(`round ${MAX_SEARCH_ROUNDS}`);
    expect(turn.searches).toEqual(
      Array(MAX_SEARCH_ROUNDS).fill({ query: "q", loaded: ["billing__invoice"] }),
    );
    // Every call answered: the raw content never leaves a tool_search_call without its output.
    const raw = turn.raw as Json[];
    expect(raw.filter((o) => o.type === "tool_search_output").map((o) => o.call_id)).toEqual(
      raw.filter((o) => o.type === "tool_search_call").map((o) => o.call_id),
    );
    expect(turn.usage).toEqual({
      input_tokens: MAX_SEARCH_ROUNDS,
      output_tokens: 2 * MAX_SEARCH_ROUNDS,
      cache_read_tokens: null,
      cache_write_tokens: null,
    });
  });

  it("sends a paused server turn back as it came and goes on within the turn", async () => {
    const paused: ProviderReply = {
      text: "",
      toolCalls: [],
      usage: { input_tokens: 3, output_tokens: 1 },
      model: "m",
      searches: [{ query: "weather", loaded: ["weather__current"] }],
      raw: [
        { type: "server_tool_use", id: "s1", name: "tool_search_tool_bm25", input: { query: "weather" } },
      ],
      paused: true,
    };
    const call = { id: "toolu_1", name: "weather__current", arguments: {} };
    const going: ProviderReply = {
      text: "",
      toolCalls: [call],
      usage: { input_tokens: 4, output_tokens: 2 },
      model: "m",
      searches: [],
      raw: [{ type: "tool_use", id: "toolu_1", name: "weather__current", input: {} }],
    };
    const asked: ProviderRequest[] = [];
    const request = {
      system: "s",
      messages: [USER],
      tools: TOOLS,
      settings,
      toolSearch: { engine: "bm25", k: 5 },
    } as const;
    const turn = await nativeSearchTurn(
      request,
      paused,
      () => [],
      async (next) => {
        asked.push(next);
        return going;
      },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.messages.at(-1)).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [],
      raw: paused.raw,
    });
    expect(turn.toolCalls).toEqual([call]);
    expect(turn.searches).toEqual(paused.searches);
    expect(turn.raw).toEqual([...(paused.raw ?? []), ...(going.raw ?? [])]);
    expect(turn.usage).toMatchObject({ input_tokens: 7, output_tokens: 3 });
  });
});
