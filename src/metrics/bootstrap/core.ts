/**
 * The paired stratified task-cluster bootstrap, following the preregistered rule exactly.
 *
 * Per task and statistic there is one value (null when undefined). Cells are stratum × language
 * pairs in order of first appearance over task ids sorted by code point; each iteration draws,
 * cell by cell and slot by slot, as many tasks as the cell holds, with replacement; every
 * statistic shares the iteration's draws. A replicate is the mean of the drawn tasks' defined
 * values (dropped when none is defined). The interval takes the sorted replicates at
 * ⌊0.025·(n−1)⌋ and ⌊0.975·(n−1)⌋.
 *
 * This file is the entry point and its types: it orders the tasks into cells, lays the statistics
 * out as columns, and hands them on to multiset-tables.ts (the draws, column sums and replicates,
 * and why they are fast), order-statistics.ts (each interval's bounds) and calibration.ts (the
 * calibrated intervals beside the preregistered one).
 */
import { compareCodePoints, createDraw } from "../../core/index.ts";
import { calibrate, calibrationEntries, stratifiedSe, type CalibratedIntervals } from "./calibration.ts";
import { skewTInterval } from "./skew-t.ts";
import type { BootstrapOptions, Layout } from "./layout.ts";
import { pointEstimate } from "./point-estimate.ts";
import { addDirectCells, cellTable, drawMultisets, replicates, sumColumns } from "./multiset-tables.ts";
import { orderStatistics } from "./order-statistics.ts";
import { createSum4 } from "./wasm.ts";

export type { BootstrapOptions, Layout } from "./layout.ts";
export { pointEstimate } from "./point-estimate.ts";

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

export interface Interval {
  readonly point: number | null;
  /** The preregistered percentile interval. */
  readonly low: number | null;
  readonly high: number | null;
  /** Replicates kept (iterations − dropped). */
  readonly n: number;
  readonly calibrated?: CalibratedIntervals;
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
  const order = tasks
    .map((_, i) => i)
    .sort((a, b) => compareCodePoints((tasks[a] as BootstrapTask).id, (tasks[b] as BootstrapTask).id));
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

export function bootstrap(
  tasks: readonly BootstrapTask[],
  statistics: readonly Statistic[],
  options: BootstrapOptions,
  clock: () => number = () => 0,
): BootstrapResult {
  const { order, cells } = prepare(tasks);
  // Nothing to resample (a breakdown of a run with no condition beside the baseline has no deltas):
  // no intervals, and no tables, whose rows would be zero numbers wide.
  if (statistics.length === 0) return { intervals: {}, cells: cells.length, coreMs: 0 };
  const layout = layOut(statistics, order, cells, options.calibrated === true, options.confidence);
  const started = clock();
  const B = options.iterations;
  const C = cells.length;
  const total = layout.width + layout.extras;
  const simd =
    options.simd === false
      ? null
      : createSum4(
          B,
          C,
          layout.tables.reduce((a, t) => a + t.count, 0),
          total,
        );
  const directCounts = new Map<number, Int32Array>();
  const picked = drawMultisets(
    layout.tables,
    B,
    createDraw(options.rng, options.seed),
    simd?.picked ?? new Int32Array(B * C),
    directCounts,
  );
  const columns = sumColumns(layout.tables, picked, total, B, simd);
  addDirectCells(layout.tables, directCounts, columns, total, B);
  const intervals = intervalsFrom(statistics, layout, columns, options);
  return { intervals, cells: cells.length, coreMs: clock() - started };
}

/** Values in sorted task order, defined patterns, combinations resolved, per-cell tables built. */
function layOut(
  statistics: readonly Statistic[],
  order: readonly number[],
  cells: readonly number[][],
  calibrated: boolean,
  confidence: number,
): Layout {
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
    const usable =
      depth < 8 && parts.length > 0 && parts.every(([j]) => j !== undefined && patternOf[j] === patternOf[i]);
    let result: Array<[number, number]>;
    if (usable)
      result = parts.flatMap(([j, w]) =>
        resolve(j as number, depth + 1).map(([r, x]): [number, number] => [r, x * w]),
      );
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
  for (let t = 0; t < T; t++)
    patterns.forEach((mask, p) => (taskRows[t * width + rows + p] = mask[t] as number));
  const points = sorted.map((v) => pointEstimate(v));
  const extra = calibrated
    ? (cell: readonly number[], counts: readonly number[]) => calibrationEntries(sorted, points, cell, counts)
    : undefined;
  const observed = calibrated
    ? sorted.map((values) => ({
        ...stratifiedSe(values, cells),
        skewT: skewTInterval(values, cells, confidence),
      }))
    : [];
  return {
    sorted,
    patternOf,
    terms: terms.map((t) => t ?? []),
    rows,
    width,
    extras: calibrated ? 2 * statistics.length : 0,
    tables: cells.map((cell) => cellTable(cell, taskRows, width, extra)),
    observed,
  };
}

/** Each statistic's replicates from its columns (dropped where no drawn task is defined), then its intervals. */
function intervalsFrom(
  statistics: readonly Statistic[],
  layout: Layout,
  columns: Float64Array,
  options: BootstrapOptions,
): Record<string, Interval> {
  const B = options.iterations;
  const alpha = (1 - options.confidence) / 2;
  const thetas = new Float64Array(B);
  const scratch = new Float64Array(B);
  const intervals: Record<string, Interval> = {};
  statistics.forEach((stat, i) => {
    const countBase = (layout.rows + (layout.patternOf[i] as number)) * B;
    replicates(layout.terms[i] ?? [], columns, countBase, B, thetas);
    let kept = 0;
    for (let it = 0; it < B; it++)
      if (!Number.isNaN(thetas[it] as number)) scratch[kept++] = thetas[it] as number;
    const point = pointEstimate(layout.sorted[i] as Array<number | null>);
    const base = { point, ...orderStatistics(scratch.subarray(0, kept), alpha) };
    intervals[stat.key] =
      layout.extras === 0
        ? base
        : { ...base, calibrated: calibrate(i, point, layout, columns, countBase, thetas, scratch, options) };
  });
  return intervals;
}
