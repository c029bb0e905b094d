/**
 * How far two raters agree on an ordinal scale, pure: quadratic-weighted Cohen's kappa (chance-
 * corrected agreement that counts a 4-vs-5 as a small disagreement and a 1-vs-5 as a large one)
 * and Spearman's rank correlation (whether they order the answers alike, whatever their offsets).
 * Both return null where the statistic is undefined rather than a number that looks like a result.
 * `compareJudgments` pairs two judgments files and applies them per dimension.
 */
import { episodeKey, type Problem } from "../core/index.ts";
import type { Judgment } from "./record.ts";

/** Two ratings of one item: the first rater's and the second's. */
export type RatingPair = readonly [number, number];

/**
 * Quadratic-weighted kappa for ratings on the integer scale min..max (k = max − min + 1 points):
 *
 *   κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij,   w_ij = (i − j)² / (k − 1)²,
 *
 * O_ij the observed share of pairs rated (i, j), E_ij = p_i · q_j the share expected by chance from
 * each rater's own marginal shares. Null when there are no pairs, and when the expected
 * disagreement Σ w_ij E_ij is 0: that happens only when both raters gave every item one and the same
 * rating, so chance alone would agree perfectly and "agreement beyond chance" is 0/0 — perfect
 * agreement there says nothing about the raters. (Two raters constant on different points give
 * κ_w = 0: they disagree exactly as much as chance predicts.)
 *
 * Throws RangeError for a rating off the scale: callers validate ratings against the protocol first.
 */
export function weightedKappa(pairs: readonly RatingPair[], min: number, max: number): number | null {
  if (!Number.isInteger(min) || !Number.isInteger(max) || max <= min)
    throw new RangeError(`the scale ${min}..${max} needs integer ends with min < max`);
  const k = max - min + 1;
  const n = pairs.length;
  if (n === 0) return null;
  // Counts, not shares, so the sums stay exact integers until the one division at the end.
  const first = new Array<number>(k).fill(0);
  const second = new Array<number>(k).fill(0);
  const observed: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [a, b] of pairs) {
    const i = point(a, min, max);
    const j = point(b, min, max);
    const row = observed[i] as number[];
    row[j] = (row[j] as number) + 1;
    first[i] = (first[i] as number) + 1;
    second[j] = (second[j] as number) + 1;
  }
  // Σ w O = Σ w·count / n and Σ w E = Σ w·first·second / n²; both scaled by n² (and (k − 1)²
  // left out of w, it cancels) keeps them integers: κ_w = 1 − n·Σ(i−j)²·count / Σ(i−j)²·first·second.
  let weightedObserved = 0;
  let weightedExpected = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w = (i - j) ** 2;
      weightedObserved += n * w * ((observed[i] as number[])[j] as number);
      weightedExpected += w * (first[i] as number) * (second[j] as number);
    }
  if (weightedExpected === 0) return null;
  return 1 - weightedObserved / weightedExpected;
}

/** A rating's index on the scale (0 for min). */
function point(rating: number, min: number, max: number): number {
  if (!Number.isInteger(rating) || rating < min || rating > max)
    throw new RangeError(`rating ${rating} is not an integer in ${min}..${max}`);
  return rating - min;
}

/** 1-based ranks; tied values share the mean of the ranks they occupy (1, 2.5, 2.5, 4). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1] as number] === values[order[start] as number])
      end++;
    // Positions start..end (0-based) hold ranks start+1..end+1; their mean:
    const shared = (start + end + 2) / 2;
    for (let p = start; p <= end; p++) ranks[order[p] as number] = shared;
    start = end + 1;
  }
  return ranks;
}

/** Pearson's correlation; null with fewer than two items or when either side has no variance. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError("pearson needs two lists of the same length");
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can push a perfect correlation a hair past ±1.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Spearman's ρ: Pearson's correlation of the average ranks (so ties are handled exactly, not by
 * the 1 − 6Σd²/(n(n²−1)) shortcut that assumes none). Null when either rater gave every item the
 * same rating: a constant has no order to agree with.
 */
export function spearman(pairs: readonly RatingPair[]): number | null {
  return pearson(averageRanks(pairs.map((p) => p[0])), averageRanks(pairs.map((p) => p[1])));
}

/** Share of pairs rated exactly alike; null without pairs. */
export function exactAgreement(pairs: readonly RatingPair[]): number | null {
  if (pairs.length === 0) return null;
  return pairs.filter(([a, b]) => a === b).length / pairs.length;
}

/** Mean of one side's ratings; null without pairs. */
export function meanRating(pairs: readonly RatingPair[], side: 0 | 1): number | null {
  if (pairs.length === 0) return null;
  return pairs.reduce((sum, p) => sum + p[side], 0) / pairs.length;
}

