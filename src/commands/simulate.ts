/** `fabench simulate coverage`: how well each interval method covers the truth in this design. */
import { FabenchError, parseJsonText, zodProblems } from "../core/index.ts";
import { BUILT_IN_SCENARIOS, METHODS, scenarioFileSchema, simulateScenario, type Scenario, type ScenarioResult } from "../metrics/index.ts";
import { loadProtocol, readTextFile } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";

export interface SimulateOptions {
  readonly protocol: string;
  readonly scenarios?: string;
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
  readonly repeats?: number;
  readonly json: boolean;
}

function loadScenarios(path: string | undefined): Scenario[] {
  if (path === undefined) return [...BUILT_IN_SCENARIOS];
  const parsed = scenarioFileSchema.safeParse(parseJsonText(readTextFile(path, "simulate").text, path, "simulate"));
  if (!parsed.success) {
    const problems = zodProblems(parsed.error, "invalid_scenarios", path);
    throw new FabenchError({ kind: "input", stage: "simulate", code: "invalid_scenarios", message: "", problems });
  }
  return [...BUILT_IN_SCENARIOS, ...parsed.data.scenarios];
}

export function simulateCoverage(options: SimulateOptions, io: CliIo): number {
  const protocol = loadProtocol(options.protocol).value;
  const scenarios = loadScenarios(options.scenarios);
  const margin = -(protocol.gate.checks.find((c) => c.id === "fact_recall")?.threshold ?? -0.02);
  const design = {
    cells: protocol.expected_cell_count,
    tasksPerCell: protocol.tasks_per_cell,
    repeats: options.repeats ?? protocol.catalog_sizes.length * 3,
    margin,
    confidence: protocol.statistics.confidence_level,
  };
  const clock = () => performance.now();
  const results: ScenarioResult[] = scenarios.map((scenario, i) => {
    const report = progressReporter(io, `simulate ${scenario.name} (${i + 1}/${scenarios.length})`, clock);
    return simulateScenario(scenario, design, { datasets: options.datasets, iterations: options.iterations, seed: options.seed }, (done) => report(done, options.datasets));
  });
  const out = { design: { ...design, datasets: options.datasets, iterations: options.iterations, seed: options.seed }, gate_interval: protocol.statistics.gate_interval, results };
  if (options.json) printJson(io, out);
  else io.out(renderCoverage(out.results, margin));
  return EXIT.ok;
}

export function renderCoverage(results: readonly ScenarioResult[], margin: number): string {
  const lines = [`scenario               true Δ   method              coverage  below  above  mean width  P(lower ≥ −${margin})`];
  for (const r of results)
    for (const m of METHODS) {
      const x = r.methods[m];
      lines.push(`${r.scenario.padEnd(22)} ${r.true_delta.toFixed(3).padStart(6)}   ${m.padEnd(18)} ${x.coverage.toFixed(3).padStart(8)} ${x.below.toFixed(3).padStart(6)} ${x.above.toFixed(3).padStart(6)} ${x.mean_width.toFixed(4).padStart(11)} ${x.margin_pass_rate.toFixed(3).padStart(10)}`);
    }
  return `${lines.join("\n")}\n`;
}
