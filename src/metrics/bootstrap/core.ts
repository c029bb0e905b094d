/**
 * The paired stratified task-cluster bootstrap (DESIGN §12; the rule in ../shared/bench/README.md).
 *
 * Per task and statistic there is one value (null when undefined). Cells are stratum × language
 * pairs in order of first appearance over task ids sorted by code point; each iteration draws,
 * cell by cell and slot by slot, as many tasks as the cell holds, with replacement; every
 * statistic shares the iteration's draws. A replicate is the mean of the drawn tasks' defined
 * values (dropped when none is defined). The interval takes the sorted replicates at
 * ⌊0.025·(n−1)⌋ and ⌊0.975·(n−1)⌋.
 *
 * How it is fast: a cell of n tasks drawn n times has only C(2n−1, n) possible multisets (35 for
 * n = 4), so each cell's summed values and "defined" counts are tabulated once per multiset; an
 * iteration is then one lookup per cell, and its sums are gathered four base columns at a time
 * from tables that fit the fastest cache. Statistics share a few "defined" patterns, whose counts
 * are columns too. A paired delta (level − baseline) and a pooled level (the mean of equally
 * sized catalog levels) are formed from their parts' sums when all are defined on the same tasks.
 * Sums are taken per cell and per column, not in draw order, which changes results only in the
 * last bits (≈1e-15 of the values); the draws themselves follow the rule's order exactly.
 */
import { compareCodePoints } from "../../core/index.ts";
import { createDraw, type RngName } from "./rng.ts";
import { studentTQuantile } from "./student-t.ts";
import { createSum4, type Sum4 } from "./wasm.ts";

/**
 * Replicate sums are taken in another order than the estimate's (≈1e-15 relative), so a degenerate
 * replicate within this relative distance of the estimate reproduces it (t = 0/0), not t = ±∞.
 */
const STATISTIC_TIE = 1e-12;

export interface BootstrapTask {
  readonly id: string;
  readonly stratum: string;
  readonly language: string;
}

export interface Statistic {
  readonly key: string;
  /** One value per task, in the order of `tasks` as given (null: undefined for that task). */
  readonly values: readonly (number | null)[];
  /**
   * When every task's value is exactly this weighted sum of other statistics' values (a paired
   * delta = level − baseline; a pooled level = the mean of equally-sized catalog levels), its
   * replicate sums are combined from theirs instead of summed again — used only when all of them
   * are defined on the same tasks.
   */
  readonly combination?: ReadonlyArray<{ readonly key: string; readonly weight: number }>;
}

export interface BootstrapOptions {
  /** Also compute the calibrated intervals (widened percentile, stratified bootstrap-t, stratified t). */
  readonly calibrated?: boolean;
  /** Sum columns with WebAssembly SIMD when the runtime has it (default); false: plain JavaScript. Same bits either way. */
  readonly simd?: boolean;
  readonly iterations: number;
  readonly seed: number;
  readonly rng: RngName;
  readonly confidence: number;
}

export interface Interval {
  readonly point: number | null;
  /** The preregistered percentile interval. */
  readonly low: number | null;
  readonly high: number | null;
  /** Replicates kept (iterations − dropped). */
  readonly n: number;
  readonly calibrated?: CalibratedIntervals;
}

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
  readonly bootstrap_t: { readonly low: number | null; readonly high: number | null; readonly n: number; readonly degenerate: number; readonly infinite: number };
  /** Estimate ± t(df) × SE. */
  readonly t_stratified: { readonly low: number | null; readonly high: number | null };
}

export interface BootstrapResult {
  readonly intervals: Record<string, Interval>;
  readonly cells: number;
  /** Milliseconds of the bootstrap alone (draws, sums, selection), for benchmarks. */
  readonly coreMs: number;
}

interface Prepared {
  readonly order: number[]; // sorted position → original task index
  readonly cells: number[][]; // positions, per cell
}

