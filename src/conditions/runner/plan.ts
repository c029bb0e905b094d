import type { Plan, Protocol, Task } from "../../authoring/index.ts";
import { canonicalSha256, compareCodePoints, inputError, taskSizeKey, usageError } from "../../core/index.ts";
import type { Agent } from "../agents/types.ts";
import type { Catalog } from "../catalog/schema.ts";
import { TurnTokenCounter, type TokenCounter } from "../execution/tokens.ts";
import type { ConditionManifest } from "../routing/manifest-schema.ts";
import { planEpisodes, type PlannedEpisode, type Selection, type Shard } from "./episodes.ts";
import type { RunMetadata } from "./record.ts";
import type { MatrixInput } from "./run.ts";
import { promptTurnLimitProblems } from "./turn-budget.ts";
import { searchSettings } from "./search-settings.ts";

/** What planning reads of the loaded benchmark: the protocol, its plan and the catalogs, with hashes. */
export interface BenchmarkValues {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: readonly { readonly size: number; readonly catalog: Catalog }[];
}

/** A corpus that passed its checks, with the hashes a run records. */
export interface CorpusValues {
  readonly tasks: readonly Task[];
  readonly tasksSha256: string;
  readonly fileSha256: string;
}

export function checkSelection(
  manifest: ConditionManifest,
  protocol: Protocol,
  episodes: readonly PlannedEpisode[],
  conditions: readonly string[],
  sizes: readonly number[],
): void {
  const unknownConditions = conditions.filter(
    (c) => !protocol.conditions.some((p) => p.id === c) || !manifest.conditions.includes(c),
  );
  if (unknownConditions.length > 0)
    throw usageError(
      "unknown_condition",
      `no such condition: ${unknownConditions.join(", ")} (have ${manifest.conditions.join(", ")})`,
    );
  const unknownSizes = sizes.filter((s) => !protocol.catalog_sizes.includes(s));
  if (unknownSizes.length > 0)
    throw usageError(
      "unknown_catalog_size",
      `no such catalog size: ${unknownSizes.join(", ")} (have ${protocol.catalog_sizes.join(", ")})`,
    );
  if (episodes.length === 0)
    throw usageError("empty_selection", "the selection has no episodes (check --task and --shard)");
  const entries = new Set(manifest.entries.map(taskSizeKey));
  const missing = episodes.find((e) => !entries.has(taskSizeKey(e)));
  if (missing)
    throw inputError(
      "run",
      "condition_manifest_incomplete",
      `the condition manifest has no entry for ${missing.semantic_task_id} at ${missing.catalog_size}`,
    );
}

/** What the user asked to run; absent conditions or sizes mean all the protocol has. */
export interface SelectionRequest {
  readonly trials: number;
  readonly conditions?: readonly string[];
  readonly catalogSizes?: readonly number[];
  readonly tasks?: string;
  readonly shard?: Shard;
}

export interface RunPlan {
  readonly episodes: PlannedEpisode[];
  /** The selection as the run file's metadata records it. */
  readonly selection: RunMetadata["selection"];
}

/** The checked episode matrix of a selection (refused: unknown condition or size, nothing selected, no manifest entry). */
export function planRun(
  request: SelectionRequest,
  loaded: BenchmarkValues,
  corpus: CorpusValues,
  manifest: ConditionManifest,
): RunPlan {
  const { protocol } = loaded;
  const conditions = request.conditions ?? protocol.conditions.map((c) => c.id);
  const catalogSizes = request.catalogSizes ?? protocol.catalog_sizes;
  const selection = { conditions, catalogSizes, trials: request.trials, tasks: request.tasks ?? null };
  const episodes = planEpisodes(corpus.tasks, loaded.plan, selection, request.shard ?? null);
  checkSelection(manifest, protocol, episodes, conditions, catalogSizes);
  return {
    episodes,
    selection: {
      conditions: [...conditions],
      catalog_sizes: [...catalogSizes],
      tasks: request.tasks ?? null,
      ...selectedTasks(corpus.tasks, loaded.plan, selection),
    },
  };
}

/** The tasks the selection covers before sharding: their count and the hash of their sorted ids. */
function selectedTasks(tasks: readonly Task[], plan: Plan, selection: Selection) {
  const ids = [
    ...new Set(planEpisodes(tasks, plan, { ...selection, trials: 1 }, null).map((e) => e.semantic_task_id)),
  ].sort(compareCodePoints);
  return { task_count: ids.length, task_ids_sha256: canonicalSha256(ids) };
}

export interface MatrixParts {
  readonly episodes: readonly PlannedEpisode[];
  readonly agent: Agent;
  readonly loaded: BenchmarkValues;
  readonly manifest: ConditionManifest;
  readonly systemPrompt: string;
  readonly counter: TokenCounter;
  readonly metadata: RunMetadata;
  readonly shard: Shard | undefined;
  readonly concurrency: number;
  readonly batch: boolean;
}

/** The matrix a run (or its estimate) replays: the agent loop's settings come from the protocol. */
export function matrixInput(parts: MatrixParts): Omit<MatrixInput, "maxErrors"> {
  const { protocol } = parts.loaded;
  return {
    episodes: parts.episodes,
    agent: parts.agent,
    catalogs: new Map(parts.loaded.catalogs.map((c) => [c.size, c.catalog])),
    manifest: parts.manifest,
    settings: {
      maxTurns: protocol.agent_loop.max_turns,
      maxToolCallsPerTurn: protocol.agent_loop.max_tool_calls_per_turn,
      systemPrompt: parts.systemPrompt,
      requestMoreTools: protocol.agent_loop.request_more_tools_token,
      // The origin harness's trigger, only for a run that asked for it (labelled, never gated).
      ...(parts.metadata.progressive_trigger === "gold"
        ? { goldTrigger: { incompleteMessage: protocol.agent_loop.incomplete_task_message } }
        : {}),
    },
    searches: searchSettings(protocol),
    tokens: new TurnTokenCounter(parts.counter),
    metadata: parts.metadata,
    shard: parts.shard ? `${parts.shard.index}/${parts.shard.count}` : null,
    // Batch mode advances every pending episode together, one turn per batch.
    concurrency: parts.batch ? Math.max(1, parts.episodes.length) : parts.concurrency,
  };
}

/** The agent is told the limit it runs under; a prompt that says another number is refused. */
export function checkSystemPrompt(systemPrompt: string, protocol: Protocol, file: string): void {
  const stated = promptTurnLimitProblems(systemPrompt, protocol)[0];
  if (stated !== undefined) throw inputError("protocol", stated.code, stated.message, { file });
}
