/**
 * The coverage simulator: draw datasets of the protocol's shape from each scenario, compute every
 * interval method on the dataset's mean paired delta, and count how often each covers the truth,
 * lies wholly below or above it, how wide it is, and how often the gate's rule "lower bound ≥
 * −margin" would pass. Deterministic for a seed.
 */
import seedrandom from "seedrandom";
import { bootstrap } from "../bootstrap/index.js";
import { METHODS } from "./schema.js";
function normal(rng) {
    let u = 0;
    while (u === 0)
        u = rng();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}
/** One dataset's per-task deltas; cell effects are part of the super-population (fixed per scenario, centred). */
export function drawDataset(scenario, design, cellEffects, rng) {
    const base = scenario.true_delta + scenario.miss_rate * scenario.miss_loss - scenario.gain_rate * scenario.gain;
    const deltas = [];
    for (let c = 0; c < design.cells; c++)
        for (let t = 0; t < design.tasksPerCell; t++) {
            let noise = 0;
            for (let r = 0; r < design.repeats; r++)
                noise += normal(rng) * scenario.noise_sd;
            const missed = rng() < scenario.miss_rate ? scenario.miss_loss : 0;
            const gained = rng() < scenario.gain_rate ? scenario.gain : 0;
            deltas.push(base +
                (cellEffects[c] ?? 0) +
                normal(rng) * scenario.task_sd +
                noise / design.repeats -
                missed +
                gained);
        }
    return deltas;
}
export function simulateScenario(scenario, design, options, progress) {
    const rng = seedrandom.alea(`${options.seed}:${scenario.name}`);
    const raw = Array.from({ length: design.cells }, () => normal(rng) * scenario.cell_sd);
    const mean = raw.reduce((a, b) => a + b, 0) / Math.max(raw.length, 1);
    const cellEffects = raw.map((v) => v - mean);
    const tasks = [];
    for (let c = 0; c < design.cells; c++)
        for (let t = 0; t < design.tasksPerCell; t++)
            tasks.push({
                id: `c${String(c).padStart(4, "0")}t${String(t).padStart(4, "0")}`,
                stratum: `c${c}`,
                language: "x",
            });
    const tally = Object.fromEntries(METHODS.map((m) => [
        m,
        { coverage: 0, below: 0, above: 0, mean_width: 0, margin_pass_rate: 0, unbounded: 0, undefined: 0 },
    ]));
    for (let d = 0; d < options.datasets; d++) {
        const values = drawDataset(scenario, design, cellEffects, rng);
        const interval = bootstrap(tasks, [{ key: "delta", values }], {
            iterations: options.iterations,
            seed: options.seed + d,
            rng: "seedrandom",
            confidence: design.confidence,
            calibrated: true,
        }).intervals["delta"];
        for (const method of METHODS) {
            const bounds = method === "percentile" ? interval : interval?.calibrated?.[method];
            // A null bootstrap-t bound with infinite replicates is unbounded on that side, not undefined.
            const open = method === "bootstrap_t" && (interval?.calibrated?.bootstrap_t.infinite ?? 0) > 0;
            const low = bounds?.low ?? (open ? -Infinity : null);
            const high = bounds?.high ?? (open ? Infinity : null);
            const t = tally[method];
            if (low === null || high === null) {
                t.undefined += 1;
                continue;
            }
            if (low <= scenario.true_delta && scenario.true_delta <= high)
                t.coverage += 1;
            else if (high < scenario.true_delta)
                t.below += 1;
            else
                t.above += 1;
            if (Number.isFinite(high - low))
                t.mean_width += high - low;
            else
                t.unbounded += 1;
            if (low >= -design.margin)
                t.margin_pass_rate += 1;
        }
        progress?.(d + 1);
    }
    for (const method of METHODS) {
        const t = tally[method];
        const n = options.datasets - t.undefined;
        // Mean width over the bounded intervals only.
        t.mean_width = n - t.unbounded > 0 ? t.mean_width / (n - t.unbounded) : 0;
        for (const key of ["coverage", "below", "above", "margin_pass_rate", "unbounded"])
            t[key] = n > 0 ? t[key] / n : 0;
    }
    return {
        scenario: scenario.name,
        true_delta: scenario.true_delta,
        datasets: options.datasets,
        methods: tally,
    };
}
