/**
 * Before a run (#34): can this agent serve a native search condition? Only an agent behind a
 * provider with its own tool search can (Anthropic; OpenAI's Responses API) — the reference agent,
 * the probes, the careful reader and command agents have no provider to search for them
 * (`native_search_needs_model`), and the other provider set-ups have no native search
 * (`native_search_unsupported`, providers/tool-search.ts). Both are usage errors (exit 2).
 */
import { usageError } from "../../core/index.ts";
import { checkNativeSearch } from "../../providers/index.ts";
import type { SearchEngine } from "../search/types.ts";
import { isModelAgent, providerOf, type AgentOptions } from "./create.ts";

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
