export const POOLED = "pooled";
export function perTaskValue(spec, condition, sizes, metric, task) {
    let sum = 0;
    let n = 0;
    for (const size of sizes)
        for (const v of spec.values(condition, size, metric, task) ?? [])
            if (v !== null) {
                sum += v;
                n += 1;
            }
    return n === 0 ? null : sum / n;
}
export function statisticKey(selection, condition, metric, kind) {
    return `${selection}|${condition}|${metric}|${kind}`;
}
/** Levels and deltas for the pooled selection and each catalog size. */
export function buildStatistics(spec) {
    const sizesAsc = [...spec.sizes].sort((a, b) => a - b);
    const selections = [
        [POOLED, sizesAsc],
        ...sizesAsc.map((s) => [String(s), [s]]),
    ];
    const out = [];
    for (const [selection, sizes] of selections) {
        const level = new Map();
        for (const condition of spec.conditions)
            for (const metric of spec.metrics) {
                const values = Array.from({ length: spec.taskCount }, (_, t) => perTaskValue(spec, condition, sizes, metric, t));
                level.set(`${condition}|${metric}`, values);
                const pooled = selection === POOLED && sizes.length > 1 && equallyWeighted(spec, condition, sizes, metric);
                out.push({
                    key: statisticKey(selection, condition, metric, "level"),
                    values,
                    ...(pooled
                        ? {
                            combination: sizes.map((s) => ({
                                key: statisticKey(String(s), condition, metric, "level"),
                                weight: 1 / sizes.length,
                            })),
                        }
                        : {}),
                });
            }
        for (const condition of spec.conditions) {
            if (condition === spec.baseline)
                continue;
            for (const metric of spec.metrics) {
                const a = level.get(`${condition}|${metric}`) ?? [];
                const b = level.get(`${spec.baseline}|${metric}`) ?? [];
                out.push({
                    key: statisticKey(selection, condition, metric, "delta"),
                    values: a.map((v, t) => v === null || b[t] === null || b[t] === undefined ? null : v - b[t]),
                    combination: [
                        { key: statisticKey(selection, condition, metric, "level"), weight: 1 },
                        { key: statisticKey(selection, spec.baseline, metric, "level"), weight: -1 },
                    ],
                });
            }
        }
    }
    return out;
}
/** Whether the pooled value of every task is the plain mean of its per-size values (same non-null counts). */
function equallyWeighted(spec, condition, sizes, metric) {
    for (let t = 0; t < spec.taskCount; t++) {
        const counts = sizes.map((s) => (spec.values(condition, s, metric, t) ?? []).filter((v) => v !== null).length);
        if (counts.some((c) => c !== counts[0]))
            return false;
    }
    return true;
}
