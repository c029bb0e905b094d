/** `fabench simulate coverage`: how well each interval method covers the truth in this design. */
import { gateMargin, type Protocol } from "../authoring/index.ts";
import { usageError } from "../core/index.ts";
import {
  BUILT_IN_SCENARIOS,
  METHODS,
  scenarioFileSchema,
  simulateScenario,
  type CoverageStudy,
  type Scenario,
  type ScenarioResult,
} from "../metrics/index.ts";
import { loadProtocol, loadWithSchema } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";

export interface SimulateOptions {
  readonly protocol: string;
  readonly scenarios?: string;
  readonly datasets: number;
  readonly iterations: number;
  /** Default: the protocol's bootstrap seed. */
  readonly seed?: number;
  readonly repeats?: number;
  readonly json: boolean;
}

/** The metric the coverage study's margin pass rate is about: the first gated delta. */
const PRIMARY_METRIC = "required_fact_recall";

export function requireMargin(protocol: Protocol, metric: string): number {
  const margin = gateMargin(protocol, metric);
  if (margin === null)
    throw usageError("no_margin", `the protocol has no "delta at least" check on ${metric}; give --margin`);
  return margin;
}

function loadScenarios(path: string | undefined): Scenario[] {
  if (path === undefined) return [...BUILT_IN_SCENARIOS];
  return [
    ...BUILT_IN_SCENARIOS,
    ...loadWithSchema(path, "simulate", scenarioFileSchema, "invalid_scenarios").scenarios,
  ];
}

export function simulateCoverage(options: SimulateOptions, io: CliIo): number {
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
  const results: ScenarioResult[] = scenarios.map((scenario, i) => {
    const report = progressReporter(
      io,
      `simulate ${scenario.name} (${i + 1}/${scenarios.length})`,
      clock,
      "datasets",
    );
    return simulateScenario(
      scenario,
      design,
      { datasets: options.datasets, iterations: options.iterations, seed },
      (done) => report(done, options.datasets),
    );
  });
  const out: CoverageStudy = {
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
  if (options.json) printJson(io, out);
  else io.out(renderCoverage(out.results, margin));
  return EXIT.ok;
}

export function renderCoverage(results: readonly ScenarioResult[], margin: number): string {
  const lines = [
    `scenario               true Δ   method              coverage  below  above  unbounded  mean width  P(lower ≥ −${margin})`,
  ];
  for (const r of results)
    for (const m of METHODS) {
      const x = r.methods[m];
      lines.push(
        `${r.scenario.padEnd(22)} ${r.true_delta.toFixed(3).padStart(6)}   ${m.padEnd(18)} ${x.coverage.toFixed(3).padStart(8)} ${x.below.toFixed(3).padStart(6)} ${x.above.toFixed(3).padStart(6)} ${x.unbounded.toFixed(3).padStart(10)} ${x.mean_width.toFixed(4).padStart(11)} ${x.margin_pass_rate.toFixed(3).padStart(10)}`,
      );
    }
  return `${lines.join("\n")}\n`;
}
