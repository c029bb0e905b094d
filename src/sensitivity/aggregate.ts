/** A per-episode metric aggregated over rows (pure): the mean where defined, or the total. */
import type { EpisodeRow } from "../metrics/index.ts";
import type { MetricRef } from "./checks.ts";

/** A metric over rows: the mean where defined (null when nowhere), or the total. */
export function aggregateMetric(rows: readonly EpisodeRow[], ref: MetricRef): number | null {
  const values = rows.map((r) => r.metrics[ref.metric]);
  if (ref.aggregation === "total") return values.reduce<number>((a, v) => a + (v ?? 0), 0);
  const defined = values.filter((v): v is number => v !== null && v !== undefined);
  return defined.length === 0 ? null : defined.reduce((a, v) => a + v, 0) / defined.length;
}
