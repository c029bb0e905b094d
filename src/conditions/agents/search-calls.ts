/**
 * How the in-process agents (reference, probes, careful reader) search under a portable search
 * condition (#34): they see the search tool `tool_search` among their tools, as a model would, and
 * read the engine from its argument (`query`: BM25, `pattern`: regex). Each query is sent at most
 * once an episode (derived from the conversation), so an agent never loops on a search that
 * loaded nothing new. Under every other condition there is no search tool and nothing here acts.
 */
import type { Task } from "../../authoring/index.ts";
import type { Message, ToolCall } from "../../providers/index.ts";
import { escapeRegex, queryFromRequest, SEARCH_TOOL_NAME, type SearchEngine } from "../search/index.ts";
import type { AgentTurnRequest } from "./types.ts";

/** The engine of the search tool this turn shows, or null when it shows none. */
export function searchEngineOf(request: Pick<AgentTurnRequest, "tools">): SearchEngine | null {
  const tool = request.tools.find((t) => t.name === SEARCH_TOOL_NAME);
  if (tool === undefined) return null;
  return "pattern" in tool.parameters.properties ? "regex" : "bm25";
}

/** The queries (or patterns) the agent sent to the search tool so far, in order. */
export function searchesMade(messages: readonly Message[]): string[] {
  return messages.flatMap((m) =>
    m.role !== "assistant"
      ? []
      : m.tool_calls.flatMap((c) => {
          if (c.name !== SEARCH_TOOL_NAME || typeof c.arguments !== "object" || c.arguments === null)
            return [];
          const args = c.arguments as Record<string, unknown>;
          const value = args["query"] ?? args["pattern"];
          return typeof value === "string" ? [value] : [];
        }),
  );
}

/** A call of the search tool with this query, or null: no search tool, an empty query, or one already sent. */
export function searchCall(
  request: AgentTurnRequest,
  query: (engine: SearchEngine) => string,
): ToolCall | null {
  const engine = searchEngineOf(request);
  if (engine === null) return null;
  const text = query(engine);
  if (text === "" || searchesMade(request.messages).includes(text)) return null;
  return {
    id: `call_${request.turn}`,
    name: SEARCH_TOOL_NAME,
    arguments: engine === "bm25" ? { query: text } : { pattern: text },
  };
}

/** The first search: the request's own words (`queryFromRequest`), before anything else. */
export function requestSearch(request: AgentTurnRequest, task: Pick<Task, "query">): ToolCall | null {
  if (searchEngineOf(request) === null || searchesMade(request.messages).length > 0) return null;
  return searchCall(request, (engine) => queryFromRequest(task, engine));
}

/**
 * A search for tools the agent knows it needs by name, as an agent that knows a tool's name types
 * it: BM25, the exact function names joined by spaces (the tokeniser indexes an identifier whole, so
 * the exact name beats look-alikes sharing its words); regex, the escaped names as whole names
 * (`^(?:a|b)$`). Several names in one search while they fit `k`.
 */
export function nameQuery(engine: SearchEngine, names: readonly string[]): string {
  if (engine === "regex") return `^(?:${names.map(escapeRegex).join("|")})$`;
  return [...new Set(names)].join(" ");
}

/** Whether a name query (`nameQuery`) asked for this name: the name as a word (BM25) or as an alternative (regex). */
export function askedFor(engine: SearchEngine, query: string, name: string): boolean {
  if (engine === "regex") return query.slice(4, -2).split("|").includes(escapeRegex(name));
  return query.split(" ").includes(name);
}

/** A conversation without the search tool's calls and replies: what a reader of records reads. */
export function withoutSearches(request: AgentTurnRequest): AgentTurnRequest {
  if (searchEngineOf(request) === null) return request;
  const messages = request.messages.flatMap((m): Message[] => {
    if (m.role === "tool") return m.name === SEARCH_TOOL_NAME ? [] : [m];
    if (m.role !== "assistant") return [m];
    return [{ ...m, tool_calls: m.tool_calls.filter((c) => c.name !== SEARCH_TOOL_NAME) }];
  });
  return { ...request, messages, tools: request.tools.filter((t) => t.name !== SEARCH_TOOL_NAME) };
}
