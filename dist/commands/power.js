/** `fabench power`: from a pilot, the chance the gate's interval rule passes, now and with more tasks. */
import { inputError, usageError } from "../core/index.js";
import { METHODS, pilotDeltas, POWER_ASSUMPTION, simulatePower, tasksNeeded, } from "../metrics/index.js";
import { loadProtocol, readSummary } from "./inputs.js";
import { EXIT, printJson } from "./io.js";
import { progressReporter } from "./progress.js";
import { scoreRunFiles } from "./score.js";
import { requireMargin } from "./simulate.js";
/** Episode scores of the pilot, from a summary or by rescoring run files. */
async function pilotEpisodes(options, io) {
    if ((options.summary === undefined) === (options.runs.length === 0))
        throw usageError("pilot_source", "give the pilot as --runs FILE… or --summary FILE, exactly one of them");
    if (options.summary !== undefined) {
        const summary = readSummary(options.summary);
        return { episodes: summary.episode_scores, trials: summary.run.trials, source: options.summary };
    }
    const scored = await scoreRunFiles(options, io);
    return { episodes: scored.rows, trials: scored.metadata.trials, source: options.runs[0] };
}
/** `fabench power --runs FILE… | --summary FILE`: the chance the gate's interval rule passes, now and with more tasks. */
export async function power(options, io) {
    const protocol = loadProtocol(options.protocol).value;
    const method = (options.method ?? protocol.statistics.gate_interval);
    if (!METHODS.includes(method))
        throw usageError("bad_method", `--method takes ${METHODS.join(", ")}`);
    const condition = options.condition ?? protocol.conditions.find((c) => c.deployable)?.id ?? "";
    const { episodes, trials: pilotTrials, source } = await pilotEpisodes(options, io);
    const { deltas: pilot, noise } = pilotDeltas(episodes, protocol.baseline_condition, condition, options.metric);
    const trials = options.trials ?? [pilotTrials];
    if (pilot.length < 2)
        throw inputError("power", "no_pilot", `the pilot has fewer than two tasks with a ${options.metric} delta for ${condition}`, { file: source });
    const margin = options.margin ?? requireMargin(protocol, options.metric);
    const seed = options.seed ?? protocol.statistics.seed;
    const clock = () => performance.now();
    const rows = simulatePower({
        pilot,
        cells: protocol.expected_cell_count,
        tasksPerCell: options.tasksPerCell,
        trials,
        pilotTrials,
        pilotNoise: noise,
        trueDeltas: [0, -0.01],
        margin,
        method,
        datasets: options.datasets,
        iterations: options.iterations,
        seed,
        confidence: protocol.statistics.confidence_level,
    }, progressReporter(io, "power", clock));
    const needed = trials.map((t) => ({
        trials: t,
        at_zero: tasksNeeded(rows, 0, 0.8, t),
        at_minus_0_01: tasksNeeded(rows, -0.01, 0.8, t),
    }));
    const pilotSummary = {
        tasks: pilot.length,
        trials: pilotTrials,
        mean_delta: pilot.reduce((a, b) => a + b, 0) / pilot.length,
        trial_noise_variance: noise,
    };
    const out = {
        condition,
        metric: options.metric,
        method,
        margin,
        pilot: pilotSummary,
        assumption: POWER_ASSUMPTION,
        rows,
        tasks_per_cell_for_80_percent_power: needed,
    };
    if (options.json)
        printJson(io, out);
    else {
        const lines = [
            `power of "${method} lower bound ≥ −${margin}" for ${condition} ${options.metric} (${pilot.length} pilot tasks × ${pilotTrials} trial(s), mean delta ${pilotSummary.mean_delta.toFixed(4)})`,
            `assumption: ${POWER_ASSUMPTION}`,
            "tasks per cell   trials   true Δ   P(pass)",
        ];
        for (const r of rows)
            lines.push(`${String(r.tasks_per_cell).padStart(14)}   ${String(r.trials).padStart(6)}   ${r.true_delta.toFixed(3).padStart(6)}   ${r.pass_rate.toFixed(3)}`);
        const say = (n) => (n === null ? "not reached in these designs" : `${n} tasks per cell`);
        for (const n of needed)
            lines.push(`80 % power with ${n.trials} trial(s): at true Δ 0 ${say(n.at_zero)}; at −0.01 ${say(n.at_minus_0_01)}`);
        io.out(`${lines.join("\n")}\n`);
    }
    return EXIT.ok;
}