function prepare(tasks: readonly BootstrapTask[]): Prepared {
  const order = tasks.map((_, i) => i).sort((a, b) => compareCodePoints((tasks[a] as BootstrapTask).id, (tasks[b] as BootstrapTask).id));
  const cellIndex = new Map<string, number>();
  const cells: number[][] = [];
  order.forEach((original, position) => {
    const t = tasks[original] as BootstrapTask;
    const key = `${t.stratum}\u0000${t.language}`;
    let c = cellIndex.get(key);
    if (c === undefined) {
      c = cells.length;
      cellIndex.set(key, c);
      cells.push([]);
    }
    (cells[c] as number[]).push(position);
  });
  return { order, cells };
}

export function bootstrap(tasks: readonly BootstrapTask[], statistics: readonly Statistic[], options: BootstrapOptions, clock: () => number = () => 0): BootstrapResult {
  const { order, cells } = prepare(tasks);
  const layout = layOut(statistics, order, cells, options.calibrated === true);
  const started = clock();
  const B = options.iterations;
  const C = cells.length;
  const total = layout.width + layout.extras;
  const simd = options.simd === false ? null : createSum4(B, C, layout.tables.reduce((a, t) => a + t.count, 0), total);
  const directCounts = new Map<number, Int32Array>();
  const picked = drawMultisets(layout.tables, B, createDraw(options.rng, options.seed), simd?.picked ?? new Int32Array(B * C), directCounts);
  const columns = sumColumns(layout.tables, picked, total, B, simd);
  addDirectCells(layout.tables, directCounts, columns, total, B);
  const intervals = intervalsFrom(statistics, layout, columns, options);
  return { intervals, cells: cells.length, coreMs: clock() - started };
}

interface Layout {
  /** Each statistic's values in sorted task order. */
  readonly sorted: Array<Array<number | null>>;
  /** Each statistic's "defined" pattern. */
  readonly patternOf: number[];
  /** Each statistic as weighted base rows: its own, or its combination's. */
  readonly terms: Array<Array<[number, number]>>;
  /** Base rows that need sums of their own; the pattern counts follow them. */
  readonly rows: number;
  /** Base columns: rows, then pattern counts. */
  readonly width: number;
  /** With calibrated intervals: two more columns per statistic after the base ones (variance, widened deviation). */
  readonly extras: number;
  readonly tables: CellTable[];
  /** Per statistic: observed stratified SE and Satterthwaite df (calibrated only). */
  readonly observed: Array<{ se: number | null; df: number | null }>;
}

/** Values in sorted task order, defined patterns, combinations resolved, per-cell tables built. */
function layOut(statistics: readonly Statistic[], order: readonly number[], cells: readonly number[][], calibrated: boolean): Layout {
  const T = order.length;
  const sorted = statistics.map((s) => order.map((i) => s.values[i] ?? null));
  const patternIds = new Map<string, number>();
  const patterns: Uint8Array[] = [];
  const patternOf = sorted.map((vals) => {
    const mask = vals.map((v) => (v === null ? "0" : "1")).join("");
    let id = patternIds.get(mask);
    if (id === undefined) {
      id = patterns.length;
      patternIds.set(mask, id);
      patterns.push(Uint8Array.from(vals, (v) => (v === null ? 0 : 1)));
    }
    return id;
  });
  const keyIndex = new Map(statistics.map((s, i) => [s.key, i]));
  const terms: Array<Array<[number, number]> | null> = statistics.map(() => null);
  const rowOf = new Int32Array(statistics.length).fill(-1);
  let rows = 0;
  const resolve = (i: number, depth = 0): Array<[number, number]> => {
    const known = terms[i];
    if (known) return known;
    const parts = statistics[i]?.combination?.map((c) => [keyIndex.get(c.key), c.weight] as const) ?? [];
    const usable = depth < 8 && parts.length > 0 && parts.every(([j]) => j !== undefined && patternOf[j] === patternOf[i]);
    let result: Array<[number, number]>;
    if (usable) result = parts.flatMap(([j, w]) => resolve(j as number, depth + 1).map(([r, x]): [number, number] => [r, x * w]));
    else {
      rowOf[i] = rows++;
      result = [[rowOf[i] as number, 1]];
    }
    terms[i] = result;
    return result;
  };
  statistics.forEach((_, i) => resolve(i));
  const width = rows + patterns.length; // per task: its values, then its 0/1 membership of each pattern
  const taskRows = new Float64Array(T * width);
  statistics.forEach((_, i) => {
    const r = rowOf[i] as number;
    if (r >= 0) (sorted[i] as Array<number | null>).forEach((v, t) => (taskRows[t * width + r] = v ?? 0));
  });
  for (let t = 0; t < T; t++) patterns.forEach((mask, p) => (taskRows[t * width + rows + p] = mask[t] as number));
  const points = sorted.map((v) => pointEstimate(v));
  const extra = calibrated ? (cell: readonly number[], counts: readonly number[]) => calibrationEntries(sorted, points, cell, counts) : undefined;
  const observed = calibrated ? sorted.map((values) => stratifiedSe(values, cells)) : [];
  return { sorted, patternOf, terms: terms.map((t) => t ?? []), rows, width, extras: calibrated ? 2 * statistics.length : 0, tables: cells.map((cell) => cellTable(cell, taskRows, width, extra)), observed };
}

