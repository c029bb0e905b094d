/**
 * The order the judge sees episodes in: a seeded shuffle, so a judge that drifts over a session
 * (rate limits, a provider's model update mid-run, fatigue of a human stand-in) spreads that drift
 * over every condition instead of over the last ones of a condition-grouped file. The same episodes
 * and seed give the same order whatever order the run files listed them in.
 */
import { compareCodePoints, createDraw, episodeKey, type EpisodeKey } from "../core/index.ts";

/**
 * `items` in canonical order (by episode key), then Fisher–Yates with seedrandom's Alea seeded by
 * `seed` — the project's seeded generator, so the order is reproducible on any machine.
 */
export function judgeOrder<T extends { readonly key: EpisodeKey }>(items: readonly T[], seed: number): T[] {
  const keyed = items.map((item) => ({ item, key: episodeKey(item.key) }));
  keyed.sort((a, b) => compareCodePoints(a.key, b.key));
  const out = keyed.map((k) => k.item);
  const draw = createDraw("seedrandom", seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
