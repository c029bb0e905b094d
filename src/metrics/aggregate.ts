/** Aggregates of scored episodes: per condition × catalog size and pooled, plus breakdowns. */
import { compareCodePoints } from "../core/index.ts";
import { SUMMED_METRICS, type EpisodeRow } from "./scored-records.ts";
import { POOLED, type Interval } from "./bootstrap/index.ts";

export interface ConditionAggregate {
  readonly episodes: number;
  /** Mean of each per-episode metric over episodes where it is defined (null if never). */
  readonly means: Record<string, number | null>;
  /** Totals of the counting metrics. */
  readonly totals: Record<string, number>;
  readonly malformed_reasons: Record<string, number>;
  readonly infrastructure_errors: Record<string, number>;
}

/** aggregates[selection][condition], selection = "pooled" or a catalog size. */
export type Aggregates = Record<string, Record<string, ConditionAggregate>>;

export function aggregate(
  rows: readonly EpisodeRow[],
  conditions: readonly string[],
  sizes: readonly number[],
): Aggregates {
  const out: Aggregates = {};
  const selections: Array<[string, readonly number[]]> = [
    [POOLED, sizes],
    ...sizes.map((s): [string, number[]] => [String(s), [s]]),
  ];
  for (const [selection, chosen] of selections) {
    out[selection] = {};
    for (const condition of conditions) {
      const mine = rows.filter((r) => r.condition === condition && chosen.includes(r.catalog_size));
      (out[selection] as Record<string, ConditionAggregate>)[condition] = aggregateRows(mine);
    }
  }
  return out;
}

function aggregateRows(rows: readonly EpisodeRow[]): ConditionAggregate {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  const means: Record<string, number | null> = {};
  for (const name of names) {
    let sum = 0;
    let n = 0;
    for (const r of rows) {
      const v = r.metrics[name];
      if (v !== null && v !== undefined) {
        sum += v;
        n += 1;
      }
    }
    means[name] = n === 0 ? null : sum / n;
  }
  const totals: Record<string, number> = {};
  for (const name of SUMMED_METRICS) totals[name] = rows.reduce((a, r) => a + (r.metrics[name] ?? 0), 0);
  return {
    episodes: rows.length,
    means,
    totals,
    malformed_reasons: histogram(rows.map((r) => r.malformed_reason)),
    infrastructure_errors: histogram(rows.map((r) => r.error_code)),
  };
}

function histogram(values: ReadonlyArray<string | null>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => compareCodePoints(a, b)));
}

export interface Breakdown {
  /** Mean per-task value of each metric, per condition, and the paired delta against the baseline. */
  readonly tasks: number;
  readonly levels: Record<string, Record<string, number | null>>;
  readonly deltas: Record<string, Record<string, number | null>>;
  /** Intervals of some deltas (see `intervalMetrics`), from a bootstrap of this group's tasks alone (its own cells, the protocol's seed and iterations). */
  readonly delta_intervals: Record<string, Record<string, Interval>>;
}

/**
 * Levels and paired deltas by language and by stratum (diagnostics: the gate reads the whole
 * benchmark). `perTask(condition, metric, task)` is the pooled per-task value; `intervalsFor`
 * bootstraps one group's paired deltas (keys `condition|metric`).
 */
export function breakdowns(
  taskIds: readonly string[],
  groupOf: (task: string) => { language: string; stratum: string },
  conditions: readonly string[],
  baseline: string,
  metrics: readonly string[],
  perTask: (condition: string, metric: string, task: number) => number | null,
  intervalMetrics: readonly string[],
  intervalsFor: (
    members: readonly number[],
    deltas: ReadonlyArray<{ key: string; values: Array<number | null> }>,
  ) => Record<string, Interval>,
): { by_language: Record<string, Breakdown>; by_stratum: Record<string, Breakdown> } {
  const group = (key: "language" | "stratum") => {
    const groups = new Map<string, number[]>();
    taskIds.forEach((id, i) => {
      const g = groupOf(id)[key];
      groups.set(g, [...(groups.get(g) ?? []), i]);
    });
    const out: Record<string, Breakdown> = {};
    const mean = (values: Array<number | null>) => {
      const defined = values.filter((v): v is number => v !== null);
      return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
    };
    const compared = conditions.filter((c) => c !== baseline);
    for (const [name, members] of groups) {
      // Per task of this group: the paired delta against the baseline (null unless both are defined).
      const paired = (condition: string, m: string) =>
        members.map((t) => {
          const a = perTask(condition, m, t);
          const b = perTask(baseline, m, t);
          return a === null || b === null ? null : a - b;
        });
      const levels = Object.fromEntries(
        conditions.map((c) => [
          c,
          Object.fromEntries(metrics.map((m) => [m, mean(members.map((t) => perTask(c, m, t)))])),
        ]),
      );
      const deltas = Object.fromEntries(
        compared.map((c) => [c, Object.fromEntries(metrics.map((m) => [m, mean(paired(c, m))]))]),
      );
      const intervals = intervalsFor(
        members,
        compared.flatMap((c) => intervalMetrics.map((m) => ({ key: `${c}|${m}`, values: paired(c, m) }))),
      );
      const delta_intervals = Object.fromEntries(
        compared.map((c) => [
          c,
          Object.fromEntries(intervalMetrics.map((m) => [m, intervals[`${c}|${m}`] as Interval])),
        ]),
      );
      out[name] = { tasks: members.length, levels, deltas, delta_intervals };
    }
    return out;
  };
  return { by_language: group("language"), by_stratum: group("stratum") };
}