/**
 * The draws, in the rule's order (iteration, cell, slot): for each iteration and cell, the row of
 * the drawn multiset in the cells' concatenated tables.
 */
function drawMultisets(tables: readonly CellTable[], B: number, draw: (n: number) => number, picked: Int32Array, directCounts: Map<number, Int32Array>): Int32Array {
  const C = tables.length;
  tables.forEach((t, c) => {
    if (t.direct) directCounts.set(c, new Int32Array(B * t.size));
  });
  let start = 0;
  const starts = tables.map((t) => {
    const at = start;
    start += t.count;
    return at;
  });
  for (let it = 0; it < B; it++)
    for (let c = 0; c < C; c++) {
      const table = tables[c] as CellTable;
      const size = table.size;
      const counts = directCounts.get(c);
      if (counts) {
        for (let slot = 0; slot < size; slot++) {
          const at = it * size + draw(size);
          counts[at] = (counts[at] as number) + 1;
        }
        picked[it * C + c] = starts[c] as number; // the cell's zero row; its sums are added afterwards
        continue;
      }
      let code = 0;
      for (let slot = 0; slot < size; slot++) code += table.weights[draw(size)] as number;
      picked[it * C + c] = (starts[c] as number) + (table.offsetByCode[code] as number);
    }
  return picked;
}

/**
 * Every iteration's sum of every base column (a row's own sum, or a pattern's count), four
 * columns at a time: their per-cell multiset sums, interleaved, form a table small enough for the
 * fastest cache, and each iteration is a run of lookups into it. Column k of iteration it is at
 * columns[k·B + it].
 */
function sumColumns(tables: readonly CellTable[], picked: Int32Array, width: number, B: number, simd: Sum4 | null): Float64Array {
  const LANES = 4;
  const C = tables.length;
  const total = tables.reduce((a, t) => a + t.count, 0);
  const lookup = simd?.lookup ?? new Float64Array(total * LANES);
  const columns = simd?.columns ?? new Float64Array(width * B);
  for (let k0 = 0; k0 < width; k0 += LANES) {
    lookup.fill(0);
    let at = 0;
    for (const t of tables)
      for (let m = 0; m < t.count; m++, at++)
        for (let j = 0; j < LANES && k0 + j < width; j++) lookup[at * LANES + j] = t.partials[m * width + k0 + j] as number;
    if (simd) {
      simd.run(k0, width);
      continue;
    }
    for (let it = 0; it < B; it++) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      const row = it * C;
      for (let c = 0; c < C; c++) {
        const i = (picked[row + c] as number) * LANES;
        s0 += lookup[i] as number;
        s1 += lookup[i + 1] as number;
        s2 += lookup[i + 2] as number;
        s3 += lookup[i + 3] as number;
      }
      columns[k0 * B + it] = s0;
      if (k0 + 1 < width) columns[(k0 + 1) * B + it] = s1;
      if (k0 + 2 < width) columns[(k0 + 2) * B + it] = s2;
      if (k0 + 3 < width) columns[(k0 + 3) * B + it] = s3;
    }
  }
  return columns;
}

