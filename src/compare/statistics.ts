/**
 * B − A with the summary's own statistics: the paired stratified task-cluster bootstrap of
 * src/metrics, with the protocol's iterations, seed, confidence and interval methods. Per task (the
 * cluster) and side, a level is the mean of its paired episodes' values over the selected catalog
 * sizes and trials, exactly as `score` takes it; the delta is B's level − A's on the same task
 * (defined when both are). Every statistic shares the iterations' draws of tasks, so A, B and B − A
 * are resampled together — what makes the difference paired.
 */
import type { Protocol } from "../authoring/index.ts";
import { compareCodePoints } from "../core/index.ts";
import {
  BOOTSTRAP_METRICS,
  bootstrap,
  equallyWeighted,
  perTaskValue,
  POOLED,
  type BootstrapResult,
  type Interval,
  type RngName,
  type StatisticsSpec,
} from "../metrics/index.ts";
import type { Pairing, EpisodeScore } from "./pairing.ts";

/** One statistic the bootstrap resamples (its type, as the bootstrap takes it). */
type Statistic = Parameters<typeof bootstrap>[1][number];
import type { ComparedInterval, MetricRow } from "./schema.ts";

export type SideName = "a" | "b";

export interface Table {
  readonly selection: string;
  readonly condition: string;
  readonly rows: MetricRow[];
}

/** The metrics compared: every metric a gate check reads (in the protocol's order), then the others the summary bootstraps. */
export function comparedMetrics(protocol: Protocol, episodes: readonly EpisodeScore[]): string[] {
  const gated = protocol.gate.checks.map((c) => c.metric);
  const all = [...new Set([...gated, ...BOOTSTRAP_METRICS])];
  return all.filter((m) => episodes.some((e) => m in e.metrics));
}

/** Per side, the values the bootstrap resamples: trial values per (condition, size, metric, task). */
function cube(
  pairing: Pairing,
  taskIds: readonly string[],
  metrics: readonly string[],
): StatisticsSpec["values"] {
  const index = new Map(taskIds.map((id, i) => [id, i]));
  const values = new Map<string, Array<Array<number | null>>>();
  for (const side of ["a", "b"] as const) {
    const sorted = [...pairing[side]].sort((x, y) => x.trial - y.trial);
    for (const e of sorted)
      for (const metric of metrics) {
        const key = `${side}\u0000${e.condition}|${e.catalog_size}|${metric}`;
        let perTask = values.get(key);
        if (!perTask) values.set(key, (perTask = taskIds.map(() => [])));
        perTask[index.get(e.semantic_task_id) as number]?.push(e.metrics[metric] ?? null);
      }
  }
  return (condition, size, metric, task) => values.get(`${condition}|${size}|${metric}`)?.[task];
}

const key = (selection: string, condition: string, metric: string, what: SideName | "delta") =>
  `${selection}|${condition}|${metric}|${what}`;

export interface Plan {
  readonly taskIds: readonly string[];
  readonly conditions: readonly string[];
  readonly sizes: readonly number[];
  readonly metrics: readonly string[];
  readonly statistics: Statistic[];
}

