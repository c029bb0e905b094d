/**
 * The calibrated intervals, computed from the same draws as the percentile interval: widened
 * percentile, stratified bootstrap-t and stratified t (with the stratified standard error and
 * Satterthwaite's df); skew_t, the stratified t corrected for skewness, needs no draws.
 *
 * Why they exist: with 4 tasks per cell the preregistered percentile interval is too narrow — the
 * stratified bootstrap's variance is (n_c − 1)/n_c = 3/4 of the unbiased within-cell variance. The
 * percentile interval stays exactly as preregistered and these stand beside it; the protocol names
 * the one the interval verdict uses. The per-cell terms they need from each drawn multiset ride in
 * the multiset tables as two more columns per statistic, so they come from the same draws and the
 * same column sums as the percentile interval.
 */
import type { BootstrapOptions, Layout } from "./layout.ts";
import { orderStatistics } from "./order-statistics.ts";
import { studentTQuantile } from "./student-t.ts";

/**
 * Replicate sums are taken in another order than the estimate's (≈1e-15 relative), so a degenerate
 * replicate within this relative distance of the estimate reproduces it (t = 0/0), not t = ±∞.
 */
const STATISTIC_TIE = 1e-12;

export interface CalibratedIntervals {
  /** The stratified standard error of the estimate (unbiased within-cell variances), and Satterthwaite's df. */
  readonly se: number | null;
  readonly df: number | null;
  /** Percentile replicates with each cell's deviation scaled by √(n_c/(n_c − 1)). */
  readonly percentile_widened: { readonly low: number | null; readonly high: number | null };
  /**
   * Replicates studentised by their own stratified SE. `degenerate` counts replicates with SE 0;
   * of those, `infinite` differ from the estimate and rank as t = ±∞ (the rest, t = 0/0, are
   * dropped); `n` counts the ranked replicates. A bound is null when it lands on an infinite one
   * (unbounded on that side; a gate reading it cannot pass) or when no replicate is ranked.
   */
  readonly bootstrap_t: {
    readonly low: number | null;
    readonly high: number | null;
    readonly n: number;
    readonly degenerate: number;
    readonly infinite: number;
  };
  /** Estimate ± t(df) × SE. */
  readonly t_stratified: { readonly low: number | null; readonly high: number | null };
  /** The stratified t with each bound moved by the estimate's skewness (skew-t.ts); no draws. */
  readonly skew_t: { readonly low: number | null; readonly high: number | null };
}

/**
 * Per cell and drawn multiset, for every statistic: the variance term K·s² of the drawn defined
 * values (s² unbiased; 0 below two values) and the widened deviation √(n/(n−1))·(S − K·θ̂), where
 * n is the cell's size, K the drawn defined count, S their sum and θ̂ the statistic's estimate.
 */
export function calibrationEntries(
  sorted: ReadonlyArray<ReadonlyArray<number | null>>,
  points: ReadonlyArray<number | null>,
  cell: readonly number[],
  counts: readonly number[],
): number[] {
  const out = new Array<number>(2 * sorted.length).fill(0);
  const size = cell.length;
  const widen = size > 1 ? Math.sqrt(size / (size - 1)) : 1;
  // Plain loops (no closures per value): this runs for every statistic of every multiset of every cell.
  for (let i = 0; i < sorted.length; i++) {
    const values = sorted[i] as ReadonlyArray<number | null>;
    let K = 0;
    let S = 0;
    for (let k = 0; k < size; k++) {
      const v = values[cell[k] as number];
      const c = counts[k] ?? 0;
      if (v !== null && v !== undefined && c > 0) {
        K += c;
        S += c * v;
      }
    }
    let q = 0;
    if (K >= 2) {
      const mean = S / K;
      let squares = 0;
      for (let k = 0; k < size; k++) {
        const v = values[cell[k] as number];
        const c = counts[k] ?? 0;
        if (v !== null && v !== undefined && c > 0) squares += c * (v - mean) ** 2;
      }
      q = (K * squares) / (K - 1);
    }
    out[2 * i] = q;
    out[2 * i + 1] = widen * (S - K * (points[i] ?? 0));
  }
  return out;
}

