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

/**
 * Judgment lines in the order of `order` (the seeded shuffle of every episode): how a finished
 * judgments file is laid down, whatever order replies came back in and however many resumes it
 * took. Null unless the lines hold exactly one line for each episode of `order`.
 */
export function inJudgeOrder<T extends { readonly episode: EpisodeKey }>(
  lines: readonly T[],
  order: ReadonlyArray<{ readonly key: EpisodeKey }>,
): T[] | null {
  const byKey = new Map<string, T>();
  for (const line of lines) {
    const key = episodeKey(line.episode);
    if (byKey.has(key)) return null;
    byKey.set(key, line);
  }
  if (byKey.size !== order.length) return null;
  const out: T[] = [];
  for (const item of order) {
    const line = byKey.get(episodeKey(item.key));
    if (line === undefined) return null;
    out.push(line);
  }
  return out;
}
