/**
 * `fabench simulate coverage`: how well each interval method covers the truth in this design, and
 * with `--select` / `--check-protocol`, which method the protocol's preregistered rule picks.
 */
import { requireMargin } from "../../authoring/index.ts";
import { inputError, loadWithSchema, usageError } from "../../core/index.ts";
import {
  protocolLine,
  renderCoverage,
  renderSelection,
  ruleDeviations,
  scenarioFileSchema,
  scenarioSet,
  selectMethod,
  simulateScenario,
  type CoverageStudy,
  type GateIntervalRule,
  type Design,
  type Scenario,
  type ScenarioResult,
  type Selection,
} from "../../metrics/simulate/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { progressReporter } from "../shell/progress.ts";
import { loadProtocol } from "../../world/index.ts";

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

/** The built-in scenarios and a file's, every name once, each re-centrable to −margin and 0. */
function loadScenarios(path: string | undefined, margin: number): { all: Scenario[]; fromFile: Set<string> } {
  const extra =
    path === undefined
      ? []
      : loadWithSchema(path, "simulate", scenarioFileSchema, "invalid_scenarios").scenarios;
  const { all, problems } = scenarioSet(extra, margin);
  if (problems.length > 0)
    throw inputError("simulate", problems[0]?.code ?? "invalid_scenarios", problems[0]?.message ?? "", {
      ...(path === undefined ? {} : { file: path }),
      problems: problems.map((p) => ({ ...p, ...(path ? { file: path } : {}) })),
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
  const scenarios = selecting ? ruleScenarios(all, rule, datasets, options.protocol) : all;
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
  return printSelection(out, { rule, fromFile, defaults, options }, io);
}

/** The scenarios the preregistered rule names, in its order; the rule needs at least its datasets. */
function ruleScenarios(
  all: readonly Scenario[],
  rule: GateIntervalRule,
  datasets: number,
  protocolPath: string,
): Scenario[] {
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
      { file: protocolPath },
    );
  return rule.scenarios.map((name) => byName.get(name) as Scenario);
}

/** `--select` / `--check-protocol`: the rule's pick from the study, said NOT preregistered when the run deviates from it. */
function printSelection(
  out: CoverageStudy,
  context: {
    rule: GateIntervalRule;
    fromFile: ReadonlySet<string>;
    defaults: { tasksPerCell: number; repeats: number };
    options: SimulateOptions;
  },
  io: CliIo,
): number {
  const { rule, fromFile, defaults, options } = context;
  const { datasets, iterations, seed, margin } = out.design;
  const deviations = ruleDeviations(
    rule,
    {
      datasets,
      iterations,
      seed,
      tasksPerCell: out.design.tasks_per_cell,
      repeats: out.design.repeats,
      fromFile: rule.scenarios.filter((s) => fromFile.has(s)),
    },
    defaults,
  );
  const picked = selectMethod(out.results, rule);
  const selection: Selection = {
    rule,
    preregistered: deviations.length === 0,
    deviations,
    methods: picked.methods,
    selected: picked.selected,
    reason: picked.reason,
    protocol_gate_interval: out.gate_interval,
    protocol_agrees: picked.selected === out.gate_interval,
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
