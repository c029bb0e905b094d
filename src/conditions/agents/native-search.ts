/**
 * Before a run (#34): can this agent serve a native search condition? Only an agent behind a
 * provider with its own tool search can (Anthropic; OpenAI's Responses API) — the reference agent,
 * the probes, the careful reader and command agents have no provider to search for them
 * (`native_search_needs_model`), and the other provider set-ups have no native search
 * (`native_search_unsupported`, providers/tool-search.ts). Both are usage errors (exit 2).
 */
import { usageError } from "../../core/index.ts";
import { checkNativeSearch, nativeSearchToolDefinition } from "../../providers/index.ts";
import type { SearchEngine, SearchSettings } from "../search/types.ts";
import { isModelAgent, providerOf, type AgentOptions } from "./create.ts";
import type { AgentIdentity } from "./types.ts";

export function checkAgentNativeSearch(
  spec: string,
  options: Pick<AgentOptions, "openaiApi" | "openaiToolSearch" | "toolProtocol">,
  engine: SearchEngine,
): void {
  const { kind } = providerOf(spec);
  if (!isModelAgent(spec) || kind === "command")
    throw usageError(
      "native_search_needs_model",
      `a native search condition needs a model agent (anthropic:MODEL or openai:MODEL with --openai-api responses), not ${spec}`,
    );
  checkNativeSearch(
    {
      kind,
      openaiApi: options.openaiApi,
      openaiToolSearch: options.openaiToolSearch ?? "hosted",
      toolProtocol: options.toolProtocol,
    },
    engine,
  );
}

/**
 * The provider's search tool exactly as this model agent sends it, for counting its schema's tokens
 * under a native condition (with the loaded tools' schemas, never a deferred one's). Read from the
 * agent's identity: its provider kind and, on OpenAI, who runs the search.
 */
export function nativeSearchToolFor(
  identity: AgentIdentity,
  settings: Pick<SearchSettings, "engine" | "k">,
): Record<string, unknown> {
  const execution = identity.settings.openai_tool_search === "client" ? "client" : "hosted";
  return nativeSearchToolDefinition({ kind: identity.agent, openaiToolSearch: execution }, settings);
}