/** Adds, for cells too large to tabulate, each iteration's row computed from its drawn counts. */
function addDirectCells(tables: readonly CellTable[], directCounts: ReadonlyMap<number, Int32Array>, columns: Float64Array, width: number, B: number): void {
  for (const [c, counts] of directCounts) {
    const table = tables[c] as CellTable;
    const size = table.size;
    for (let it = 0; it < B; it++) {
      const row = (table.direct as (counts: readonly number[]) => Float64Array)(Array.from(counts.subarray(it * size, (it + 1) * size)));
      for (let k = 0; k < width; k++) columns[k * B + it] = (columns[k * B + it] as number) + (row[k] as number);
    }
  }
}

/** Each statistic's replicates from its columns (dropped where no drawn task is defined), then its intervals. */
function intervalsFrom(statistics: readonly Statistic[], layout: Layout, columns: Float64Array, options: BootstrapOptions): Record<string, Interval> {
  const B = options.iterations;
  const alpha = (1 - options.confidence) / 2;
  const thetas = new Float64Array(B);
  const scratch = new Float64Array(B);
  const intervals: Record<string, Interval> = {};
  statistics.forEach((stat, i) => {
    const countBase = (layout.rows + (layout.patternOf[i] as number)) * B;
    replicates(layout.terms[i] ?? [], columns, countBase, B, thetas);
    let kept = 0;
    for (let it = 0; it < B; it++) if (!Number.isNaN(thetas[it] as number)) scratch[kept++] = thetas[it] as number;
    const point = pointEstimate(layout.sorted[i] as Array<number | null>);
    const base = { point, ...orderStatistics(scratch.subarray(0, kept), alpha) };
    intervals[stat.key] = layout.extras === 0 ? base : { ...base, calibrated: calibrate(i, point, layout, columns, countBase, thetas, scratch, options) };
  });
  return intervals;
}

/** θ* of every iteration (NaN when no drawn task is defined): up to four weighted columns over the count. */
function replicates(parts: ReadonlyArray<readonly [number, number]>, columns: Float64Array, countBase: number, B: number, out: Float64Array): void {
  const column = (k: number) => (parts[k] ? (parts[k] as readonly [number, number])[0] * B : 0);
  const weight = (k: number) => (parts[k] ? (parts[k] as readonly [number, number])[1] : 0);
  const [c0, c1, c2, c3] = [column(0), column(1), column(2), column(3)];
  const [w0, w1, w2, w3] = [weight(0), weight(1), weight(2), weight(3)];
  if (parts.length === 1 && w0 === 1)
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      out[it] = n === 0 ? Number.NaN : (columns[c0 + it] as number) / n;
    }
  else if (parts.length === 2)
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      out[it] = n === 0 ? Number.NaN : (w0 * (columns[c0 + it] as number) + w1 * (columns[c1 + it] as number)) / n;
    }
  else if (parts.length <= 4)
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      out[it] = n === 0 ? Number.NaN : (w0 * (columns[c0 + it] as number) + w1 * (columns[c1 + it] as number) + w2 * (columns[c2 + it] as number) + w3 * (columns[c3 + it] as number)) / n;
    }
  else
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      let sum = 0;
      for (const [r, w] of parts) sum += w * (columns[r * B + it] as number);
      out[it] = n === 0 ? Number.NaN : sum / n;
    }
}

/**
 * Per cell and drawn multiset, for every statistic: the variance term K·s² of the drawn defined
 * values (s² unbiased; 0 below two values) and the widened deviation √(n/(n−1))·(S − K·θ̂), where
 * n is the cell's size, K the drawn defined count, S their sum and θ̂ the statistic's estimate.
 */
