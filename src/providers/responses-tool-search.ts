/**
 * OpenAI's own tool search (#34), in the Responses API's shapes (openai-node
 * `resources/responses/responses.ts`): the `ToolSearchTool` (`type: "tool_search"`, hosted, or
 * `execution: "client"` with our `description` and `parameters`) beside every `FunctionTool` sent
 * with `defer_loading: true`. A search comes back as a `ResponseToolSearchCall` item
 * (`tool_search_call`: `arguments`, `call_id`, `execution`) and, hosted, a
 * `ResponseToolSearchOutputItem` (`tool_search_output`: the loaded `tools`). A client-executed call
 * is answered with a `ResponseToolSearchOutputItemParam` built from fabench's own search.
 * The hosted tool has no engine field: there is no regex variant (tool-search.ts refuses it).
 */
import type {
  PendingClientSearch,
  ProviderSearch,
  ProviderToolSearch,
  ToolCall,
  ToolDefinition,
} from "./types.ts";

type Item = Record<string, unknown>;

/** Who runs an OpenAI tool search: OpenAI (hosted, the default) or fabench (`--openai-tool-search client`). */
export type OpenAIToolSearchExecution = "hosted" | "client";

const CLIENT_PARAMETERS = {
  bm25: {
    description: "Words describing the tool you need; returns the tools that match best.",
    key: "query",
  },
  regex: {
    description:
      "A Python re.search pattern (at most 200 characters) matched against tool names, descriptions, argument names and argument descriptions.",
    key: "pattern",
  },
} as const;

/** A catalog tool as a Responses `FunctionTool`; deferred under a native search. */
export function responsesFunctionTool(t: ToolDefinition, deferred: boolean): Item {
  return {
    type: "function",
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    strict: false,
    ...(deferred ? { defer_loading: true } : {}),
  };
}

/** The `tool_search` tool as sent: hosted carries nothing else; client-executed, our description and parameters. */
export function responsesSearchTool(search: ProviderToolSearch, execution: OpenAIToolSearchExecution): Item {
  if (execution === "hosted") return { type: "tool_search" };
  const p = CLIENT_PARAMETERS[search.engine];
  return {
    type: "tool_search",
    execution: "client",
    description: `Search the deferred tools; returns up to ${search.k} tools, callable from then on.`,
    parameters: {
      type: "object",
      properties: { [p.key]: { type: "string", description: p.description } },
      required: [p.key],
      additionalProperties: false,
    },
  };
}

/** Whether a reply's output holds tool search items (then it is kept as `raw`). */
export function hasResponsesSearch(output: readonly Item[]): boolean {
  return output.some((o) => o.type === "tool_search_call" || o.type === "tool_search_output");
}

/**
 * The searches of a reply, in order: each `tool_search_call` with the function names of the
 * `tool_search_output` that answers it (by `call_id`; hosted ids may be null, then the output
 * answers the latest call still open). A client call has no output in the reply: its names are
 * filled in by the agent once it ran the search (`pendingClientSearch`).
 */
export function readResponsesSearches(output: readonly Item[]): ProviderSearch[] {
  type Search = { query: string; loaded: string[]; callId: unknown; open: boolean; client: boolean };
  const searches: Search[] = [];
  for (const o of output) {
    if (o.type === "tool_search_call")
      searches.push({
        query: queryOf(o.arguments),
        loaded: [],
        callId: o.call_id ?? null,
        open: true,
        client: o.execution === "client",
      });
    if (o.type !== "tool_search_output") continue;
    const byId = o.call_id ? searches.find((s) => s.open && s.callId === o.call_id) : undefined;
    const target = byId ?? searches.findLast((s) => s.open);
    if (!target) continue;
    target.open = false;
    target.loaded = loadedNames(o.tools);
  }
  return searches.filter((s) => !(s.open && s.client)).map(({ query, loaded }) => ({ query, loaded }));
}

function loadedNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter((t): t is Item => isObject(t) && t.type === "function" && typeof t.name === "string")
    .map((t) => t.name as string);
}

/** The client-executed search the model is waiting on, if the reply ends with one. */
export function pendingOf(output: readonly Item[]): PendingClientSearch | undefined {
  const call = output.find(
    (o) => o.type === "tool_search_call" && o.execution === "client" && typeof o.call_id === "string",
  );
  if (!call) return undefined;
  const answered = output.some((o) => o.type === "tool_search_output" && o.call_id === call.call_id);
  return answered ? undefined : { call_id: String(call.call_id), query: queryOf(call.arguments) };
}

/** The arguments' `query` (or `pattern`), else the arguments as JSON (hosted arguments are not documented further). */
function queryOf(args: unknown): string {
  const parsed = typeof args === "string" ? safeParse(args) : args;
  if (isObject(parsed)) {
    if (typeof parsed.query === "string") return parsed.query;
    if (typeof parsed.pattern === "string") return parsed.pattern;
  }
  return typeof args === "string" ? args : JSON.stringify(args ?? null);
}

/** The answer to a client-executed search: the loaded function definitions, as sent in `tools`. */
export function clientSearchOutput(
  pending: PendingClientSearch,
  names: readonly string[],
  tools: readonly ToolDefinition[],
): Item {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const loaded = names.flatMap((n) => {
    const t = byName.get(n);
    return t ? [responsesFunctionTool(t, true)] : [];
  });
  return {
    type: "tool_search_output",
    call_id: pending.call_id,
    execution: "client",
    status: "completed",
    tools: loaded,
  };
}

/**
 * An assistant turn's raw output items as sent back: as they came, except the `function_call`
 * items the loop did not keep (calls past the cap get no `function_call_output`), `reasoning`
 * items, which a `store: false` request cannot send back without their encrypted content (the
 * neutral conversation drops them too), and the `created_by` of tool search items: the output
 * types carry it, the input types (`ResponseInputItem.ToolSearchCall`,
 * `ResponseToolSearchOutputItemParam`) have no such field.
 */
export function responsesRawItems(raw: readonly unknown[], kept: readonly ToolCall[]): Item[] {
  const ids = new Set(kept.map((c) => c.id));
  return raw
    .filter(isObject)
    .filter((o) => o.type !== "reasoning")
    .filter((o) => o.type !== "function_call" || ids.has(String(o.call_id)))
    .map((o) => (SEARCH_ITEMS.includes(String(o.type)) ? withoutCreatedBy(o) : o));
}

const SEARCH_ITEMS: readonly string[] = ["tool_search_call", "tool_search_output"];

function withoutCreatedBy(item: Item): Item {
  const { created_by: _, ...rest } = item;
  return rest;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Item {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
