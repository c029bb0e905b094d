/**
 * Which providers can serve a native tool search condition (#34), refused as usage errors (exit 2)
 * before anything is sent: Anthropic's Messages API (BM25 and regex tools) and OpenAI's Responses
 * API (`tool_search`, hosted or client-executed). Chat Completions and OpenAI-compatible servers
 * have no native search; neither has the text tool protocol (there is no search block to read).
 */
import { usageError } from "../core/index.ts";
import { anthropicSearchToolDefinition } from "./anthropic-tool-search.ts";
import { responsesSearchTool, type OpenAIToolSearchExecution } from "./responses-tool-search.ts";
import type { ProviderToolSearch } from "./types.ts";

export const OPENAI_TOOL_SEARCH_EXECUTIONS = ["hosted", "client"] as const;
export type { OpenAIToolSearchExecution };

export interface NativeSearchTarget {
  /** The agent's provider kind: `anthropic`, `openai`, `openai-compatible`. */
  readonly kind: string;
  readonly openaiApi: "chat" | "responses";
  readonly openaiToolSearch: OpenAIToolSearchExecution;
  readonly toolProtocol: "native" | "text";
}

/** Refuses a native search the provider cannot serve; `native_search_unsupported` names why. */
export function checkNativeSearch(target: NativeSearchTarget, engine: ProviderToolSearch["engine"]): void {
  if (target.toolProtocol === "text")
    throw usageError(
      "native_search_unsupported",
      "native tool search needs --tool-protocol native (the text protocol has no search blocks to read)",
    );
  if (target.kind === "anthropic") return;
  if (target.kind === "openai" && target.openaiApi === "responses")
    return checkResponsesSearch(engine, target.openaiToolSearch);
  throw usageError(
    "native_search_unsupported",
    `${target.kind}${target.kind === "openai" ? " (Chat Completions)" : ""} has no native tool search; use anthropic:MODEL, or openai:MODEL with --openai-api responses`,
  );
}

/** OpenAI's hosted `tool_search` has no engine to choose: a regex condition needs the client-executed variant. */
export function checkResponsesSearch(
  engine: ProviderToolSearch["engine"],
  execution: OpenAIToolSearchExecution,
): void {
  if (engine === "regex" && execution === "hosted")
    throw usageError(
      "native_search_unsupported",
      "OpenAI's hosted tool_search has no regex variant; use --openai-tool-search client (fabench's regex answers the model's searches)",
    );
}

/**
 * The provider's search tool exactly as a request sends it (without a cache breakpoint), so its
 * schema's tokens can be counted with the loaded tools' under a native condition.
 */
export function nativeSearchToolDefinition(
  target: Pick<NativeSearchTarget, "kind" | "openaiToolSearch">,
  search: ProviderToolSearch,
): Record<string, unknown> {
  return target.kind === "anthropic"
    ? anthropicSearchToolDefinition(search)
    : responsesSearchTool(search, target.openaiToolSearch);
}
