/** The shape of an episode metric: an id, a version recorded in summaries, and a pure computation. */
import type { EpisodeTable } from "./table.ts";

export interface EpisodeMetric<V> {
  readonly id: string;
  /** Bumped whenever the definition changes, so summaries never mix definitions. */
  readonly version: number;
  readonly description: string;
  readonly compute: (table: EpisodeTable) => V;
}

/** |hits| / |pool|, or null when the pool is empty. */
export function share<T>(pool: readonly T[], hit: (item: T) => boolean): number | null {
  return pool.length === 0 ? null : pool.filter(hit).length / pool.length;
}