/** The tasks, conditions, sizes and metrics of the paired episodes, and every statistic over them. */
export function planStatistics(protocol: Protocol, pairing: Pairing): Plan {
  const episodes = pairing.a;
  const taskIds = [...new Set(episodes.map((e) => e.semantic_task_id))].sort(compareCodePoints);
  const conditions = protocol.conditions
    .map((c) => c.id)
    .filter((c) => episodes.some((e) => e.condition === c));
  const sizes = [...protocol.catalog_sizes]
    .filter((s) => episodes.some((e) => e.catalog_size === s))
    .sort((x, y) => x - y);
  const metrics = comparedMetrics(protocol, [...pairing.a, ...pairing.b]);
  const spec: StatisticsSpec = {
    taskCount: taskIds.length,
    conditions,
    baseline: protocol.baseline_condition,
    sizes,
    metrics,
    values: cube(pairing, taskIds, metrics),
  };
  const selections: Array<[string, number[]]> = [
    [POOLED, sizes],
    ...sizes.map((s): [string, number[]] => [String(s), [s]]),
  ];
  const statistics: Statistic[] = [];
  for (const [selection, selected] of selections)
    for (const condition of conditions)
      for (const metric of metrics) {
        const level = (side: SideName) =>
          taskIds.map((_, t) => perTaskValue(spec, `${side}\u0000${condition}`, selected, metric, t));
        const a = level("a");
        const b = level("b");
        const pooled = (side: SideName) =>
          selection === POOLED &&
          selected.length > 1 &&
          equallyWeighted(spec, `${side}\u0000${condition}`, selected, metric)
            ? {
                combination: selected.map((size) => ({
                  key: key(String(size), condition, metric, side),
                  weight: 1 / selected.length,
                })),
              }
            : {};
        statistics.push(
          { key: key(selection, condition, metric, "a"), values: a, ...pooled("a") },
          { key: key(selection, condition, metric, "b"), values: b, ...pooled("b") },
          {
            key: key(selection, condition, metric, "delta"),
            // Resampled from its own per-task values, not combined from A's and B's replicates: two
            // identical runs then give exactly 0 in every replicate, not a rounding residue.
            values: b.map((v, t) => (v === null || a[t] === null ? null : v - (a[t] as number))),
          },
        );
      }
  return { taskIds, conditions, sizes, metrics, statistics };
}

/** Runs the bootstrap over the plan's statistics with the protocol's settings. */
export function runBootstrap(
  protocol: Protocol,
  pairing: Pairing,
  plan: Plan,
  rng: RngName,
): BootstrapResult {
  const strataOf = new Map(pairing.a.map((e) => [e.semantic_task_id, e]));
  const tasks = plan.taskIds.map((id) => ({
    id,
    stratum: strataOf.get(id)?.answer_task_stratum ?? "",
    language: strataOf.get(id)?.language ?? "",
  }));
  const s = protocol.statistics;
  return bootstrap(tasks, plan.statistics, {
    iterations: s.iterations,
    seed: s.seed,
    rng,
    confidence: s.confidence_level,
    // The calibrated intervals cost time; only the gate's method needs them, and only when it is one.
    calibrated: s.gate_interval !== "percentile",
  });
}

/** A statistic as the comparison shows it: point, percentile bounds and the gate method's bounds. */
export function compared(interval: Interval | undefined, method: string): ComparedInterval {
  if (interval === undefined) return { point: null, low: null, high: null, gate_low: null, gate_high: null };
  const gate =
    method === "percentile"
      ? { low: interval.low, high: interval.high }
      : ((interval.calibrated as Record<string, { low: number | null; high: number | null }> | undefined)?.[
          method
        ] ?? { low: null, high: null });
  return {
    point: interval.point,
    low: interval.low,
    high: interval.high,
    gate_low: gate.low,
    gate_high: gate.high,
  };
}

/** The tables: one per selection × condition, a row per metric. */
export function tables(protocol: Protocol, plan: Plan, result: BootstrapResult): Table[] {
  const method = protocol.statistics.gate_interval;
  const gated = new Set(protocol.gate.checks.map((c) => c.metric));
  const out: Table[] = [];
  for (const selection of [POOLED, ...plan.sizes.map(String)])
    for (const condition of plan.conditions)
      out.push({
        selection,
        condition,
        rows: plan.metrics.map((metric) => {
          const get = (what: SideName | "delta") =>
            compared(result.intervals[key(selection, condition, metric, what)], method);
          const delta = get("delta");
          return {
            metric,
            gated: gated.has(metric),
            a: get("a"),
            b: get("b"),
            delta,
            excludes_zero:
              (delta.gate_low !== null && delta.gate_low > 0) ||
              (delta.gate_high !== null && delta.gate_high < 0),
          };
        }),
      });
  return out;
}
