/** `fabench simulate coverage`: how well each interval method covers the truth in this design. */
import { gateMargin } from "../authoring/index.js";
import { usageError } from "../core/index.js";
import { BUILT_IN_SCENARIOS, METHODS, scenarioFileSchema, simulateScenario, } from "../metrics/index.js";
import { loadProtocol, loadWithSchema } from "./inputs.js";
import { EXIT, printJson } from "./io.js";
import { progressReporter } from "./progress.js";
/** The metric the coverage study's margin pass rate is about: the first gated delta. */
const PRIMARY_METRIC = "required_fact_recall";
export function requireMargin(protocol, metric) {
    const margin = gateMargin(protocol, metric);
    if (margin === null)
        throw usageError("no_margin", `the protocol has no "delta at least" check on ${metric}; give --margin`);
    return margin;
}
function loadScenarios(path) {
    if (path === undefined)
        return [...BUILT_IN_SCENARIOS];
    return [
        ...BUILT_IN_SCENARIOS,
        ...loadWithSchema(path, "simulate", scenarioFileSchema, "invalid_scenarios").scenarios,
    ];
}
export function simulateCoverage(options, io) {
    const protocol = loadProtocol(options.protocol).value;
    const scenarios = loadScenarios(options.scenarios);
    const margin = requireMargin(protocol, PRIMARY_METRIC);
    const seed = options.seed ?? protocol.statistics.seed;
    const design = {
        cells: protocol.expected_cell_count,
        tasksPerCell: protocol.tasks_per_cell,
        repeats: options.repeats ?? protocol.catalog_sizes.length * 3,
        margin,
        confidence: protocol.statistics.confidence_level,
    };
    const clock = () => performance.now();
    const results = scenarios.map((scenario, i) => {
        const report = progressReporter(io, `simulate ${scenario.name} (${i + 1}/${scenarios.length})`, clock);
        return simulateScenario(scenario, design, { datasets: options.datasets, iterations: options.iterations, seed }, (done) => report(done, options.datasets));
    });
    const out = {
        design: {
            cells: design.cells,
            tasks_per_cell: design.tasksPerCell,
            repeats: design.repeats,
            margin,
            confidence: design.confidence,
            datasets: options.datasets,
            iterations: options.iterations,
            seed,
        },
        gate_interval: protocol.statistics.gate_interval,
        results,
    };
    if (options.json)
        printJson(io, out);
    else
        io.out(renderCoverage(out.results, margin));
    return EXIT.ok;
}
export function renderCoverage(results, margin) {
    const lines = [
        `scenario               true Δ   method              coverage  below  above  unbounded  mean width  P(lower ≥ −${margin})`,
    ];
    for (const r of results)
        for (const m of METHODS) {
            const x = r.methods[m];
            lines.push(`${r.scenario.padEnd(22)} ${r.true_delta.toFixed(3).padStart(6)}   ${m.padEnd(18)} ${x.coverage.toFixed(3).padStart(8)} ${x.below.toFixed(3).padStart(6)} ${x.above.toFixed(3).padStart(6)} ${x.unbounded.toFixed(3).padStart(10)} ${x.mean_width.toFixed(4).padStart(11)} ${x.margin_pass_rate.toFixed(3).padStart(10)}`);
        }
    return `${lines.join("\n")}\n`;
}
