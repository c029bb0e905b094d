/**
 * The portable search tool as the agent sees it (executor fabench), and its reply. The name
 * `tool_search` cannot collide with a catalog function (those are `{tool}__{endpoint}`).
 */
import type { ToolDefinition } from "../../providers/index.ts";
import type { Endpoint } from "../catalog/index.ts";
// The file, not the front door: the loop (execution/) imports this stage, so its index would close a cycle.
import { renderTool } from "../execution/render.ts";
import { hitDescription } from "./hits.ts";
import { MAX_PATTERN_LENGTH } from "./regex.ts";
import type { SearchEngine, SearchHit, SearchOutcome } from "./types.ts";

export const SEARCH_TOOL_NAME = "tool_search";

/** The search tool's definition for an engine and k (the protocol's). */
export function searchTool(engine: SearchEngine, k: number): ToolDefinition {
  const found = `returns up to ${k} tools, which you can call from your next turn on.`;
  if (engine === "bm25")
    return {
      name: SEARCH_TOOL_NAME,
      description: `Search the tool catalog by words. ${found[0]?.toUpperCase()}${found.slice(1)}`,
      parameters: {
        type: "object",
        properties: {
          query: {
            type: "string",
            description: `Words describing the tool you need; ${found}`,
          },
        },
        required: ["query"],
        additionalProperties: false,
      },
    };
  return {
    name: SEARCH_TOOL_NAME,
    description: `Search the tool catalog with a regular expression. ${found[0]?.toUpperCase()}${found.slice(1)}`,
    parameters: {
      type: "object",
      properties: {
        pattern: {
          type: "string",
          description: `A Python re.search pattern (at most ${MAX_PATTERN_LENGTH} characters) matched against tool names, descriptions, argument names and argument descriptions; case-sensitive unless it starts with (?i). ${found[0]?.toUpperCase()}${found.slice(1)}`,
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  };
}

/**
 * The tool result content (JSON): the loaded tools best first, or the refusal. Descriptions come
 * from the hits (`catalogSearch` hits carry them) or, given the catalog, from its endpoints.
 */
export function searchReply(outcome: SearchOutcome, endpoints?: readonly Endpoint[]): string {
  if (!outcome.ok) return JSON.stringify({ error: { code: outcome.code, message: outcome.message } });
  const byRoute = new Map((endpoints ?? []).map((e) => [e.route_id, e]));
  const describe = (h: SearchHit) => {
    const e = byRoute.get(h.route_id);
    return e === undefined ? hitDescription(h) : renderTool(e).description;
  };
  return JSON.stringify({
    tools: outcome.hits.map((h) => ({ name: h.function_name, description: describe(h) })),
  });
}
