/** Tables up to this many numbers are built; larger cells are summed per iteration instead. */
const TABLE_LIMIT = 250_000;
function multisetCount(n) {
    let count = 1;
    for (let k = 1; k <= n; k++)
        count = (count * (n - 1 + k)) / k; // C(2n−1, n)
    return Math.round(count);
}
/**
 * A cell's table: the summed rows of every multiset of its draws, computed once, so that an
 * iteration adds one precomputed row per cell. `extra` appends more numbers to each row (the
 * calibrated intervals' per-cell terms).
 */
export function cellTable(cell, taskRows, width, extra) {
    const size = cell.length;
    const rowWidth = width + (extra ? extra(cell, new Array(size).fill(0)).length : 0);
    const rowFor = (counts) => {
        const row = new Float64Array(rowWidth);
        counts.forEach((c, k) => {
            if (c === 0)
                return;
            const base = cell[k] * width;
            for (let x = 0; x < width; x++)
                row[x] = row[x] + c * taskRows[base + x];
        });
        if (extra)
            row.set(extra(cell, counts), width);
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
    const partials = [];
    const counts = new Array(size).fill(0);
    const visit = (j, left) => {
        if (j === size - 1) {
            counts[j] = left;
            let code = 0;
            const row = new Float64Array(width);
            counts.forEach((c, k) => {
                code += c * weights[k];
                const base = cell[k] * width;
                for (let x = 0; x < width; x++)
                    row[x] = row[x] + c * taskRows[base + x];
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
    return {
        size,
        count: partials.length / rowWidth,
        weights,
        offsetByCode,
        partials: Float64Array.from(partials),
    };
}
/**
 * The draws, in the rule's order (iteration, cell, slot): for each iteration and cell, the row of
 * the drawn multiset in the cells' concatenated tables.
 */
export function drawMultisets(tables, B, draw, picked, directCounts) {
    const C = tables.length;
    tables.forEach((t, c) => {
        if (t.direct)
            directCounts.set(c, new Int32Array(B * t.size));
    });
    let start = 0;
    const starts = tables.map((t) => {
        const at = start;
        start += t.count;
        return at;
    });
    for (let it = 0; it < B; it++)
        for (let c = 0; c < C; c++) {
            const table = tables[c];
            const size = table.size;
            const counts = directCounts.get(c);
            if (counts) {
                for (let slot = 0; slot < size; slot++) {
                    const at = it * size + draw(size);
                    counts[at] = counts[at] + 1;
                }
                picked[it * C + c] = starts[c]; // the cell's zero row; its sums are added afterwards
                continue;
            }
            let code = 0;
            for (let slot = 0; slot < size; slot++)
                code += table.weights[draw(size)];
            picked[it * C + c] = starts[c] + table.offsetByCode[code];
        }
    return picked;
}
/**
 * Every iteration's sum of every base column (a row's own sum, or a pattern's count), four
 * columns at a time: their per-cell multiset sums, interleaved, form a table small enough for the
 * fastest cache, and each iteration is a run of lookups into it. Column k of iteration it is at
 * columns[k·B + it].
 */
export function sumColumns(tables, picked, width, B, simd) {
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
                    lookup[at * LANES + j] = t.partials[m * width + k0 + j];
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
                const i = picked[row + c] * LANES;
                s0 += lookup[i];
                s1 += lookup[i + 1];
                s2 += lookup[i + 2];
                s3 += lookup[i + 3];
            }
            columns[k0 * B + it] = s0;
            if (k0 + 1 < width)
                columns[(k0 + 1) * B + it] = s1;
            if (k0 + 2 < width)
                columns[(k0 + 2) * B + it] = s2;
            if (k0 + 3 < width)
                columns[(k0 + 3) * B + it] = s3;
        }
    }
    return columns;
}
/** Adds, for cells too large to tabulate, each iteration's row computed from its drawn counts. */
export function addDirectCells(tables, directCounts, columns, width, B) {
    for (const [c, counts] of directCounts) {
        const table = tables[c];
        const size = table.size;
        for (let it = 0; it < B; it++) {
            const row = table.direct(Array.from(counts.subarray(it * size, (it + 1) * size)));
            for (let k = 0; k < width; k++)
                columns[k * B + it] = columns[k * B + it] + row[k];
        }
    }
}
/** θ* of every iteration (NaN when no drawn task is defined): up to four weighted columns over the count. */
export function replicates(parts, columns, countBase, B, out) {
    const column = (k) => (parts[k] ? parts[k][0] * B : 0);
    const weight = (k) => (parts[k] ? parts[k][1] : 0);
    const [c0, c1, c2, c3] = [column(0), column(1), column(2), column(3)];
    const [w0, w1, w2, w3] = [weight(0), weight(1), weight(2), weight(3)];
    if (parts.length === 1 && w0 === 1)
        for (let it = 0; it < B; it++) {
            const n = columns[countBase + it];
            out[it] = n === 0 ? Number.NaN : columns[c0 + it] / n;
        }
    else if (parts.length === 2)
        for (let it = 0; it < B; it++) {
            const n = columns[countBase + it];
            out[it] =
                n === 0 ? Number.NaN : (w0 * columns[c0 + it] + w1 * columns[c1 + it]) / n;
        }
    else if (parts.length <= 4)
        for (let it = 0; it < B; it++) {
            const n = columns[countBase + it];
            out[it] =
                n === 0
                    ? Number.NaN
                    : (w0 * columns[c0 + it] +
                        w1 * columns[c1 + it] +
                        w2 * columns[c2 + it] +
                        w3 * columns[c3 + it]) /
                        n;
        }
    else
        for (let it = 0; it < B; it++) {
            const n = columns[countBase + it];
            let sum = 0;
            for (const [r, w] of parts)
                sum += w * columns[r * B + it];
            out[it] = n === 0 ? Number.NaN : sum / n;
        }
}
