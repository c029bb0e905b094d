/** Search conditions (#34) as the runner sees them: settings by condition id, and who may run them. */
import type { Protocol } from "../../authoring/index.ts";
import { checkAgentNativeSearch, nativeSearchToolFor } from "../agents/native-search.ts";
import type { AgentIdentity } from "../agents/types.ts";
import type { LoopSettings } from "../execution/loop.ts";
import type { SearchSettings } from "../search/index.ts";

/** Each search condition's settings (#34), by condition id; the protocol declares them. */
export function searchSettings(protocol: Protocol): Map<string, SearchSettings> {
  return new Map(
    protocol.conditions.flatMap((c) =>
      c.visibility.kind === "search"
        ? [
            [
              c.id,
              { engine: c.visibility.engine, k: c.visibility.k, executor: c.visibility.executor },
            ] as const,
          ]
        : [],
    ),
  );
}

/**
 * A native search condition (the provider runs the search) needs an agent whose provider has one:
 * the reference, probe, careful-reader and command agents are refused before the run
 * (`native_search_needs_model`), and so are providers without native search
 * (`native_search_unsupported`) — both usage errors (exit 2), from agents/native-search.ts.
 */
export function checkSearchAgent(
  protocol: Protocol,
  conditions: readonly string[],
  spec: string,
  options: Parameters<typeof checkAgentNativeSearch>[1],
): void {
  for (const [id, s] of searchSettings(protocol))
    if (s.executor === "provider" && conditions.includes(id)) checkAgentNativeSearch(spec, options, s.engine);
}

/**
 * The loop's settings for one condition: its search settings when it is a search condition, and
 * under a native one the provider's search tool as this agent sends it (its schema's tokens are
 * counted with the loaded tools', never a deferred tool's).
 */
export function withSearch(
  settings: LoopSettings,
  search: SearchSettings | undefined,
  agent?: AgentIdentity,
): LoopSettings {
  if (search === undefined) return settings;
  const native = search.executor === "provider" && agent !== undefined;
  return { ...settings, search, ...(native ? { nativeSearchTool: nativeSearchToolFor(agent, search) } : {}) };
}
