import { describe, expect, it } from "vitest";
import { bootstrap, skewTInterval, type BootstrapTask } from "../../src/metrics/bootstrap/index.ts";
import { normalQuantile, studentTQuantile } from "../../src/metrics/bootstrap/student-t.ts";
import { skewTReference as reference } from "../helpers/skew-t-reference.ts";

const Z975 = 1.959963984540054; // Φ⁻¹(0.975)
const K = (2 * Z975 * Z975 + 1) / 6; // ≈ 1.447152940231371

const close = (actual: number | null, expected: number, tol = 1e-12): void => {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
};

/** Values laid out cell after cell, and each cell's indices. */
function layout(cells: ReadonlyArray<ReadonlyArray<number | null>>): {
  values: Array<number | null>;
  cells: number[][];
} {
  const values: Array<number | null> = [];
  const idx: number[][] = [];
  for (const cell of cells) {
    idx.push(cell.map((v) => values.push(v) - 1));
  }
  return { values, cells: idx };
}

/** The existing t_stratified interval, from the bootstrap itself (one task per value, ids in order). */
function tStratified(cells: ReadonlyArray<ReadonlyArray<number | null>>) {
  const tasks: BootstrapTask[] = [];
  const values: Array<number | null> = [];
  cells.forEach((cell, c) =>
    cell.forEach((v) => {
      tasks.push({ id: `t${String(tasks.length).padStart(4, "0")}`, stratum: `s${c}`, language: "x" });
      values.push(v);
    }),
  );
  const r = bootstrap(tasks, [{ key: "k", values }], {
    iterations: 20,
    seed: 1,
    rng: "seedrandom",
    confidence: 0.95,
    calibrated: true,
  }).intervals["k"]!;
  return { point: r.point, ...r.calibrated!.t_stratified, se: r.calibrated!.se, df: r.calibrated!.df };
}

