/**
 * Pairing two summaries' episodes by (task, catalog size, condition, trial). An episode only one
 * side holds has no partner to be compared with: it is left out of every statistic, and the
 * comparison says how many were (a pilot of fewer trials, a run restricted with --task). Refusing
 * instead would make two runs of different trials incomparable, which the comparison allows.
 */
import { compareCodePoints, episodeKey } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";

export type EpisodeScore = Summary["episode_scores"][number];

export interface Pairing {
  /** The paired episodes of each side, in the same order (A's order). */
  readonly a: readonly EpisodeScore[];
  readonly b: readonly EpisodeScore[];
  /** Keys of the episodes only one side holds, sorted. */
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
}

export function pairEpisodes(a: readonly EpisodeScore[], b: readonly EpisodeScore[]): Pairing {
  const byKey = new Map(b.map((e) => [episodeKey(e), e]));
  const keysA = new Set(a.map(episodeKey));
  const pairedA: EpisodeScore[] = [];
  const pairedB: EpisodeScore[] = [];
  const onlyInA: string[] = [];
  for (const e of a) {
    const partner = byKey.get(episodeKey(e));
    if (partner === undefined) onlyInA.push(episodeKey(e));
    else {
      pairedA.push(e);
      pairedB.push(partner);
    }
  }
  const onlyInB = b.map(episodeKey).filter((k) => !keysA.has(k));
  return {
    a: pairedA,
    b: pairedB,
    onlyInA: onlyInA.sort(compareCodePoints),
    onlyInB: onlyInB.sort(compareCodePoints),
  };
}