function calibrationEntries(sorted: ReadonlyArray<ReadonlyArray<number | null>>, points: ReadonlyArray<number | null>, cell: readonly number[], counts: readonly number[]): number[] {
  const out = new Array<number>(2 * sorted.length).fill(0);
  const size = cell.length;
  const widen = size > 1 ? Math.sqrt(size / (size - 1)) : 1;
  sorted.forEach((values, i) => {
    let K = 0;
    let S = 0;
    cell.forEach((t, k) => {
      const v = values[t];
      const c = counts[k] ?? 0;
      if (v !== null && v !== undefined && c > 0) {
        K += c;
        S += c * v;
      }
    });
    let q = 0;
    if (K >= 2) {
      const mean = S / K;
      let squares = 0;
      cell.forEach((t, k) => {
        const v = values[t];
        const c = counts[k] ?? 0;
        if (v !== null && v !== undefined && c > 0) squares += c * (v - mean) ** 2;
      });
      q = (K * squares) / (K - 1);
    }
    out[2 * i] = q;
    out[2 * i + 1] = widen * (S - K * (points[i] ?? 0));
  });
  return out;
}

/** The stratified standard error SE² = Σ_c K_c·s_c² / K² (unbiased s_c²), and Satterthwaite's df. */
function stratifiedSe(values: ReadonlyArray<number | null>, cells: readonly number[][]): { se: number | null; df: number | null } {
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

function calibrate(i: number, point: number | null, layout: Layout, columns: Float64Array, countBase: number, thetas: Float64Array, scratch: Float64Array, options: BootstrapOptions): CalibratedIntervals {
  const B = options.iterations;
  const alpha = (1 - options.confidence) / 2;
  const { se, df } = layout.observed[i] ?? { se: null, df: null };
  const none = { low: null, high: null };
  if (point === null || se === null) return { se, df, percentile_widened: none, bootstrap_t: { ...none, n: 0, degenerate: 0, infinite: 0 }, t_stratified: none };
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
  // the tail that rare large losses produce and pass the gate too often (see README, "degenerate
  // replicates"); a bound that lands on one is unbounded and reported as null.
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
    se === 0 ? { low: point, high: point } : t.low === null || t.high === null ? none : { low: finite(point - t.high * se), high: finite(point - t.low * se) };
  const q = df === null ? null : studentTQuantile(1 - Number(alpha.toPrecision(12)), df);
  const tStratified = se === 0 ? { low: point, high: point } : q === null ? none : { low: point - q * se, high: point + q * se };
  return { se, df, percentile_widened: { low: widened.low, high: widened.high }, bootstrap_t: { ...bootstrapT, n: kept, degenerate, infinite }, t_stratified: tStratified };
}

interface CellTable {
  /**
   * For a cell too large to tabulate (C(2n−1, n) multisets grow fast): its row for drawn counts,
   * computed per iteration; its table then holds one zero row.
   */
  readonly direct?: (counts: readonly number[]) => Float64Array;
  readonly size: number;
  /** How many multisets (rows of `partials`). */
  readonly count: number;
  /** Drawing the cell's j-th task adds weights[j] = (size+1)^j to the draw's code. */
  readonly weights: Float64Array;
  readonly offsetByCode: Int32Array;
  /** For every multiset of draws: the summed task rows (values and pattern counts). */
  readonly partials: Float64Array;
}

/**
 * A cell of n tasks drawn n times has only C(2n−1, n) possible multisets (35 for n = 4): their
 * summed rows are computed once, and an iteration adds one precomputed row per cell.
 */
/** Tables up to this many numbers are built; larger cells are summed per iteration instead. */
const TABLE_LIMIT = 250_000;

function multisetCount(n: number): number {
  let count = 1;
  for (let k = 1; k <= n; k++) count = (count * (n - 1 + k)) / k; // C(2n−1, n)
  return Math.round(count);
}

function cellTable(cell: readonly number[], taskRows: Float64Array, width: number, extra?: (cell: readonly number[], counts: readonly number[]) => number[]): CellTable {
  const size = cell.length;
  const rowWidth = width + (extra ? extra(cell, new Array<number>(size).fill(0)).length : 0);
  const rowFor = (counts: readonly number[]) => {
    const row = new Float64Array(rowWidth);
    counts.forEach((c, k) => {
      if (c === 0) return;
      const base = (cell[k] as number) * width;
      for (let x = 0; x < width; x++) row[x] = (row[x] as number) + c * (taskRows[base + x] as number);
    });
    if (extra) row.set(extra(cell, counts), width);
    return row;
  };
  // The draw code indexes a table of (n+1)^n entries, and the multisets need rows: both must stay small.
  if (multisetCount(size) * rowWidth > TABLE_LIMIT || (size + 1) ** size > 1_000_000)
    return { direct: rowFor, size, count: 1, weights: new Float64Array(0), offsetByCode: new Int32Array(0), partials: new Float64Array(rowWidth) };
  const weights = Float64Array.from(cell, (_, j) => (size + 1) ** j);
  const offsetByCode = new Int32Array((size + 1) ** size).fill(-1);
  const partials: number[] = [];
  const counts = new Array<number>(size).fill(0);
  const visit = (j: number, left: number) => {
    if (j === size - 1) {
      counts[j] = left;
      let code = 0;
      const row = new Float64Array(width);
      counts.forEach((c, k) => {
        code += c * (weights[k] as number);
        const base = (cell[k] as number) * width;
        for (let x = 0; x < width; x++) row[x] = (row[x] as number) + c * (taskRows[base + x] as number);
      });
      const more = extra ? extra(cell, counts) : [];
      offsetByCode[code] = partials.length / (width + more.length);
      partials.push(...row, ...more);
      return;
    }
    for (let c = left; c >= 0; c--) {
      counts[j] = c;
      visit(j + 1, left - c);
    }
  };
  visit(0, size);
  return { size, count: partials.length / rowWidth, weights, offsetByCode, partials: Float64Array.from(partials) };
}

/** Mean over all tasks of the defined values, summed in id order (null when none is defined). */
export function pointEstimate(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values)
    if (v !== null) {
      sum += v;
      n += 1;
    }
  return n === 0 ? null : sum / n;
}

