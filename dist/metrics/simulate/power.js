/**
 * Power of the gate's interval rule, by simulation from pilot data. Assumption, stated in every
 * output: the pilot's per-task paired deltas (shifted to each true mean tried) are the population;
 * tasks are drawn from it with replacement into the protocol's cells. Other trial counts follow a
 * random-effects model: a task's delta is its own true delta plus trial noise averaged over its
 * repeats, so with T trials instead of the pilot's T₀ each delta's deviation from the mean is
 * scaled by √((σ_b² + w·T₀/T) / (σ_b² + w)), where w is the pilot's trial-noise variance of
 * a delta (the spread of a task's trials within one catalog size) and σ_b² = max(0, var(deltas) − w). The shape of the pilot (its rare large losses) is
 * kept; at T = T₀ the pilot is used as it is.
 */
import seedrandom from "seedrandom";
import { bootstrap } from "../bootstrap/index.js";
export const POWER_ASSUMPTION = "the pilot's per-task paired deltas, shifted to each true mean, are the population; tasks are drawn with replacement into the protocol's cells; other trial counts rescale each task's deviation by a random-effects model (between-task variance, catalog effects included, plus trial noise within a task and catalog size ÷ trials)";
/** How much a task's deviation from the mean shrinks (or grows) with `trials` instead of the pilot's. */
export function trialScale(pilot, pilotNoise, pilotTrials, trials) {
    if (trials === pilotTrials || pilot.length < 2)
        return 1;
    const mean = pilot.reduce((a, b) => a + b, 0) / pilot.length;
    const variance = pilot.reduce((a, x) => a + (x - mean) ** 2, 0) / (pilot.length - 1);
    const between = Math.max(0, variance - pilotNoise);
    const now = between + pilotNoise;
    return now > 0 ? Math.sqrt((between + (pilotNoise * pilotTrials) / trials) / now) : 1;
}
export function simulatePower(options, progress) {
    const pilotMean = options.pilot.reduce((a, b) => a + b, 0) / Math.max(options.pilot.length, 1);
    const rows = [];
    const designs = options.tasksPerCell.flatMap((n) => options.trials.flatMap((trials) => options.trueDeltas.map((truth) => ({ n, trials, truth }))));
    for (const { n, trials, truth } of designs) {
        const scale = trialScale(options.pilot, options.pilotNoise, options.pilotTrials, trials);
        // The same draws for every trial count (common random numbers), so designs differ only by design.
        const rng = seedrandom.alea(`${options.seed}:${n}:${truth}`);
        const tasks = [];
        for (let c = 0; c < options.cells; c++)
            for (let t = 0; t < n; t++)
                tasks.push({
                    id: `c${String(c).padStart(4, "0")}t${String(t).padStart(4, "0")}`,
                    stratum: `c${c}`,
                    language: "x",
                });
        let passes = 0;
        for (let d = 0; d < options.datasets; d++) {
            const values = tasks.map(() => (options.pilot[Math.floor(rng() * options.pilot.length)] - pilotMean) * scale + truth);
            const interval = bootstrap(tasks, [{ key: "delta", values }], {
                iterations: options.iterations,
                seed: options.seed + d,
                rng: "seedrandom",
                confidence: options.confidence,
                calibrated: options.method !== "percentile",
            }).intervals["delta"];
            const low = options.method === "percentile" ? interval?.low : interval?.calibrated?.[options.method]?.low;
            if (low !== null && low !== undefined && low >= -options.margin)
                passes += 1;
        }
        rows.push({ tasks_per_cell: n, trials, true_delta: truth, pass_rate: passes / options.datasets });
        progress?.(rows.length, designs.length);
    }
    return rows;
}
/** The fewest tasks per cell reaching the power target at a true delta with `trials` trials, or null. */
export function tasksNeeded(rows, trueDelta, target, trials) {
    const hit = rows
        .filter((r) => r.true_delta === trueDelta && r.trials === trials && r.pass_rate >= target)
        .map((r) => r.tasks_per_cell);
    return hit.length === 0 ? null : Math.min(...hit);
}
