/**
 * The multiset tables: the machinery that turns the rule's draws into every statistic's replicates, fast.
 *
 * A cell of n tasks drawn n times has only C(2n−1, n) possible multisets (35 for n = 4), so each
 * cell's summed values and "defined" counts are tabulated once per multiset; an iteration is then
 * one lookup per cell, and its sums are gathered four base columns at a time from tables that fit
 * the fastest cache. Statistics share a few "defined" patterns, whose counts are columns too. A
 * paired delta (level − baseline) and a pooled level (the mean of equally sized catalog levels)
 * are formed from their parts' sums when all are defined on the same tasks. Sums are taken per
 * cell and per column, not in draw order, which changes results only in the last bits (≈1e-15 of
 * the values); the draws themselves follow the rule's order exactly. Cells too large to tabulate
 * are summed per iteration from their drawn counts instead.
 */
import type { Sum4 } from "./wasm.ts";

export interface CellTable {
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

/** Tables up to this many numbers are built; larger cells are summed per iteration instead. */
const TABLE_LIMIT = 250_000;

function multisetCount(n: number): number {
  let count = 1;
  for (let k = 1; k <= n; k++) count = (count * (n - 1 + k)) / k; // C(2n−1, n)
  return Math.round(count);
}

/**
 * A cell's table: the summed rows of every multiset of its draws, computed once, so that an
 * iteration adds one precomputed row per cell. `extra` appends more numbers to each row (the
 * calibrated intervals' per-cell terms).
 */
export function cellTable(
  cell: readonly number[],
  taskRows: Float64Array,
  width: number,
  extra?: (cell: readonly number[], counts: readonly number[]) => number[],
): CellTable {
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
    return {
      direct: rowFor,
      size,
      count: 1,
      weights: new Float64Array(0),
      offsetByCode: new Int32Array(0),
      partials: new Float64Array(rowWidth),
    };
  const weights = Float64Array.from(cell, (_, j) => (size + 1) ** j);
  const offsetByCode = new Int32Array((size + 1) ** size).fill(-1);
  // Every multiset is visited once: the table is written in place (spreading each row into an
  // array's push made a cell's table cost a lot of time and garbage, #35).
  const count = multisetCount(size);
  const partials = new Float64Array(count * rowWidth);
  let written = 0;
  const counts = new Array<number>(size).fill(0);
  const visit = (j: number, left: number) => {
    if (j === size - 1) {
      counts[j] = left;
      let code = 0;
      const at = written * rowWidth;
      for (let k = 0; k < size; k++) {
        const c = counts[k] as number;
        code += c * (weights[k] as number);
        const base = (cell[k] as number) * width;
        for (let x = 0; x < width; x++)
          partials[at + x] = (partials[at + x] as number) + c * (taskRows[base + x] as number);
      }
      if (extra) partials.set(extra(cell, counts), at + width);
      offsetByCode[code] = written++;
      return;
    }
    for (let c = left; c >= 0; c--) {
      counts[j] = c;
      visit(j + 1, left - c);
    }
  };
  visit(0, size);
  return { size, count, weights, offsetByCode, partials };
}

/**
 * The draws, in the rule's order (iteration, cell, slot): for each iteration and cell, the row of
 * the drawn multiset in the cells' concatenated tables.
 */
export function drawMultisets(
  tables: readonly CellTable[],
  B: number,
  draw: (n: number) => number,
  picked: Int32Array,
  directCounts: Map<number, Int32Array>,
): Int32Array {
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
export function sumColumns(
  tables: readonly CellTable[],
  picked: Int32Array,
  width: number,
  B: number,
  simd: Sum4 | null,
): Float64Array {
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
        for (let j = 0; j < LANES && k0 + j < width; j++)
          lookup[at * LANES + j] = t.partials[m * width + k0 + j] as number;
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
export function addDirectCells(
  tables: readonly CellTable[],
  directCounts: ReadonlyMap<number, Int32Array>,
  columns: Float64Array,
  width: number,
  B: number,
): void {
  for (const [c, counts] of directCounts) {
    const table = tables[c] as CellTable;
    const size = table.size;
    for (let it = 0; it < B; it++) {
      const row = (table.direct as (counts: readonly number[]) => Float64Array)(
        Array.from(counts.subarray(it * size, (it + 1) * size)),
      );
      for (let k = 0; k < width; k++)
        columns[k * B + it] = (columns[k * B + it] as number) + (row[k] as number);
    }
  }
}

/** θ* of every iteration (NaN when no drawn task is defined): up to four weighted columns over the count. */
export function replicates(
  parts: ReadonlyArray<readonly [number, number]>,
  columns: Float64Array,
  countBase: number,
  B: number,
  out: Float64Array,
): void {
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
      out[it] =
        n === 0 ? Number.NaN : (w0 * (columns[c0 + it] as number) + w1 * (columns[c1 + it] as number)) / n;
    }
  else if (parts.length <= 4)
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      out[it] =
        n === 0
          ? Number.NaN
          : (w0 * (columns[c0 + it] as number) +
              w1 * (columns[c1 + it] as number) +
              w2 * (columns[c2 + it] as number) +
              w3 * (columns[c3 + it] as number)) /
            n;
    }
  else
    for (let it = 0; it < B; it++) {
      const n = columns[countBase + it] as number;
      let sum = 0;
      for (const [r, w] of parts) sum += w * (columns[r * B + it] as number);
      out[it] = n === 0 ? Number.NaN : sum / n;
    }
}