/** mulberry32: a small seeded generator for the random datasets. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GRID = [0, 0.25, 0.5, 1];

function randomDataset(random: () => number): Array<Array<number | null>> {
  const continuous = random() < 0.5;
  const draw = (): number => (continuous ? random() : (GRID[Math.floor(random() * 4)] as number));
  const cellCount = 1 + Math.floor(random() * 6);
  return Array.from({ length: cellCount }, () => {
    const size = 1 + Math.floor(random() * 8);
    if (random() < 0.25) {
      const v = draw();
      return Array.from({ length: size }, () => v);
    }
    return Array.from({ length: size }, () => (random() < 0.1 ? null : draw()));
  });
}

const datasets = (() => {
  const random = rng(20);
  return Array.from({ length: 200 }, () => randomDataset(random));
})();

describe("skew_t: the skewness-corrected stratified t interval", () => {
  it("matches a 2-cell example worked out by hand", () => {
    // Cell A = [0, 0, 1], cell B = [1, 2, 6, 9]; N = 7, Σy = 19, θ̂ = 19/7 ≈ 2.714285714285714.
    // A: ȳ = 1/3, e = (−1/3, −1/3, 2/3); Σe² = 2/3, s² = 1/3, n·s² = 1;
    //    Σe³ = (−1 − 1 + 8)/27 = 2/9, k3 = 3·(2/9)/(2·1) = 1/3, n·k3 = 1.
    // B: ȳ = 9/2, e = (−7/2, −5/2, 3/2, 9/2); Σe² = (49 + 25 + 9 + 81)/4 = 41, s² = 41/3, n·s² = 164/3;
    //    Σe³ = (−343 − 125 + 27 + 729)/8 = 36, k3 = 4·36/(3·2) = 24, n·k3 = 96.
    // V = (1 + 164/3)/49 = 167/147 ≈ 1.1360544217687075, SE ≈ 1.0658585374094949.
    // df = (167/147)² / ((1/49)²/2 + (164/147)²/3) = (27889/21609) / (53819/129654) = 167334/53819
    //    ≈ 3.1091993533882087.
    // κ₃ = (1 + 96)/7³ = 97/343; a = (97/343)/(167/147)^{3/2} ≈ 0.23354948266733921.
    // t = studentTQuantile(0.975, 167334/53819) ≈ 3.1201395562425738; z = 1.959963984540054,
    // k = (2z² + 1)/6 ≈ 1.447152940231371.
    // a > 0: low = θ̂ − SE·t ≈ −0.6113416696445055 (the t_stratified bound);
    //        high = θ̂ + SE·(t + k·a) ≈ 2.7142857 + 1.0658585·(3.1201396 + 0.3379785) ≈ 6.400153907118696.
    const data = [
      [0, 0, 1],
      [1, 2, 6, 9],
    ];
    const { values, cells } = layout(data);
    const r = skewTInterval(values, cells);
    const theta = 19 / 7;
    const se = Math.sqrt(167 / 147);
    const df = 167334 / 53819;
    const a = 97 / 343 / (167 / 147) ** 1.5;
    const t = studentTQuantile(0.975, df);
    close(r.se, se);
    close(r.df, df);
    close(r.skewness, a);
    close(r.low, theta - se * t);
    close(r.high, theta + se * (t + K * a));
    // The decimals above (t is only ~1e-10 accurate, so compare the figures loosely).
    close(r.se, 1.0658585374094949);
    close(r.df, 3.1091993533882087);
    close(r.skewness, 0.23354948266733921);
    close(t, 3.1201395562425738, 1e-9);
    close(r.low, -0.6113416696445055, 1e-9);
    close(r.high, 6.400153907118696, 1e-9);
    // The low bound is exactly t_stratified's (right skew leaves it alone).
    const ts = tStratified(data);
    close(r.low, ts.low as number);
    expect(r.high as number).toBeGreaterThan(ts.high as number);

    // Mirrored (−y): same SE and df, a → −a; low = −θ̂ − SE·(t + k·a), high = −θ̂ + SE·(t − k·a).
    const m = skewTInterval(
      values.map((v) => (v === null ? null : -v)),
      cells,
    );
    close(m.skewness, -a);
    close(m.low, -theta - se * (t + K * a));
    close(m.high, -theta + se * (t - K * a));
  });

  it("counts a singleton cell's value in θ̂ and N but not in V, df or κ₃, as t_stratified does", () => {
    // Add cell C = [5]: N = 8, θ̂ = 24/8 = 3; V = (1 + 164/3)/64 = 167/192; κ₃ = 97/512;
    // df = V² / ((1/64)²/2 + (164/192)²/3).
    const data = [[0, 0, 1], [1, 2, 6, 9], [5]];
    const { values, cells } = layout(data);
    const r = skewTInterval(values, cells);
    const V = 167 / 192;
    const se = Math.sqrt(V);
    const df = (V * V) / ((1 / 64) ** 2 / 2 + (164 / 192) ** 2 / 3);
    const a = 97 / 512 / V ** 1.5;
    const t = studentTQuantile(0.975, df);
    close(r.se, se);
    close(r.df, df);
    close(r.skewness, a);
    close(r.low, 3 - se * t);
    close(r.high, 3 + se * (t + K * a));
    const ts = tStratified(data);
    close(ts.point as number, 3);
    close(r.se, ts.se as number);
    close(r.df, ts.df as number);
    close(r.low, ts.low as number);
  });

  it("takes z from a normal quantile that matches Φ⁻¹", () => {
    close(normalQuantile(0.975), Z975, 1e-14);
    // Student's t with infinite df is the normal (the bisection on the t CDF alone gave −1000).
    close(studentTQuantile(0.975, Number.POSITIVE_INFINITY), Z975, 1e-14);
    close(normalQuantile(0.5), 0, 1e-14);
    close(normalQuantile(0.995), 2.5758293035489004, 1e-13);
    close(normalQuantile(0.025), -Z975, 1e-13);
  });

  it("agrees with a loop-by-loop re-implementation on 200 seeded random datasets", () => {
    for (const data of datasets) {
      const { values, cells } = layout(data);
      const r = skewTInterval(values, cells);
      const ref = reference(data);
      for (const key of ["low", "high", "se", "df", "skewness"] as const) {
        const expected = ref[key];
        if (expected === null) expect(r[key]).toBeNull();
        else close(r[key], expected);
      }
    }
  });

  it("gives [θ̂, θ̂] when every cell is constant", () => {
    const same = layout([[0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1], [0.1]]);
    const r = skewTInterval(same.values, same.cells);
    expect(r.low).toBe(r.high);
    close(r.low, 0.1, 1e-15);
    expect(r.se).toBe(0);
    expect(r.skewness).toBeNull();
    const levels = layout([[0.7, 0.7, 0.7], [0.3, 0.3], [1], [null, 0.2, 0.2, null]]);
    const s = skewTInterval(levels.values, levels.cells);
    const theta = (3 * 0.7 + 2 * 0.3 + 1 + 2 * 0.2) / 8;
    close(s.low, theta, 1e-15);
    expect(s.high).toBe(s.low);
    expect(s.se).toBe(0);
    expect(skewTInterval([null, null], [[0, 1]])).toEqual({
      low: null,
      high: null,
      se: null,
      df: null,
      skewness: null,
    });
  });

  it("equals t_stratified when the skewness is zero", () => {
    const cases = [
      [
        [1, 2, 3],
        [0, 0.25, 0.75, 1],
      ], // symmetric cells: Σe³ = 0
      [
        [0, 1],
        [0.5, 0.25],
        [0.3, 0.9],
      ], // cells of 2: no κ₃
      [[0.25, 0.5, 0.75, 1, 1.25], [0.5, 0.5, 0.5], [7]],
    ];
    for (const data of cases) {
      const { values, cells } = layout(data);
      const r = skewTInterval(values, cells);
      const ts = tStratified(data);
      expect(r.skewness).toBe(0);
      close(r.se, ts.se as number);
      close(r.df, ts.df as number);
      close(r.low, ts.low as number);
      close(r.high, ts.high as number);
    }
  });

  it("lowers low only with left skew, never above t_stratified's, and moves high with a", () => {
    let left = 0;
    const points: Array<{ a: number; shift: number }> = [];
    for (const data of datasets) {
      const { values, cells } = layout(data);
      const r = skewTInterval(values, cells);
      if (r.skewness === null) continue;
      const ts = tStratified(data);
      const a = r.skewness;
      const tLow = ts.low as number;
      expect(r.low as number).toBeLessThanOrEqual(tLow + 1e-12);
      if (a < -1e-9) {
        left += 1;
        expect(r.low as number).toBeLessThan(tLow);
      } else if (a >= 0) close(r.low, tLow);
      // high − θ̂ = SE·(t + k·a): increasing in a for a given SE and df.
      const t = studentTQuantile(0.975, r.df as number);
      const shift = ((r.high as number) - (ts.point as number)) / (r.se as number) - t;
      close(shift, K * a, 1e-10);
      points.push({ a, shift });
    }
    expect(left).toBeGreaterThan(10);
    points.sort((p, q) => p.a - q.a);
    for (let i = 1; i < points.length; i++)
      expect((points[i] as { shift: number }).shift).toBeGreaterThanOrEqual(
        (points[i - 1] as { shift: number }).shift - 1e-10,
      );
    // With the same SE and df, the right-skewed dataset's high sits further above θ̂ than its mirror's.
    const right = layout([
      [0, 0, 1],
      [1, 2, 6, 9],
    ]);
    const r = skewTInterval(right.values, right.cells);
    const m = skewTInterval(
      right.values.map((v) => (v === null ? null : -v)),
      right.cells,
    );
    expect((r.high as number) - 19 / 7).toBeGreaterThan((m.high as number) + 19 / 7);
  });
});
