/** Aggregates of scored episodes: per condition × catalog size and pooled, plus breakdowns. */
import { compareCodePoints } from "../core/index.js";
import { SUMMED_METRICS } from "./scored-records.js";
import { POOLED } from "./bootstrap/index.js";
export function aggregate(rows, conditions, sizes) {
    const out = {};
    const selections = [
        [POOLED, sizes],
        ...sizes.map((s) => [String(s), [s]]),
    ];
    for (const [selection, chosen] of selections) {
        out[selection] = {};
        for (const condition of conditions) {
            const mine = rows.filter((r) => r.condition === condition && chosen.includes(r.catalog_size));
            out[selection][condition] = aggregateRows(mine);
        }
    }
    return out;
}
function aggregateRows(rows) {
    const names = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
    const means = {};
    for (const name of names) {
        let sum = 0;
        let n = 0;
        for (const r of rows) {
            const v = r.metrics[name];
            if (v !== null && v !== undefined) {
                sum += v;
                n += 1;
            }
        }
        means[name] = n === 0 ? null : sum / n;
    }
    const totals = {};
    for (const name of SUMMED_METRICS)
        totals[name] = rows.reduce((a, r) => a + (r.metrics[name] ?? 0), 0);
    return {
        episodes: rows.length,
        means,
        totals,
        malformed_reasons: histogram(rows.map((r) => r.malformed_reason)),
        infrastructure_errors: histogram(rows.map((r) => r.error_code)),
    };
}
function histogram(values) {
    const counts = new Map();
    for (const v of values)
        if (v !== null)
            counts.set(v, (counts.get(v) ?? 0) + 1);
    return Object.fromEntries([...counts].sort(([a], [b]) => compareCodePoints(a, b)));
}
/**
 * Levels and paired deltas by language and by stratum (diagnostics: the gate reads the whole
 * benchmark). `perTask(condition, metric, task)` is the pooled per-task value; `intervalsFor`
 * bootstraps one group's paired deltas (keys `condition|metric`).
 */
export function breakdowns(taskIds, groupOf, conditions, baseline, metrics, perTask, intervalMetrics, intervalsFor) {
    const group = (key) => {
        const groups = new Map();
        taskIds.forEach((id, i) => {
            const g = groupOf(id)[key];
            groups.set(g, [...(groups.get(g) ?? []), i]);
        });
        const out = {};
        const mean = (values) => {
            const defined = values.filter((v) => v !== null);
            return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
        };
        const compared = conditions.filter((c) => c !== baseline);
        for (const [name, members] of groups) {
            // Per task of this group: the paired delta against the baseline (null unless both are defined).
            const paired = (condition, m) => members.map((t) => {
                const a = perTask(condition, m, t);
                const b = perTask(baseline, m, t);
                return a === null || b === null ? null : a - b;
            });
            const levels = Object.fromEntries(conditions.map((c) => [
                c,
                Object.fromEntries(metrics.map((m) => [m, mean(members.map((t) => perTask(c, m, t)))])),
            ]));
            const deltas = Object.fromEntries(compared.map((c) => [c, Object.fromEntries(metrics.map((m) => [m, mean(paired(c, m))]))]));
            const intervals = intervalsFor(members, compared.flatMap((c) => intervalMetrics.map((m) => ({ key: `${c}|${m}`, values: paired(c, m) }))));
            const delta_intervals = Object.fromEntries(compared.map((c) => [
                c,
                Object.fromEntries(intervalMetrics.map((m) => [m, intervals[`${c}|${m}`]])),
            ]));
            out[name] = { tasks: members.length, levels, deltas, delta_intervals };
        }
        return out;
    };
    return { by_language: group("language"), by_stratum: group("stratum") };
}
