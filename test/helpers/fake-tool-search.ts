/**
 * A fake provider on 127.0.0.1 that runs the providers' own tool search (#34), speaking the real
 * wire formats the official SDKs send and read: Anthropic Messages (`/v1/messages`: the
 * `tool_search_tool_bm25_20251119` / `tool_search_tool_regex_20251119` tools, `server_tool_use`,
 * `tool_search_tool_result` with `tool_reference` blocks) and OpenAI Responses (`/v1/responses`:
 * the `tool_search` tool hosted or `execution: "client"`, `tool_search_call`, `tool_search_output`).
 *
 * Its model is a script: with no tool result yet it searches with `query`; the server side (or,
 * client-executed, fabench) loads the deferred tools whose name or description matches (BM25: any
 * query word, case-insensitive, most words matched first; regex: the pattern, case-insensitive), and the model calls the
 * tool it came for when the search loaded it (a name in `callArguments`, called with those
 * arguments — so a whole episode through `fabench run` can return a required route's evidence),
 * else the first loaded tool with `{}`; once a tool result is in the conversation it answers `done`. Like the real
 * APIs it refuses (400) a deferred tool carrying `cache_control`, and a call to a deferred tool no
 * search loaded. Every request body is kept for the test to read.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, unknown>;

export interface FakeToolSearch {
  readonly url: string;
  /** Request bodies as received, in order. */
  readonly bodies: Json[];
  close(): Promise<void>;
}

/** The query the fake model sends, per engine (the regex one is a pattern). */
export type FakeQueries = Readonly<Record<"bm25" | "regex", string>>;

export interface FakeToolSearchOptions {
  readonly queries: FakeQueries;
  /** The tools the model came for, by function name, with the arguments it calls them with. */
  readonly callArguments?: Readonly<Record<string, Json>>;
}

