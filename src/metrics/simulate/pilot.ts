/** The pilot a power analysis starts from: per-task paired deltas and the noise of one trial. */
import type { EpisodeRow } from "../scored-records.ts";

/** What the power analysis reads of a pilot's episode scores. */
export type PilotEpisode = Pick<EpisodeRow, "semantic_task_id" | "condition" | "catalog_size" | "metrics">;

/**
 * Per-task pooled paired deltas of one metric from episode scores, and the trial-noise variance of
 * one delta: Σ over the two conditions of (pooled variance of an episode within its task and
 * catalog size) ÷ (mean episodes per task). Repeats are grouped by catalog size first, so a task
 * that does worse on the larger catalog has a catalog effect — part of its own delta, which more
 * trials do not average away — not trial noise.
 */
export function pilotDeltas(
  episodes: readonly PilotEpisode[],
  baseline: string,
  condition: string,
  metric: string,
): { deltas: number[]; noise: number } {
  // task → condition → catalog size → values
  const perTask = new Map<string, Map<string, Map<number, number[]>>>();
  for (const e of episodes) {
    const v = e.metrics[metric];
    if (v === null || v === undefined) continue;
    const byCondition = perTask.get(e.semantic_task_id) ?? new Map<string, Map<number, number[]>>();
    const bySize = byCondition.get(e.condition) ?? new Map<number, number[]>();
    bySize.set(e.catalog_size, [...(bySize.get(e.catalog_size) ?? []), v]);
    byCondition.set(e.condition, bySize);
    perTask.set(e.semantic_task_id, byCondition);
  }
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const all = (bySize: Map<number, number[]> | undefined) => (bySize ? [...bySize.values()].flat() : []);
  const mean = (xs: readonly number[]) => (xs.length > 0 ? sum(xs) / xs.length : null);
  const deltas: number[] = [];
  const paired: Array<Map<string, Map<number, number[]>>> = [];
  for (const byCondition of perTask.values()) {
    const a = mean(all(byCondition.get(condition)));
    const b = mean(all(byCondition.get(baseline)));
    if (a !== null && b !== null) {
      deltas.push(a - b);
      paired.push(byCondition);
    }
  }
  const noiseOf = (id: string) => {
    let squares = 0;
    let df = 0;
    let episodesSeen = 0;
    for (const byCondition of paired)
      for (const xs of (byCondition.get(id) as Map<number, number[]>).values()) {
        const m = mean(xs) as number;
        squares += sum(xs.map((x) => (x - m) ** 2));
        df += xs.length - 1;
        episodesSeen += xs.length;
      }
    return df > 0 ? squares / df / (episodesSeen / paired.length) : 0;
  };
  return { deltas, noise: paired.length > 0 ? noiseOf(condition) + noiseOf(baseline) : 0 };
}
