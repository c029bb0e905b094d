/**
 * `fabench simulate coverage`: how well each interval method covers the truth in this design, and
 * with `--select` / `--check-protocol`, which method the protocol's preregistered rule picks.
 */
import { gateMargin, type Protocol } from "../authoring/index.ts";
import { inputError, loadWithSchema, usageError } from "../core/index.ts";
import {
  BUILT_IN_SCENARIOS,
  protocolLine,
  recentringProblems,
  renderCoverage,
  renderSelection,
  ruleDeviations,
  scenarioFileSchema,
  selectMethod,
  simulateScenario,
  type CoverageStudy,
  type Design,
  type Scenario,
  type ScenarioResult,
  type Selection,
} from "../metrics/simulate/index.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";
import { loadProtocol } from "../world/index.ts";

export interface SimulateOptions {
  readonly protocol: string;
  readonly scenarios?: string;
  /** Default: 1000; with --select, the rule's min_datasets (and never fewer). */
  readonly datasets?: number;
  /** Default: 1000; with --select, the rule's. */
  readonly iterations?: number;
  /** Default: the protocol's bootstrap seed; with --select, the rule's. */
  readonly seed?: number;
  readonly repeats?: number;
  /** Default: the protocol's tasks_per_cell. */
  readonly tasksPerCell?: number;
  readonly select?: boolean;
  readonly checkProtocol?: boolean;
  readonly json: boolean;
}

/** The metric the coverage study's margin pass rate is about: the first gated delta. */
const PRIMARY_METRIC = "required_fact_recall";
const DEFAULT_DATASETS = 1000;
const DEFAULT_ITERATIONS = 1000;

export function requireMargin(protocol: Protocol, metric: string): number {
  const margin = gateMargin(protocol, metric);
  if (margin === null)
    throw usageError("no_margin", `the protocol has no "delta at least" check on ${metric}; give --margin`);
  return margin;
}

/** The built-in scenarios and a file's, every name once, each re-centrable to −margin and 0. */
function loadScenarios(path: string | undefined, margin: number): { all: Scenario[]; fromFile: Set<string> } {
  const extra =
    path === undefined
      ? []
      : loadWithSchema(path, "simulate", scenarioFileSchema, "invalid_scenarios").scenarios;
  const all = [...BUILT_IN_SCENARIOS, ...extra];
  const seen = new Set<string>();
  const problems = all.flatMap((s) => {
    if (!seen.has(s.name)) {
      seen.add(s.name);
      return [];
    }
    return [
      { code: "duplicate_scenario", message: `scenario ${s.name} is defined more than once`, file: path },
    ];
  });
  for (const message of recentringProblems(extra, [-margin, 0]))
    problems.push({ code: "scenario_not_recentrable", message, file: path });
  if (problems.length > 0)
    throw inputError("simulate", problems[0]?.code ?? "invalid_scenarios", problems[0]?.message ?? "", {
      ...(path === undefined ? {} : { file: path }),
      problems: problems.map((p) => ({ code: p.code, message: p.message, ...(path ? { file: path } : {}) })),
    });
  return { all, fromFile: new Set(extra.map((s) => s.name)) };
}

export function simulateCoverage(options: SimulateOptions, io: CliIo): number {
  const protocol = loadProtocol(options.protocol).value;
  const margin = requireMargin(protocol, PRIMARY_METRIC);
  const { all, fromFile } = loadScenarios(options.scenarios, margin);
  const selecting = options.select === true || options.checkProtocol === true;
  const rule = protocol.statistics.gate_interval_rule;
  const defaults = {
    tasksPerCell: protocol.tasks_per_cell,
    repeats: protocol.catalog_sizes.length * 3,
  };
  const design: Design = {
    cells: protocol.expected_cell_count,
    strata: protocol.answer_task_strata.length,
    tasksPerCell: options.tasksPerCell ?? defaults.tasksPerCell,
    repeats: options.repeats ?? defaults.repeats,
    margin,
    confidence: protocol.statistics.confidence_level,
  };
  const datasets = options.datasets ?? (selecting ? rule.min_datasets : DEFAULT_DATASETS);
  const iterations = options.iterations ?? (selecting ? rule.iterations : DEFAULT_ITERATIONS);
  const seed = options.seed ?? (selecting ? rule.seed : protocol.statistics.seed);
  let scenarios = all;
  if (selecting) {
    if (datasets < rule.min_datasets)
      throw usageError(
        "too_few_datasets",
        `--select needs at least the rule's ${rule.min_datasets} datasets per scenario (statistics.gate_interval_rule.min_datasets), not ${datasets}`,
      );
    const byName = new Map(all.map((s) => [s.name, s]));
    const unknown = rule.scenarios.filter((name) => !byName.has(name));
    if (unknown.length > 0)
      throw inputError(
        "simulate",
        "unknown_rule_scenario",
        `statistics.gate_interval_rule names scenarios that are neither built in nor in --scenarios: ${unknown.join(", ")}`,
        { file: options.protocol },
      );
    scenarios = rule.scenarios.map((name) => byName.get(name) as Scenario);
  }
  const results = run(scenarios, design, { datasets, iterations, seed }, io);
  const out: CoverageStudy = {
    design: {
      cells: design.cells,
      tasks_per_cell: design.tasksPerCell,
      strata: design.strata,
      repeats: design.repeats,
      margin,
      confidence: design.confidence,
      datasets,
      iterations,
      seed,
    },
    gate_interval: protocol.statistics.gate_interval,
    results,
  };
  if (!selecting) {
    if (options.json) printJson(io, out);
    else io.out(renderCoverage(results, margin));
    return EXIT.ok;
  }
  const deviations = ruleDeviations(
    rule,
    {
      datasets,
      iterations,
      seed,
      tasksPerCell: design.tasksPerCell,
      repeats: design.repeats,
      fromFile: rule.scenarios.filter((s) => fromFile.has(s)),
    },
    defaults,
  );
  const picked = selectMethod(results, rule);
  const selection: Selection = {
    rule,
    preregistered: deviations.length === 0,
    deviations,
    methods: picked.methods,
    selected: picked.selected,
    reason: picked.reason,
    protocol_gate_interval: protocol.statistics.gate_interval,
    protocol_agrees: picked.selected === protocol.statistics.gate_interval,
  };
  if (deviations.length > 0)
    io.err(`warning: this run is NOT the rule's preregistered configuration: ${deviations.join("; ")}\n`);
  if (options.json) printJson(io, { ...out, selection });
  else if (options.checkProtocol !== true)
    io.out(renderSelection(selection, { datasets, iterations, seed, margin }));
  if (options.checkProtocol === true) (options.json ? io.err : io.out)(`${protocolLine(selection)}\n`);
  return options.checkProtocol === true && !selection.protocol_agrees ? EXIT.failed : EXIT.ok;
}

function run(
  scenarios: readonly Scenario[],
  design: Design,
  options: { datasets: number; iterations: number; seed: number },
  io: CliIo,
): ScenarioResult[] {
  const clock = () => performance.now();
  return scenarios.map((scenario, i) => {
    const report = progressReporter(
      io,
      `simulate ${scenario.name} (${i + 1}/${scenarios.length})`,
      clock,
      "datasets",
    );
    return simulateScenario(scenario, design, options, (done) => report(done, options.datasets));
  });
}
