/**
 * From scored episodes to the summary: completeness, the models the provider reported, the
 * statistics and the gate, assembled in one pure step. The `score` command reads the files and
 * writes the result; everything a reviewer would re-derive happens here.
 */
import type { Protocol, Task } from "../authoring/index.ts";
import type { RunMetadata, RunRecord } from "../conditions/runner/index.ts";
import { GOLD_TRIGGER_LABEL } from "../conditions/execution/index.ts";
import { compareCodePoints, episodeKey, type EpisodeKey, type Problem } from "../core/index.ts";
import { evaluateGate, type Gate, type Preregistration, type PrerequisiteStatus } from "../gates/index.ts";
import { statisticKey, type EpisodeRow, type RngName } from "../metrics/index.ts";
import { SUMMARY_FORMAT, type JudgeSection, type Summary } from "./schema.ts";
import { summarizeEpisodes } from "./statistics.ts";

export interface SummaryInput {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  /** Whether `protocol` is the bundled preregistration (the shell compares hashes). */
  readonly preregistered: boolean;
  /**
   * The protocol's deployable conditions the bundled preregistration does not name (the shell
   * compares them); each verdict over them says so. None when absent.
   */
  readonly conditionsNotPreregistered?: readonly string[];
  /** The metadata every merged record shares. */
  readonly metadata: RunMetadata;
  readonly records: readonly Pick<
    RunRecord,
    "semantic_task_id" | "catalog_size" | "condition" | "trial" | "turns"
  >[];
  readonly runFiles: readonly { readonly path: string; readonly sha256: string }[];
  readonly rows: readonly EpisodeRow[];
  readonly tasks: ReadonlyMap<string, Task>;
  readonly prerequisite: PrerequisiteStatus;
  readonly rng: RngName;
  readonly allowIncomplete: boolean;
  readonly allowMixedModels: boolean;
}

export type SummaryResult =
  | { readonly ok: true; readonly summary: Summary; readonly coreMs: number }
  | {
      readonly ok: false;
      readonly problems: readonly Problem[];
      readonly total: number;
      readonly advice: string;
    };

/** Model turns by the model the provider reported, keys in code-point order. */
export function reportedModels(records: SummaryInput["records"]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const r of records)
    for (const t of r.turns)
      if (typeof t["model"] === "string") counts.set(t["model"], (counts.get(t["model"]) ?? 0) + 1);
  return Object.fromEntries(
    [...counts.keys()].sort(compareCodePoints).map((k) => [k, counts.get(k) as number]),
  );
}

/** Episode keys of the whole benchmark (every task × catalog × condition × trial) that no record covers. */
export function missingEpisodes(
  records: readonly EpisodeKey[],
  taskIds: readonly string[],
  protocol: Protocol,
  trials: number,
): string[] {
  const have = new Set(records.map(episodeKey));
  const missing: string[] = [];
  for (const semantic_task_id of taskIds)
    for (const catalog_size of protocol.catalog_sizes)
      for (const condition of protocol.conditions)
        for (let trial = 1; trial <= trials; trial++) {
          const key = episodeKey({ semantic_task_id, catalog_size, condition: condition.id, trial });
          if (!have.has(key)) missing.push(key);
        }
  return missing;
}

/** The gate's view of a summary's statistics. */
export function gateFor(
  protocol: Protocol,
  stats: Pick<Summary, "bootstrap" | "aggregates" | "complete" | "run">,
  prerequisite: PrerequisiteStatus,
  preregistered: boolean | Preregistration,
): Gate {
  // A gold-triggered run is scored and shown, and never judged.
  const notGated = stats.run.progressive_trigger === "gold" ? GOLD_TRIGGER_LABEL : null;
  return evaluateGate(
    protocol,
    {
      statistic: (selection, condition, metric, kind) =>
        stats.bootstrap.intervals[statisticKey(selection, condition, metric, kind)],
      total: (selection, condition, metric) =>
        stats.aggregates[selection]?.[condition]?.totals[metric] ??
        stats.aggregates[selection]?.[condition]?.means[metric] ??
        0,
      complete: stats.complete,
    },
    prerequisite,
    preregistered,
    notGated,
  );
}

