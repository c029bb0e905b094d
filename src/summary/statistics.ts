/** From scored episodes to the summary's statistics: aggregates, the bootstrap and breakdowns. */
import type { Protocol, Task } from "../authoring/index.ts";
import { compareCodePoints } from "../core/index.ts";
import {
  aggregate,
  BOOTSTRAP_METRICS,
  bootstrap,
  breakdowns,
  buildStatistics,
  episodeMetricVersions,
  METHODS,
  perTaskValue,
  type BootstrapOptions,
  type BootstrapResult,
  type BootstrapTask,
  type EpisodeRow,
  type RngName,
  type StatisticsSpec,
  type TrialValues,
} from "../metrics/index.ts";
import type { Statistics } from "./schema.ts";

/**
 * Breakdown groups get intervals for the primary metric only: each group is a bootstrap of its own
 * (12 groups × 10,000 iterations), and doing every gate metric measured ~0.6 s more per `score`.
 */
const BREAKDOWN_INTERVAL_METRICS = ["required_fact_recall"] as const;

export function summarizeEpisodes(
  rows: readonly EpisodeRow[],
  tasks: ReadonlyMap<string, Task>,
  protocol: Protocol,
  rng: RngName,
  clock?: () => number,
): Statistics & { coreMs: number } {
  const conditions = protocol.conditions.map((c) => c.id).filter((c) => rows.some((r) => r.condition === c));
  const sizes = protocol.catalog_sizes.filter((s) => rows.some((r) => r.catalog_size === s));
  const taskIds = [...new Set(rows.map((r) => r.semantic_task_id))].sort(compareCodePoints);
  const spec: StatisticsSpec = {
    taskCount: taskIds.length,
    conditions,
    baseline: protocol.baseline_condition,
    sizes,
    metrics: BOOTSTRAP_METRICS,
    values: episodeCube(rows, taskIds),
  };
  const stats = protocol.statistics;
  const bootTasks = taskIds.map((id) => {
    const t = tasks.get(id);
    return { id, stratum: t?.answer_task_stratum ?? "", language: t?.language ?? "" };
  });
  const options = {
    iterations: stats.iterations,
    seed: stats.seed,
    rng,
    confidence: stats.confidence_level,
    calibrated: true,
  };
  const result = bootstrap(bootTasks, buildStatistics(spec), options, clock);
  return {
    metric_versions: episodeMetricVersions(),
    aggregates: aggregate(rows, conditions, sizes),
    bootstrap: bootstrapRecord(stats, rng, result, taskIds.length),
    breakdowns: groupBreakdowns({ taskIds, tasks, spec, bootTasks, options }),
    coreMs: result.coreMs,
  };
}

/**
 * The values the bootstrap resamples: cube[condition|size|metric][task] = per-trial values, trial
 * 1 first, looked up by condition, catalog size, metric and the task's index in `taskIds`.
 */
function episodeCube(rows: readonly EpisodeRow[], taskIds: readonly string[]): TrialValues {
  const index = new Map(taskIds.map((id, i) => [id, i]));
  const cube = new Map<string, Array<Array<number | null>>>();
  const sorted = [...rows].sort((a, b) => a.trial - b.trial);
  for (const r of sorted)
    for (const metric of BOOTSTRAP_METRICS) {
      const key = `${r.condition}|${r.catalog_size}|${metric}`;
      let perTask = cube.get(key);
      if (!perTask) cube.set(key, (perTask = taskIds.map(() => [])));
      perTask[index.get(r.semantic_task_id) as number]?.push(r.metrics[metric] ?? null);
    }
  return (condition: string, size: number, metric: string, task: number) =>
    cube.get(`${condition}|${size}|${metric}`)?.[task];
}

/** The summary's record of the bootstrap: the protocol's settings, the generator, and the intervals it gave. */
function bootstrapRecord(
  stats: Protocol["statistics"],
  rng: RngName,
  result: BootstrapResult,
  taskCount: number,
): Statistics["bootstrap"] {
  return {
    method: stats.method,
    unit: stats.unit,
    iterations: stats.iterations,
    seed: stats.seed,
    confidence: stats.confidence_level,
    rng,
    generator:
      rng === "python"
        ? "MT19937 as Python's random.Random(seed).choice"
        : "seedrandom Alea seeded with String(seed)",
    interval: stats.interval,
    methods: METHODS,
    gate_interval: stats.gate_interval,
    gate_interval_rule: stats.gate_interval_rule,
    cells: result.cells,
    tasks: taskCount,
    metrics: BOOTSTRAP_METRICS,
    intervals: result.intervals,
  };
}

/** The breakdowns by language and by stratum, each group with a bootstrap of its own tasks. */
function groupBreakdowns(input: {
  readonly taskIds: readonly string[];
  readonly tasks: ReadonlyMap<string, Task>;
  readonly spec: StatisticsSpec;
  readonly bootTasks: readonly BootstrapTask[];
  readonly options: BootstrapOptions;
}): Statistics["breakdowns"] {
  const { taskIds, tasks, spec, bootTasks, options } = input;
  return breakdowns(
    taskIds,
    (id) => ({
      language: tasks.get(id)?.language ?? "",
      stratum: tasks.get(id)?.answer_task_stratum ?? "",
    }),
    spec.conditions,
    spec.baseline,
    BOOTSTRAP_METRICS,
    (condition, metric, task) => perTaskValue(spec, condition, spec.sizes, metric, task),
    BREAKDOWN_INTERVAL_METRICS,
    (members, deltas) =>
      bootstrap(
        members.map((t) => bootTasks[t] as (typeof bootTasks)[number]),
        deltas,
        options,
      ).intervals,
  );
}