/** What one dimension's pairs say, in the order the command prints it. */
export interface DimensionAgreement {
  readonly pairs: number;
  readonly weighted_kappa: number | null;
  readonly spearman: number | null;
  readonly exact_agreement: number | null;
  readonly exact_agreements: number;
  readonly mean_first: number | null;
  readonly mean_second: number | null;
}

export function dimensionAgreement(
  pairs: readonly RatingPair[],
  min: number,
  max: number,
): DimensionAgreement {
  return {
    pairs: pairs.length,
    weighted_kappa: weightedKappa(pairs, min, max),
    spearman: spearman(pairs),
    exact_agreement: exactAgreement(pairs),
    exact_agreements: pairs.filter(([a, b]) => a === b).length,
    mean_first: meanRating(pairs, 0),
    mean_second: meanRating(pairs, 1),
  };
}

/**
 * How to read κ_w, for people: the bands Landis & Koch (1977) proposed for kappa, a convention
 * everyone quotes and nobody derived — not a law, and not a threshold anything here acts on.
 */
export const KAPPA_READING =
  "κ_w 0.81–1 almost perfect, 0.61–0.80 substantial, 0.41–0.60 moderate, ≤ 0.40 fair or worse (the bands of Landis & Koch, 1977: a convention, not a law); Spearman ρ says whether the two judges order answers alike even where one rates higher throughout.";

/** One side of a comparison: a judgments file's lines. */
export interface JudgmentSide {
  readonly path: string;
  readonly judgments: readonly Judgment[];
  readonly lines: readonly number[];
}

export interface JudgmentComparison {
  readonly episodes: {
    readonly in_both: number;
    readonly only_in_first: number;
    readonly only_in_second: number;
    /** Pairs compared: judged in both files. */
    readonly judged_in_both: number;
    /** Episodes (in either file) judged in exactly one of them. */
    readonly judged_in_one_only: number;
    /** Episodes malformed in at least one file. */
    readonly malformed_in_either: number;
  };
  readonly dimensions: ReadonlyArray<
    { readonly id: string; readonly min: number; readonly max: number } & DimensionAgreement
  >;
  /** Episodes in both files whose answer hashes differ: the two judged different answers. */
  readonly problems: readonly Problem[];
}

/**
 * Pairs two judgments files by episode key and answer hash and compares the pairs judged in both,
 * per protocol dimension. A pair whose answer hashes differ is a problem, not a pair: the two
 * judges rated different answers, so nothing about their agreement can be read from it.
 */
export function compareJudgments(
  first: JudgmentSide,
  second: JudgmentSide,
  dimensions: ReadonlyArray<{ readonly id: string; readonly min: number; readonly max: number }>,
): JudgmentComparison {
  const index = (side: JudgmentSide) =>
    new Map(side.judgments.map((j, i) => [episodeKey(j.episode), { j, line: side.lines[i] as number }]));
  const a = index(first);
  const b = index(second);
  const problems: Problem[] = [];
  const pairs: Array<[Judgment, Judgment]> = [];
  let inBoth = 0;
  let judgedInOne = 0;
  let malformed = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    const judged = [x, y].filter((s) => s?.j.status === "judged").length;
    if (judged === 1) judgedInOne += 1;
    if (x?.j.status === "malformed" || y?.j.status === "malformed") malformed += 1;
    if (!x || !y) continue;
    inBoth += 1;
    if (x.j.answer_sha256 !== y.j.answer_sha256) {
      const hash = (h: string | null) => (h === null ? "no answer" : `${h.slice(0, 12)}…`);
      problems.push({
        code: "answer_mismatch",
        message: `episode ${key}: this line rated answer ${hash(y.j.answer_sha256)}, ${first.path}:${x.line} rated ${hash(x.j.answer_sha256)} — the two judged different answers (judgments of different runs)`,
        file: second.path,
        line: y.line,
      });
      continue;
    }
    if (judged === 2) pairs.push([x.j, y.j]);
  }
  return {
    episodes: {
      in_both: inBoth,
      only_in_first: a.size - inBoth,
      only_in_second: b.size - inBoth,
      judged_in_both: pairs.length,
      judged_in_one_only: judgedInOne,
      malformed_in_either: malformed,
    },
    dimensions: dimensions.map((d) => {
      const ratings = pairs.map(
        ([x, y]): RatingPair => [x.ratings?.[d.id] as number, y.ratings?.[d.id] as number],
      );
      return { id: d.id, min: d.min, max: d.max, ...dimensionAgreement(ratings, d.min, d.max) };
    }),
    problems,
  };
}