export async function startFakeToolSearch(options: FakeToolSearchOptions): Promise<FakeToolSearch> {
  const bodies: Json[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as Json;
      bodies.push(body);
      const answer = req.url?.includes("/messages") ? anthropic(body, options) : responses(body, options);
      res
        .writeHead("error" in answer ? 400 : 200, { "content-type": "application/json" })
        .end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The deferred tools whose name or description the query matches, in the order sent. */
export function matching(tools: readonly Json[], query: string, engine: "bm25" | "regex"): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const pattern = new RegExp(query, "i");
  // BM25-like enough for a script: more query words matched first, then the order sent.
  const score = (t: Json): number => {
    const text = `${t.name} ${t.description}`;
    if (engine === "regex") return pattern.test(text) ? 1 : 0;
    return words.filter((w) => text.toLowerCase().includes(w)).length;
  };
  return tools
    .map((t, index) => ({ name: String(t.name), score: score(t), index }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((t) => t.name)
    .slice(0, 5);
}

const badRequest = (message: string) => ({
  type: "error",
  error: { type: "invalid_request_error", message },
});

/** The tool the model calls among those loaded: the one it came for, else the first. */
function pick(
  names: readonly string[],
  options: FakeToolSearchOptions,
): { name: string; input: Json } | null {
  const wanted = names.find((n) => options.callArguments?.[n] !== undefined) ?? names[0];
  return wanted === undefined ? null : { name: wanted, input: options.callArguments?.[wanted] ?? {} };
}

function anthropic(body: Json, options: FakeToolSearchOptions): Json {
  const queries = options.queries;
  const tools = (body.tools ?? []) as Json[];
  const search = tools.find((t) => String(t.type).startsWith("tool_search_tool_"));
  const deferred = tools.filter((t) => t.defer_loading === true);
  if (deferred.some((t) => t.cache_control !== undefined))
    return badRequest("a tool with defer_loading cannot carry cache_control");
  const blocks = ((body.messages ?? []) as Json[]).flatMap((m) => (m.content ?? []) as Json[]);
  const loaded = blocks.flatMap((b) =>
    b.type === "tool_search_tool_result"
      ? (((b.content as Json).tool_references ?? []) as Json[]).map((r) => String(r.tool_name))
      : [],
  );
  for (const b of blocks)
    if (b.type === "tool_use" && deferred.some((t) => t.name === b.name) && !loaded.includes(String(b.name)))
      return badRequest(`tool ${b.name} was not loaded by a tool search`);
  if (blocks.some((b) => b.type === "tool_result")) return anthropicReply([{ type: "text", text: "done" }]);
  if (!search) return anthropicReply([{ type: "text", text: "no search tool" }]);
  const engine = String(search.type).includes("regex") ? "regex" : "bm25";
  const query = queries[engine];
  const names = matching(deferred, query, engine);
  const chosen = pick(names, options);
  const id = "srvtoolu_1";
  return anthropicReply([
    { type: "text", text: "Searching.", citations: null },
    { type: "server_tool_use", id, name: search.name, input: { query }, caller: { type: "direct" } },
    {
      type: "tool_search_tool_result",
      tool_use_id: id,
      content: {
        type: "tool_search_tool_search_result",
        tool_references: names.map((n) => ({ type: "tool_reference", tool_name: n })),
      },
    },
    ...(chosen ? [{ type: "tool_use", id: "toolu_1", ...chosen, caller: { type: "direct" } }] : []),
  ]);
}

function anthropicReply(content: Json[]): Json {
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model: "fake-model",
    content,
    stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
}

function responses(body: Json, options: FakeToolSearchOptions): Json {
  const queries = options.queries;
  const tools = (body.tools ?? []) as Json[];
  const search = tools.find((t) => t.type === "tool_search");
  const deferred = tools.filter((t) => t.type === "function" && t.defer_loading === true);
  const input = (body.input ?? []) as Json[];
  const loaded = input.flatMap((i) =>
    i.type === "tool_search_output" ? ((i.tools ?? []) as Json[]).map((t) => String(t.name)) : [],
  );
  for (const i of input)
    if (
      i.type === "function_call" &&
      deferred.some((t) => t.name === i.name) &&
      !loaded.includes(String(i.name))
    )
      return badRequest(`function ${i.name} was not loaded by a tool search`);
  if (input.some((i) => i.type === "function_call_output"))
    return responsesReply([
      { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [outputText("done")] },
    ]);
  if (!search) return responsesReply([]);
  if (search.execution === "client") return clientSearch(search, input, loaded);
  // Hosted tool_search has no engine to choose: the fake searches words, as BM25 would.
  const query = queries.bm25;
  const names = matching(deferred, query, "bm25");
  return responsesReply([
    {
      type: "tool_search_call",
      id: "tsc_1",
      call_id: null,
      execution: "server",
      status: "completed",
      arguments: { query },
    },
    {
      type: "tool_search_output",
      id: "tso_1",
      call_id: null,
      execution: "server",
      status: "completed",
      tools: deferred.filter((t) => names.includes(String(t.name))),
    },
    ...call(pick(names, options)),
  ]);

  /** Client-executed: the model asks with the parameter the tool declares, then calls what fabench loaded. */
  function clientSearch(tool: Json, items: readonly Json[], found: readonly string[]): Json {
    if (items.some((i) => i.type === "tool_search_output")) return responsesReply(call(pick(found, options)));
    const key = String(((tool.parameters as Json).required as string[])[0]);
    const query = key === "pattern" ? queries.regex : queries.bm25;
    return responsesReply([
      {
        type: "tool_search_call",
        id: "tsc_1",
        call_id: "call_search_1",
        execution: "client",
        status: "completed",
        arguments: { [key]: query },
      },
    ]);
  }
}

function call(chosen: { name: string; input: Json } | null): Json[] {
  return chosen
    ? [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: chosen.name,
          arguments: JSON.stringify(chosen.input),
          status: "completed",
        },
      ]
    : [];
}

const outputText = (text: string) => ({ type: "output_text", text, annotations: [] });

function responsesReply(output: Json[]): Json {
  return {
    id: "resp_fake",
    object: "response",
    created_at: 1_790_000_000,
    model: "fake-model",
    status: "completed",
    output,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
