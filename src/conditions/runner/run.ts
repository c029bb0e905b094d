/**
 * Running a matrix of episodes: a pool of `concurrency` workers, one record appended per finished
 * episode, a stop request honoured between episodes. An interrupt also aborts the turns in flight:
 * those episodes end `interrupted` and are not appended, so a plain `--resume` runs them again.
 * Each worker yields to the event loop before every episode, so an in-process agent (reference,
 * probes, careful reader), whose turns never wait on I/O, still lets Ctrl-C and SIGTERM through.
 */
import type { Task } from "../../authoring/index.ts";
import { CircuitBreaker, taskSizeKey, type Tripped } from "../../core/index.ts";
import type { Agent } from "../agents/types.ts";
import type { Catalog } from "../catalog/schema.ts";
import { runEpisode, type EpisodeOutcome, type LoopSettings } from "../execution/loop.ts";
import type { ConditionManifest, ManifestEntry, Stage } from "../routing/manifest-schema.ts";
import type { TurnTokenCounter } from "../execution/tokens.ts";
import type { SearchSettings } from "../search/index.ts";
import { withSearch } from "./search-settings.ts";
import { episodeKey, type PlannedEpisode } from "./episodes.ts";
import { failedOutcome, INTERRUPTED, interruptibleEpisode } from "./interruptible.ts";
import type { RunMetadata, RunRecord } from "./record.ts";

export interface RunDeps {
  readonly now: () => Date;
  readonly clock: () => number;
  readonly append: (record: RunRecord) => void;
  /** `errors`: how many of the `done` episodes ended in infrastructure errors. */
  readonly progress: (done: number, total: number, errors: number) => void;
  readonly shouldStop: () => boolean;
  /** Aborted on interrupt: goes into every turn request, and a turn still running is given up. */
  readonly signal?: AbortSignal;
  /** One line (without its newline) when an episode's own code threw and was recorded `episode_failed`. */
  readonly warn?: (line: string) => void;
}

export interface MatrixInput {
  readonly episodes: readonly PlannedEpisode[];
  readonly agent: Agent;
  readonly catalogs: ReadonlyMap<number, Catalog>;
  readonly manifest: ConditionManifest;
  readonly settings: LoopSettings;
  /** The search conditions' settings, by condition id (#34); the loop gets its condition's. */
  readonly searches?: ReadonlyMap<string, SearchSettings>;
  readonly tokens: TurnTokenCounter;
  readonly metadata: RunMetadata;
  readonly shard: string | null;
  readonly concurrency: number;
  /** Stop scheduling once this many episodes ended in infrastructure errors (null: never). */
  readonly maxErrors: number | null;
  /** Stop scheduling after this many infrastructure errors in a row with the same code (null, 0 or absent: never). */
  readonly breaker?: number | null;
}

export interface MatrixResult {
  readonly finished: number;
  readonly errors: number;
  readonly stopped: boolean;
  /** Why the run stopped early: an interrupt, the error limit, the circuit breaker, or the budget. */
  readonly stopReason: "interrupted" | "max_errors" | "breaker" | "budget_exhausted" | null;
  /** The code and count that tripped the circuit breaker, when it tripped. */
  readonly tripped: Tripped | null;
}

export function manifestIndex(manifest: ConditionManifest): Map<string, ManifestEntry> {
  return new Map(manifest.entries.map((e) => [taskSizeKey(e), e]));
}

