/**
 * From per-trial values to the bootstrap's statistics: per task, the mean of all non-null values
 * over the selected catalog sizes (ascending) and trials (ascending); a level per selection ×
 * condition × metric, and a paired delta (condition − baseline, defined when both are) for every
 * other condition.
 */
import type { Statistic } from "./core.ts";

/** values[condition][size][metric][task] = per-trial values, trial 1 first. */
export type TrialValues = (
  condition: string,
  size: number,
  metric: string,
  task: number,
) => readonly (number | null)[] | undefined;

export interface StatisticsSpec {
  readonly taskCount: number;
  readonly conditions: readonly string[];
  readonly baseline: string;
  readonly sizes: readonly number[];
  readonly metrics: readonly string[];
  readonly values: TrialValues;
}

export const POOLED = "pooled";

export function perTaskValue(
  spec: StatisticsSpec,
  condition: string,
  sizes: readonly number[],
  metric: string,
  task: number,
): number | null {
  let sum = 0;
  let n = 0;
  for (const size of sizes)
    for (const v of spec.values(condition, size, metric, task) ?? [])
      if (v !== null) {
        sum += v;
        n += 1;
      }
  return n === 0 ? null : sum / n;
}

export function statisticKey(
  selection: string,
  condition: string,
  metric: string,
  kind: "level" | "delta",
): string {
  return `${selection}|${condition}|${metric}|${kind}`;
}

/** Levels and deltas for the pooled selection and each catalog size. */
export function buildStatistics(spec: StatisticsSpec): Statistic[] {
  const sizesAsc = [...spec.sizes].sort((a, b) => a - b);
  const selections: Array<[string, number[]]> = [
    [POOLED, sizesAsc],
    ...sizesAsc.map((s): [string, number[]] => [String(s), [s]]),
  ];
  const out: Statistic[] = [];
  for (const [selection, sizes] of selections) {
    const level = new Map<string, (number | null)[]>();
    for (const condition of spec.conditions)
      for (const metric of spec.metrics) {
        const values = Array.from({ length: spec.taskCount }, (_, t) =>
          perTaskValue(spec, condition, sizes, metric, t),
        );
        level.set(`${condition}|${metric}`, values);
        const pooled =
          selection === POOLED && sizes.length > 1 && equallyWeighted(spec, condition, sizes, metric);
        out.push({
          key: statisticKey(selection, condition, metric, "level"),
          values,
          ...(pooled
            ? {
                combination: sizes.map((s) => ({
                  key: statisticKey(String(s), condition, metric, "level"),
                  weight: 1 / sizes.length,
                })),
              }
            : {}),
        });
      }
    for (const condition of spec.conditions) {
      if (condition === spec.baseline) continue;
      for (const metric of spec.metrics) {
        const a = level.get(`${condition}|${metric}`) ?? [];
        const b = level.get(`${spec.baseline}|${metric}`) ?? [];
        out.push({
          key: statisticKey(selection, condition, metric, "delta"),
          values: a.map((v, t) =>
            v === null || b[t] === null || b[t] === undefined ? null : v - (b[t] as number),
          ),
          combination: [
            { key: statisticKey(selection, condition, metric, "level"), weight: 1 },
            { key: statisticKey(selection, spec.baseline, metric, "level"), weight: -1 },
          ],
        });
      }
    }
  }
  return out;
}

/** Whether the pooled value of every task is the plain mean of its per-size values (same non-null counts). */
export function equallyWeighted(
  spec: StatisticsSpec,
  condition: string,
  sizes: readonly number[],
  metric: string,
): boolean {
  for (let t = 0; t < spec.taskCount; t++) {
    const counts = sizes.map(
      (s) => (spec.values(condition, s, metric, t) ?? []).filter((v) => v !== null).length,
    );
    if (counts.some((c) => c !== counts[0])) return false;
  }
  return true;
}