/** The percentile interval of the kept (non-NaN) replicates; partitions `replicates` in place. */
export function percentile(replicates: Float64Array, alpha: number): { low: number | null; high: number | null; n: number } {
  let n = 0;
  for (let i = 0; i < replicates.length; i++) if (!Number.isNaN(replicates[i] as number)) replicates[n++] = replicates[i] as number;
  return orderStatistics(replicates.subarray(0, n), alpha);
}

/** The two order statistics of replicates that are all kept; partitions them in place. */
function orderStatistics(kept: Float64Array, alpha: number): { low: number | null; high: number | null; n: number } {
  const n = kept.length;
  if (n === 0) return { low: null, high: null, n: 0 };
  // The quantiles as written in the protocol (0.025 and 0.975), not as 1 − 0.95 happens to round.
  const lowQ = Number(alpha.toPrecision(12));
  const highQ = Number((1 - lowQ).toPrecision(12));
  const lowIndex = Math.floor(lowQ * (n - 1));
  const highIndex = Math.floor(highQ * (n - 1));
  select(kept, lowIndex, 0, n - 1);
  // Everything right of lowIndex is now ≥ it; select there so the low order statistic stays put.
  if (highIndex > lowIndex) select(kept, highIndex, lowIndex + 1, n - 1);
  return { low: kept[lowIndex] as number, high: kept[highIndex] as number, n };
}

/**
 * Floyd–Rivest selection: afterwards a[k] is the k-th smallest of a[left..right]. For the
 * interval's extreme ranks (249 and 9749 of 10,000) it narrows the range from a small sample first,
 * so it touches each element little more than once.
 */
function select(a: Float64Array, k: number, left: number, right: number): void {
  while (right > left) {
    if (right - left > 600) {
      const n = right - left + 1;
      const m = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      const newLeft = Math.max(left, Math.floor(k - (m * s) / n + sd));
      const newRight = Math.min(right, Math.floor(k + ((n - m) * s) / n + sd));
      select(a, k, newLeft, newRight);
    }
    const t = a[k] as number;
    let i = left;
    let j = right;
    swap(a, left, k);
    if ((a[right] as number) > t) swap(a, left, right);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while ((a[i] as number) < t) i++;
      while ((a[j] as number) > t) j--;
    }
    if (a[left] === t) swap(a, left, j);
    else {
      j++;
      swap(a, j, right);
    }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}
