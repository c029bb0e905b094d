/**
 * The skewness-corrected stratified t interval (`skew_t`, issue #20): the stratified t interval
 * (`t_stratified`: stratified SE, Satterthwaite's df) with each bound moved by the estimate's
 * skewness, estimated from the within-cell third k-statistics. Pure computation only.
 *
 * For one statistic with per-task values y grouped into cells c of n_c defined values, N = Σ n_c:
 * - θ̂ = Σ y / N; per cell the deviations e = y − ȳ_c (exactly 0 for a constant cell);
 * - V = Σ_c n_c s_c² / N² with s_c² = Σ e² / (n_c − 1), SE = √V,
 *   Satterthwaite df = V² / Σ_c (n_c s_c² / N²)² / (n_c − 1);
 * - κ₃ = Σ_c n_c k3_c / N³ with k3_c = n_c Σ e³ / ((n_c − 1)(n_c − 2)) for n_c ≥ 3; a = κ₃ / V^{3/2};
 * - t = t_df quantile, z = Φ⁻¹ at the same level, k = (2z² + 1) / 6;
 * - low = θ̂ − SE·(t + k·max(0, −a)), high = θ̂ + SE·(t + k·a).
 *
 * Cells with fewer than 2 defined values are skipped in V, df and κ₃, and cells with fewer than 3
 * in κ₃, but — as in `t_stratified` (`stratifiedSe` counts every defined value in N before it skips
 * a cell; `pointEstimate` averages every defined value) — their values still count in θ̂ and N.
 * θ̂ is `pointEstimate(values)`, the very number `t_stratified` centres on (the cells partition the
 * tasks, as the bootstrap lays them out).
 */
import { pointEstimate } from "./point-estimate.ts";
import { normalQuantile, studentTQuantile } from "./student-t.ts";

export interface SkewTInterval {
  readonly low: number | null;
  readonly high: number | null;
  /** The stratified standard error and Satterthwaite's df, as `t_stratified` has them. */
  readonly se: number | null;
  readonly df: number | null;
  /** a = κ₃ / V^{3/2}, the estimate's skewness (null when V = 0 or nothing is defined). */
  readonly skewness: number | null;
}

/**
 * The skew_t interval of one statistic: `values` one per task (null: undefined), `cells` the task
 * indices of each cell — the input of `stratifiedSe`. The level follows `t_stratified`: the
 * 1 − (1 − confidence)/2 quantile, 0.975 at the default 0.95.
 */
export function skewTInterval(
  values: ReadonlyArray<number | null>,
  cells: readonly (readonly number[])[],
  confidence = 0.95,
): SkewTInterval {
  const none: SkewTInterval = { low: null, high: null, se: null, df: null, skewness: null };
  const point = pointEstimate(values.map((v) => v ?? null));
  if (point === null) return none;
  const terms: Array<{ a: number; k: number; cubes: number }> = [];
  let total = 0;
  for (const cell of cells) {
    const xs = cell.map((t) => values[t]).filter((v): v is number => v !== null && v !== undefined);
    total += xs.length;
    if (xs.length < 2) continue;
    const first = xs[0] as number;
    // A constant cell's mean is its value, so its deviations are exactly 0 (a summed mean can be 1 ulp off).
    const mean = xs.every((x) => x === first) ? first : xs.reduce((a, b) => a + b, 0) / xs.length;
    const s2 = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
    const cubes = xs.reduce((a, x) => a + (x - mean) ** 3, 0);
    terms.push({ a: xs.length * s2, k: xs.length, cubes });
  }
  if (total === 0) return none;
  const N2 = total * total;
  const a = terms.map((t) => ({ a: t.a / N2, k: t.k }));
  const variance = a.reduce((sum, t) => sum + t.a, 0);
  const denominator = a.reduce((sum, t) => sum + (t.a * t.a) / (t.k - 1), 0);
  const se = Math.sqrt(variance);
  const df = denominator > 0 ? (variance * variance) / denominator : null;
  if (variance === 0) return { low: point, high: point, se, df, skewness: null };
  // κ₃ = Σ_c n_c·k3_c / N³, k3_c = n_c·Σe³ / ((n_c − 1)(n_c − 2)), cells of 3 or more.
  let kappa3 = 0;
  for (const t of terms) if (t.k >= 3) kappa3 += (t.k * t.k * t.cubes) / ((t.k - 1) * (t.k - 2));
  kappa3 /= N2 * total;
  const skewness = kappa3 / variance ** 1.5;
  if (df === null) return { low: null, high: null, se, df, skewness };
  const p = 1 - Number(((1 - confidence) / 2).toPrecision(12));
  const q = studentTQuantile(p, df);
  const z = normalQuantile(p);
  const k = (2 * z * z + 1) / 6;
  return {
    low: point - se * (q + k * Math.max(0, -skewness)),
    high: point + se * (q + k * skewness),
    se,
    df,
    skewness,
  };
}