/** How many missing episodes a refusal lists before it counts the rest. */
const LISTED_MISSING = 20;

/** Builds the summary, or refuses (an incomplete set, several reported models) unless allowed. */
export function buildSummary(input: SummaryInput, clock?: () => number): SummaryResult {
  const { protocol, rows } = input;
  // Complete means the whole benchmark: every corpus task × catalog × condition × trial.
  const missing = missingEpisodes(input.records, [...input.tasks.keys()], protocol, input.metadata.trials);
  const complete = missing.length === 0;
  if (!complete && !input.allowIncomplete)
    return {
      ok: false,
      problems: missing.slice(0, LISTED_MISSING).map((key) => ({ code: "missing_episode", message: key })),
      total: missing.length,
      advice: `${missing.length} episode(s) missing: refusing an incomplete set; add --allow-incomplete to score it anyway (the gate cannot then pass)`,
    };
  // The run's metadata names one model; a provider that answered with several (an alias moved
  // mid-run) makes the episodes incomparable, like mixing lanes or settings.
  const models = reportedModels(input.records);
  const modelNames = Object.keys(models);
  if (modelNames.length > 1 && !input.allowMixedModels)
    return {
      ok: false,
      problems: Object.entries(models).map(([model, turns]) => ({
        code: "mixed_reported_models",
        message: `${turns} turn(s) answered by ${model}`,
      })),
      total: modelNames.length,
      advice: `the provider reported ${modelNames.length} different models: refusing to score them as one run; add --allow-mixed-models to score it anyway (the summary says so)`,
    };
  const { coreMs, ...statistics } = summarizeEpisodes(rows, input.tasks, protocol, input.rng, clock);
  const errors = rows.filter((r) => r.status === "error");
  const byCode: Record<string, number> = {};
  for (const r of errors) byCode[r.error_code ?? "unknown"] = (byCode[r.error_code ?? "unknown"] ?? 0) + 1;
  const summary: Summary = {
    format: SUMMARY_FORMAT,
    complete,
    missing_episodes: missing.length,
    protocol_id: protocol.protocol_id,
    protocol_sha256: input.protocolSha256,
    preregistered: input.preregistered,
    run: input.metadata,
    run_files: input.runFiles.map((f) => ({ path: f.path, sha256: f.sha256 })),
    episodes: rows.length,
    infrastructure_errors: { total: errors.length, by_code: byCode },
    reported_models: models,
    ...statistics,
    gate: gateFor(protocol, { ...statistics, complete, run: input.metadata }, input.prerequisite, {
      protocol: input.preregistered,
      conditionsNot: input.conditionsNotPreregistered ?? [],
    }),
    episode_scores: [...rows],
  };
  return { ok: true, summary, coreMs };
}

/**
 * The summary with the secondary judge's section, placed before the episode scores. It is added to
 * a finished summary, so the gate was computed without it and cannot have read it.
 */
export function withJudge(summary: Summary, judge: JudgeSection): Summary {
  const { episode_scores, ...rest } = summary;
  return { ...rest, judge, episode_scores };
}

/**
 * A summary scored under another protocol than the bundled one (a pilot's) names its file, relative
 * to the summary's folder, right after `preregistered`: `gate` and `report` find it there (#35).
 */
export function withProtocolFile(summary: Summary, protocolFile: string): Summary {
  const { format, complete, missing_episodes, protocol_id, protocol_sha256, preregistered, ...rest } =
    summary;
  return {
    format,
    complete,
    missing_episodes,
    protocol_id,
    protocol_sha256,
    preregistered,
    protocol_file: protocolFile,
    ...rest,
  };
}
