/** Search conditions (#34) as the runner sees them: settings by condition id, and who may run them. */
import type { Protocol } from "../../authoring/index.ts";
import { usageError } from "../../core/index.ts";
import { isModelAgent, providerOf } from "../agents/create.ts";
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
 * A native search condition (the provider runs the search) needs an agent behind a provider: the
 * reference, probe, careful-reader and command agents are refused before the run (exit 2).
 * Whether the provider can serve it (Chat Completions cannot) is the provider agent's to say.
 */
export function checkSearchAgent(protocol: Protocol, conditions: readonly string[], agentSpec: string): void {
  const native = [...searchSettings(protocol)].filter(
    ([id, s]) => s.executor === "provider" && conditions.includes(id),
  );
  const providerAgent = isModelAgent(agentSpec) && providerOf(agentSpec).kind !== "command";
  if (native.length > 0 && !providerAgent)
    throw usageError(
      "native_search_needs_model",
      `${native.map(([id]) => id).join(", ")}: the model's provider runs the search, so it needs a model agent behind a provider, not ${agentSpec}; SEARCH-BM25 and SEARCH-REGEX, which fabench runs itself, work with every agent`,
    );
}

/** The loop's settings for one condition: its search settings when it is a search condition. */
export function withSearch(settings: LoopSettings, search: SearchSettings | undefined): LoopSettings {
  return search === undefined ? settings : { ...settings, search };
}
