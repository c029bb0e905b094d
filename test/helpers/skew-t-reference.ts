/**
 * An independent, loop-by-loop reading of #20's skew_t formula (cells of per-task values, null =
 * undefined), for the tests that check src/metrics/bootstrap/skew-t.ts and what prints it.
 */
import { studentTQuantile } from "../../src/metrics/bootstrap/student-t.ts";

const Z975 = 1.959963984540054; // Φ⁻¹(0.975)
const K = (2 * Z975 * Z975 + 1) / 6;

export function skewTReference(cells: ReadonlyArray<ReadonlyArray<number | null>>) {
  let N = 0;
  let sum = 0;
  for (const cell of cells)
    for (const v of cell)
      if (v !== null) {
        N += 1;
        sum += v;
      }
  if (N === 0) return { low: null, high: null, se: null, df: null, skewness: null };
  const theta = sum / N;
  let V = 0;
  let dfDen = 0;
  let k3sum = 0;
  for (const cell of cells) {
    const ys: number[] = [];
    for (const v of cell) if (v !== null) ys.push(v);
    const n = ys.length;
    if (n < 2) continue;
    let constant = true;
    for (const y of ys) if (y !== ys[0]) constant = false;
    let s = 0;
    for (const y of ys) s += y;
    const mean = constant ? (ys[0] as number) : s / n;
    let e2 = 0;
    let e3 = 0;
    for (const y of ys) {
      const e = y - mean;
      e2 += e * e;
      e3 += e * e * e;
    }
    const s2 = e2 / (n - 1);
    const term = (n * s2) / (N * N);
    V += term;
    dfDen += (term * term) / (n - 1);
    if (n >= 3) k3sum += (n * ((n * e3) / ((n - 1) * (n - 2)))) / (N * N * N);
  }
  if (V === 0) return { low: theta, high: theta, se: 0, df: null, skewness: null };
  const se = Math.sqrt(V);
  const df = (V * V) / dfDen;
  const a = k3sum / Math.pow(V, 1.5);
  const t = studentTQuantile(0.975, df);
  return { low: theta - se * (t + K * Math.max(0, -a)), high: theta + se * (t + K * a), se, df, skewness: a };
}