/** The stratified standard error SE² = Σ_c K_c·s_c² / K² (unbiased s_c²), and Satterthwaite's df. */
export function stratifiedSe(
  values: ReadonlyArray<number | null>,
  cells: readonly number[][],
): { se: number | null; df: number | null } {
  const terms: Array<{ a: number; k: number }> = [];
  let total = 0;
  for (const cell of cells) {
    const xs = cell.map((t) => values[t]).filter((v): v is number => v !== null && v !== undefined);
    total += xs.length;
    if (xs.length < 2) continue;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const s2 = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
    terms.push({ a: xs.length * s2, k: xs.length });
  }
  if (total === 0) return { se: null, df: null };
  const a = terms.map((t) => ({ a: t.a / (total * total), k: t.k }));
  const variance = a.reduce((sum, t) => sum + t.a, 0);
  const denominator = a.reduce((sum, t) => sum + (t.a * t.a) / (t.k - 1), 0);
  return { se: Math.sqrt(variance), df: denominator > 0 ? (variance * variance) / denominator : null };
}

export function calibrate(
  i: number,
  point: number | null,
  layout: Layout,
  columns: Float64Array,
  countBase: number,
  thetas: Float64Array,
  scratch: Float64Array,
  options: BootstrapOptions,
): CalibratedIntervals {
  const B = options.iterations;
  const alpha = (1 - options.confidence) / 2;
  const none = { low: null, high: null };
  const { se, df, skewT } = layout.observed[i] ?? { se: null, df: null, skewT: none };
  const skew_t = { low: skewT.low, high: skewT.high };
  if (point === null || se === null)
    return {
      se,
      df,
      percentile_widened: none,
      bootstrap_t: { ...none, n: 0, degenerate: 0, infinite: 0 },
      t_stratified: none,
      skew_t,
    };
  const qBase = (layout.width + 2 * i) * B;
  const wBase = qBase + B;
  // Widened percentile: each cell's deviation from the estimate scaled before averaging.
  let kept = 0;
  for (let it = 0; it < B; it++) {
    const n = columns[countBase + it] as number;
    if (n !== 0) scratch[kept++] = point + (columns[wBase + it] as number) / n;
  }
  const widened = orderStatistics(scratch.subarray(0, kept), alpha);
  // Bootstrap-t: each replicate studentised by its own stratified SE. A replicate with SE 0 (every
  // drawn cell constant) is degenerate: its t is 0/0 when it also reproduces the estimate (dropped),
  // and otherwise ±∞, the limit of any vanishing noise. Dropping those instead would cut exactly
  // the tail that rare large losses produce and pass the gate too often (see docs/statistics.md,
  // "Degenerate replicates"); a bound that lands on one is unbounded and reported as null.
  kept = 0;
  let degenerate = 0;
  let infinite = 0;
  const tie = STATISTIC_TIE * Math.max(1, Math.abs(point));
  for (let it = 0; it < B; it++) {
    const theta = thetas[it] as number;
    if (Number.isNaN(theta)) continue;
    const n = columns[countBase + it] as number;
    const q = columns[qBase + it] as number;
    if (!(q > 0)) {
      degenerate += 1;
      if (Math.abs(theta - point) <= tie) continue;
      infinite += 1;
      scratch[kept++] = theta > point ? Infinity : -Infinity;
      continue;
    }
    scratch[kept++] = (theta - point) / (Math.sqrt(q) / n);
  }
  const t = orderStatistics(scratch.subarray(0, kept), alpha);
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  const bootstrapT =
    se === 0
      ? { low: point, high: point }
      : t.low === null || t.high === null
        ? none
        : { low: finite(point - t.high * se), high: finite(point - t.low * se) };
  const q = df === null ? null : studentTQuantile(1 - Number(alpha.toPrecision(12)), df);
  const tStratified =
    se === 0
      ? { low: point, high: point }
      : q === null
        ? none
        : { low: point - q * se, high: point + q * se };
  return {
    se,
    df,
    percentile_widened: { low: widened.low, high: widened.high },
    bootstrap_t: { ...bootstrapT, n: kept, degenerate, infinite },
    t_stratified: tStratified,
    skew_t,
  };
}
