/**
 * Anthropic's own tool search (#34), in the Messages API's shapes (@anthropic-ai/sdk
 * `resources/messages/messages.ts`): the `ToolSearchToolBm25_20251119` / `ToolSearchToolRegex20251119`
 * tool beside every catalog `Tool` sent with `defer_loading: true`; the search comes back as a
 * `server_tool_use` block (name `tool_search_tool_bm25` / `tool_search_tool_regex`) and a
 * `tool_search_tool_result` block whose `content` is a `tool_search_tool_search_result` holding
 * `tool_reference` blocks (`tool_name`), or a `tool_search_tool_result_error`.
 */
import type { ProviderSearch, ProviderToolSearch, ToolCall, ToolDefinition } from "./types.ts";

type Block = Record<string, unknown>;

const SEARCH_TOOLS = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
} as const;

/**
 * The tools of a native search request: every catalog tool deferred, then the search tool. The API
 * refuses `cache_control` on a deferred tool, so the tools' cache breakpoint goes on the search
 * tool, the only one loaded up front (the system prompt keeps its own breakpoint).
 */
export function anthropicSearchTools(
  tools: readonly ToolDefinition[],
  search: ProviderToolSearch,
  cache: Record<string, unknown>,
): Block[] {
  return [
    ...tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
      defer_loading: true,
    })),
    { ...SEARCH_TOOLS[search.engine], ...cache },
  ];
}

/** The search tool as sent (no cache breakpoint), for counting its schema's tokens. */
export function anthropicSearchToolDefinition(search: ProviderToolSearch): Block {
  return { ...SEARCH_TOOLS[search.engine] };
}

const SEARCH_NAMES: readonly string[] = [SEARCH_TOOLS.bm25.name, SEARCH_TOOLS.regex.name];

/** Whether a reply's content holds tool search blocks (then it is kept as `raw`). */
export function hasAnthropicSearch(content: readonly Block[]): boolean {
  return content.some((b) => b.type === "tool_search_tool_result" || isSearchUse(b));
}

function isSearchUse(b: Block): boolean {
  return b.type === "server_tool_use" && SEARCH_NAMES.includes(String(b.name));
}

/**
 * The searches of a reply, in order: each `server_tool_use` of a search tool with the names its
 * `tool_search_tool_result` referenced (none for an error, or when the result is missing). The
 * BM25 tool's input is `{query}`; the regex tool's pattern is read from `query` too, or `pattern`.
 */
export function readAnthropicSearches(content: readonly Block[]): ProviderSearch[] {
  const results = new Map<string, string[]>();
  for (const b of content)
    if (b.type === "tool_search_tool_result" && typeof b.tool_use_id === "string")
      results.set(b.tool_use_id, referencedNames(b.content));
  return content.filter(isSearchUse).map((b) => ({
    query: queryOf(b.input),
    loaded: results.get(String(b.id)) ?? [],
  }));
}

function referencedNames(content: unknown): string[] {
  if (!isObject(content) || content.type !== "tool_search_tool_search_result") return [];
  const refs = Array.isArray(content.tool_references) ? content.tool_references : [];
  return refs
    .filter((r): r is Block => isObject(r) && r.type === "tool_reference" && typeof r.tool_name === "string")
    .map((r) => r.tool_name as string);
}

/** The query a search tool input carries: `query` (BM25, and the regex tool as documented), else `pattern`, else the input as JSON. */
export function queryOf(input: unknown): string {
  if (isObject(input)) {
    if (typeof input.query === "string") return input.query;
    if (typeof input.pattern === "string") return input.pattern;
  }
  return JSON.stringify(input ?? null);
}

/**
 * An assistant turn's raw content as sent back: as it came, except the client `tool_use` blocks
 * the loop did not keep (calls past `max_tool_calls_per_turn` get no `tool_result`, and the API
 * refuses a `tool_use` without one).
 */
export function anthropicRawBlocks(raw: readonly unknown[], kept: readonly ToolCall[]): Block[] {
  const ids = new Set(kept.map((c) => c.id));
  return raw.filter(isObject).filter((b) => b.type !== "tool_use" || ids.has(String(b.id)));
}

function isObject(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