export async function runMatrix(input: MatrixInput, deps: RunDeps): Promise<MatrixResult> {
  const entries = manifestIndex(input.manifest);
  const queue = [...input.episodes];
  let finished = 0;
  let errors = 0;
  let stopReason: MatrixResult["stopReason"] = null;
  const breaker = new CircuitBreaker(input.breaker ?? null);
  const worker = async () => {
    let started = false;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      // A macrotask turn between episodes: the signal handlers run here, even when no agent ever
      // waits on I/O. Not before a worker's first episode: every worker starts in the same tick, so
      // batch mode gathers the first turn of every running episode into one batch.
      if (started) await new Promise<void>((resolve) => setImmediate(resolve));
      started = true;
      if (stopReason === null && (deps.shouldStop() || deps.signal?.aborted)) stopReason = "interrupted";
      if (stopReason !== null) {
        queue.length = 0;
        return;
      }
      const record = await runOne(next, input, entries, deps);
      // A request the budget refused was never sent, and an interrupted episode did not finish:
      // neither is recorded, so a later --resume runs it.
      if (record.error_code === "budget_exhausted") {
        stopReason = "budget_exhausted";
        continue;
      }
      if (record.error_code === INTERRUPTED) {
        stopReason ??= "interrupted";
        continue;
      }
      deps.append(record);
      finished += 1;
      if (record.status === "error") errors += 1;
      if (input.maxErrors !== null && errors >= input.maxErrors) stopReason ??= "max_errors";
      if (breaker.record(record.status === "error" ? (record.error_code ?? "error") : null))
        stopReason ??= "breaker";
      deps.progress(finished, input.episodes.length, errors);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(input.concurrency, input.episodes.length)) }, worker),
  );
  return {
    finished,
    errors,
    stopped: finished < input.episodes.length,
    stopReason: finished < input.episodes.length ? (stopReason ?? "interrupted") : null,
    tripped: finished < input.episodes.length ? breaker.tripped : null,
  };
}

async function runOne(
  episode: PlannedEpisode,
  input: MatrixInput,
  entries: Map<string, ManifestEntry>,
  deps: RunDeps,
): Promise<RunRecord> {
  const entry = entries.get(taskSizeKey(episode));
  const stages = entry?.conditions[episode.condition]?.stages;
  const catalog = input.catalogs.get(episode.catalog_size);
  if (!stages || !catalog)
    throw new Error(
      `no manifest entry or catalog for ${episodeKey(episode)} (checked before the run; a bug)`,
    );
  const startedAt = deps.now().toISOString();
  const started = deps.clock();
  const outcome = await episodeOutcome(episode, { stages, endpoints: catalog.endpoints }, input, deps);
  return {
    ...identity(episode.task, episode),
    ...outcome,
    turns: outcome.turns as unknown as RunRecord["turns"],
    attempts: outcome.attempts as unknown as RunRecord["attempts"],
    timings: { started_at: startedAt, duration_ms: Math.round((deps.clock() - started) * 1000) / 1000 },
    shard: input.shard,
    metadata: input.metadata,
  };
}

/**
 * The loop's outcome. An episode whose own code throws — starting it included — is an error record
 * with the throw's code (`episode_failed` for anything not a FabenchError), and the run goes on.
 */
async function episodeOutcome(
  episode: PlannedEpisode,
  where: { readonly stages: readonly Stage[]; readonly endpoints: Catalog["endpoints"] },
  input: MatrixInput,
  deps: RunDeps,
): Promise<EpisodeOutcome> {
  try {
    return await runEpisode(
      {
        task: episode.task,
        endpoints: where.endpoints,
        catalogSize: episode.catalog_size,
        stages: where.stages,
      },
      interruptibleEpisode(input.agent.startEpisode(episode.task, episodeKey(episode)), deps.signal),
      withSearch(input.settings, input.searches?.get(episode.condition), input.agent.identity),
      input.tokens,
    );
  } catch (caught) {
    const message = caught instanceof Error ? caught.message : String(caught);
    deps.warn?.(`warning: episode ${episodeKey(episode)} failed (recorded as an episode error): ${message}`);
    return failedOutcome(caught);
  }
}

function identity(task: Task, episode: PlannedEpisode) {
  return {
    semantic_task_id: task.semantic_task_id,
    answer_task_stratum: task.answer_task_stratum,
    language: task.language,
    catalog_size: episode.catalog_size,
    condition: episode.condition,
    trial: episode.trial,
  };
}
