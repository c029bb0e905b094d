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
import { compareCodePoints, createDraw } from "../../core/index.js";
import { calibrate, calibrationEntries, stratifiedSe } from "./calibration.js";
import { addDirectCells, cellTable, drawMultisets, replicates, sumColumns, } from "./multiset-tables.js";
import { orderStatistics } from "./order-statistics.js";
import { createSum4 } from "./wasm.js";
function prepare(tasks) {
    const order = tasks
        .map((_, i) => i)
        .sort((a, b) => compareCodePoints(tasks[a].id, tasks[b].id));
    const cellIndex = new Map();
    const cells = [];
    order.forEach((original, position) => {
        const t = tasks[original];
        const key = `${t.stratum}\u0000${t.language}`;
        let c = cellIndex.get(key);
        if (c === undefined) {
            c = cells.length;
            cellIndex.set(key, c);
            cells.push([]);
        }
        cells[c].push(position);
    });
    return { order, cells };
}
export function bootstrap(tasks, statistics, options, clock = () => 0) {
    const { order, cells } = prepare(tasks);
    const layout = layOut(statistics, order, cells, options.calibrated === true);
    const started = clock();
    const B = options.iterations;
    const C = cells.length;
    const total = layout.width + layout.extras;
    const simd = options.simd === false
        ? null
        : createSum4(B, C, layout.tables.reduce((a, t) => a + t.count, 0), total);
    const directCounts = new Map();
    const picked = drawMultisets(layout.tables, B, createDraw(options.rng, options.seed), simd?.picked ?? new Int32Array(B * C), directCounts);
    const columns = sumColumns(layout.tables, picked, total, B, simd);
    addDirectCells(layout.tables, directCounts, columns, total, B);
    const intervals = intervalsFrom(statistics, layout, columns, options);
    return { intervals, cells: cells.length, coreMs: clock() - started };
}
/** Values in sorted task order, defined patterns, combinations resolved, per-cell tables built. */
function layOut(statistics, order, cells, calibrated) {
    const T = order.length;
    const sorted = statistics.map((s) => order.map((i) => s.values[i] ?? null));
    const patternIds = new Map();
    const patterns = [];
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
    const terms = statistics.map(() => null);
    const rowOf = new Int32Array(statistics.length).fill(-1);
    let rows = 0;
    const resolve = (i, depth = 0) => {
        const known = terms[i];
        if (known)
            return known;
        const parts = statistics[i]?.combination?.map((c) => [keyIndex.get(c.key), c.weight]) ?? [];
        const usable = depth < 8 && parts.length > 0 && parts.every(([j]) => j !== undefined && patternOf[j] === patternOf[i]);
        let result;
        if (usable)
            result = parts.flatMap(([j, w]) => resolve(j, depth + 1).map(([r, x]) => [r, x * w]));
        else {
            rowOf[i] = rows++;
            result = [[rowOf[i], 1]];
        }
        terms[i] = result;
        return result;
    };
    statistics.forEach((_, i) => resolve(i));
    const width = rows + patterns.length; // per task: its values, then its 0/1 membership of each pattern
    const taskRows = new Float64Array(T * width);
    statistics.forEach((_, i) => {
        const r = rowOf[i];
        if (r >= 0)
            sorted[i].forEach((v, t) => (taskRows[t * width + r] = v ?? 0));
    });
    for (let t = 0; t < T; t++)
        patterns.forEach((mask, p) => (taskRows[t * width + rows + p] = mask[t]));
    const points = sorted.map((v) => pointEstimate(v));
    const extra = calibrated
        ? (cell, counts) => calibrationEntries(sorted, points, cell, counts)
        : undefined;
    const observed = calibrated ? sorted.map((values) => stratifiedSe(values, cells)) : [];
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
function intervalsFrom(statistics, layout, columns, options) {
    const B = options.iterations;
    const alpha = (1 - options.confidence) / 2;
    const thetas = new Float64Array(B);
    const scratch = new Float64Array(B);
    const intervals = {};
    statistics.forEach((stat, i) => {
        const countBase = (layout.rows + layout.patternOf[i]) * B;
        replicates(layout.terms[i] ?? [], columns, countBase, B, thetas);
        let kept = 0;
        for (let it = 0; it < B; it++)
            if (!Number.isNaN(thetas[it]))
                scratch[kept++] = thetas[it];
        const point = pointEstimate(layout.sorted[i]);
        const base = { point, ...orderStatistics(scratch.subarray(0, kept), alpha) };
        intervals[stat.key] =
            layout.extras === 0
                ? base
                : { ...base, calibrated: calibrate(i, point, layout, columns, countBase, thetas, scratch, options) };
    });
    return intervals;
}
/** Mean over all tasks of the defined values, summed in id order (null when none is defined). */
export function pointEstimate(values) {
    let sum = 0;
    let n = 0;
    for (const v of values)
        if (v !== null) {
            sum += v;
            n += 1;
        }
    return n === 0 ? null : sum / n;
}
