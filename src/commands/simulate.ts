/** `fabench simulate coverage`: how well each interval method covers the truth in this design. */
import { inputError, usageError } from "../core/index.ts";
import { BUILT_IN_SCENARIOS, METHODS, POWER_ASSUMPTION, scenarioFileSchema, simulatePower, simulateScenario, tasksNeeded, type CoverageStudy, type Method, type PowerReport, type Scenario, type ScenarioResult } from "../metrics/index.ts";
import type { Summary } from "../report/index.ts";
import { loadProtocol, loadWithSchema, readSummary } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";
import { scoreRunFiles } from "./score.ts";

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
  return [...BUILT_IN_SCENARIOS, ...loadWithSchema(path, "simulate", scenarioFileSchema, "invalid_scenarios").scenarios];
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
  const out: CoverageStudy = {
    design: { cells: design.cells, tasks_per_cell: design.tasksPerCell, repeats: design.repeats, margin, confidence: design.confidence, datasets: options.datasets, iterations: options.iterations, seed: options.seed },
    gate_interval: protocol.statistics.gate_interval,
    results,
  };
  if (options.json) printJson(io, out);
  else io.out(renderCoverage(out.results, margin));
  return EXIT.ok;
}

export function renderCoverage(results: readonly ScenarioResult[], margin: number): string {
  const lines = [`scenario               true Δ   method              coverage  below  above  unbounded  mean width  P(lower ≥ −${margin})`];
  for (const r of results)
    for (const m of METHODS) {
      const x = r.methods[m];
      lines.push(`${r.scenario.padEnd(22)} ${r.true_delta.toFixed(3).padStart(6)}   ${m.padEnd(18)} ${x.coverage.toFixed(3).padStart(8)} ${x.below.toFixed(3).padStart(6)} ${x.above.toFixed(3).padStart(6)} ${x.unbounded.toFixed(3).padStart(10)} ${x.mean_width.toFixed(4).padStart(11)} ${x.margin_pass_rate.toFixed(3).padStart(10)}`);
    }
  return `${lines.join("\n")}\n`;
}

export interface PowerCommandOptions {
  /** The pilot: run files (rescored here) or a summary, exactly one of the two. */
  readonly runs: readonly string[];
  readonly summary?: string;
  readonly corpus: string;
  readonly plan: string;
  readonly catalogs: string;
  readonly protocol: string;
  readonly condition?: string;
  readonly metric: string;
  readonly tasksPerCell: readonly number[];
  /** Trial counts to try (default: the pilot's). */
  readonly trials?: readonly number[];
  readonly margin?: number;
  readonly method?: string;
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
  readonly json: boolean;
}

/** Episode scores of the pilot, from a summary or by rescoring run files. */
async function pilotEpisodes(options: PowerCommandOptions, io: CliIo): Promise<{ episodes: readonly PilotEpisode[]; trials: number; source: string }> {
  if ((options.summary === undefined) === (options.runs.length === 0)) throw usageError("pilot_source", "give the pilot as --runs FILE… or --summary FILE, exactly one of them");
  if (options.summary !== undefined) {
    const summary = readSummary(options.summary);
    return { episodes: summary.episode_scores, trials: summary.run.trials, source: options.summary };
  }
  const scored = await scoreRunFiles(options, io);
  return { episodes: scored.rows, trials: scored.metadata.trials, source: options.runs[0] as string };
}

/** `fabench power --runs FILE… | --summary FILE`: the chance the gate's interval rule passes, now and with more tasks. */
export async function power(options: PowerCommandOptions, io: CliIo): Promise<number> {
  const protocol = loadProtocol(options.protocol).value;
  const method = (options.method ?? protocol.statistics.gate_interval) as Method;
  if (!(METHODS as readonly string[]).includes(method)) throw usageError("bad_method", `--method takes ${METHODS.join(", ")}`);
  const condition = options.condition ?? protocol.conditions.find((c) => c.deployable)?.id ?? "";
  const { episodes, trials: pilotTrials, source } = await pilotEpisodes(options, io);
  const { deltas: pilot, noise } = pilotDeltas(episodes, protocol.baseline_condition, condition, options.metric);
  const trials = options.trials ?? [pilotTrials];
  if (pilot.length < 2) throw inputError("power", "no_pilot", `the pilot has fewer than two tasks with a ${options.metric} delta for ${condition}`, { file: source });
  const margin = options.margin ?? 0.02;
  const clock = () => performance.now();
  const rows = simulatePower(
    { pilot, cells: protocol.expected_cell_count, tasksPerCell: options.tasksPerCell, trials, pilotTrials, pilotNoise: noise, trueDeltas: [0, -0.01], margin, method, datasets: options.datasets, iterations: options.iterations, seed: options.seed, confidence: protocol.statistics.confidence_level },
    progressReporter(io, "power", clock),
  );
  const needed = trials.map((t) => ({ trials: t, at_zero: tasksNeeded(rows, 0, 0.8, t), at_minus_0_01: tasksNeeded(rows, -0.01, 0.8, t) }));
  const pilotSummary = { tasks: pilot.length, trials: pilotTrials, mean_delta: pilot.reduce((a, b) => a + b, 0) / pilot.length, trial_noise_variance: noise };
  const out: PowerReport = { condition, metric: options.metric, method, margin, pilot: pilotSummary, assumption: POWER_ASSUMPTION, rows, tasks_per_cell_for_80_percent_power: needed };
  if (options.json) printJson(io, out);
  else {
    const lines = [
      `power of "${method} lower bound ≥ −${margin}" for ${condition} ${options.metric} (${pilot.length} pilot tasks × ${pilotTrials} trial(s), mean delta ${pilotSummary.mean_delta.toFixed(4)})`,
      `assumption: ${POWER_ASSUMPTION}`,
      "tasks per cell   trials   true Δ   P(pass)",
    ];
    for (const r of rows) lines.push(`${String(r.tasks_per_cell).padStart(14)}   ${String(r.trials).padStart(6)}   ${r.true_delta.toFixed(3).padStart(6)}   ${r.pass_rate.toFixed(3)}`);
    const say = (n: number | null) => (n === null ? "not reached in these designs" : `${n} tasks per cell`);
    for (const n of needed) lines.push(`80 % power with ${n.trials} trial(s): at true Δ 0 ${say(n.at_zero)}; at −0.01 ${say(n.at_minus_0_01)}`);
    io.out(`${lines.join("\n")}\n`);
  }
  return EXIT.ok;
}

type PilotEpisode = Pick<Summary["episode_scores"][number], "semantic_task_id" | "condition" | "catalog_size" | "metrics">;

/**
 * Per-task pooled paired deltas of one metric from episode scores, and the trial-noise variance of
 * one delta: Σ over the two conditions of (pooled variance of an episode within its task and
 * catalog size) ÷ (mean episodes per task). Repeats are grouped by catalog size first, so a task
 * that does worse on the larger catalog has a catalog effect — part of its own delta, which more
 * trials do not average away — not trial noise.
 */
function pilotDeltas(episodes: readonly PilotEpisode[], baseline: string, condition: string, metric: string): { deltas: number[]; noise: number } {
  // task → condition → catalog size → values
  const perTask = new Map<string, Map<string, Map<number, number[]>>>();
  for (const e of episodes) {
    const v = e.metrics[metric];
    if (v === null || v === undefined) continue;
    const byCondition = perTask.get(e.semantic_task_id) ?? new Map<string, Map<number, number[]>>();
    const bySize = byCondition.get(e.condition) ?? new Map<number, number[]>();
    bySize.set(e.catalog_size, [...(bySize.get(e.catalog_size) ?? []), v]);
    byCondition.set(e.condition, bySize);
    perTask.set(e.semantic_task_id, byCondition);
  }
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const all = (bySize: Map<number, number[]> | undefined) => (bySize ? [...bySize.values()].flat() : []);
  const mean = (xs: readonly number[]) => (xs.length > 0 ? sum(xs) / xs.length : null);
  const deltas: number[] = [];
  const paired: Array<Map<string, Map<number, number[]>>> = [];
  for (const byCondition of perTask.values()) {
    const a = mean(all(byCondition.get(condition)));
    const b = mean(all(byCondition.get(baseline)));
    if (a !== null && b !== null) {
      deltas.push(a - b);
      paired.push(byCondition);
    }
  }
  const noiseOf = (id: string) => {
    let squares = 0;
    let df = 0;
    let episodesSeen = 0;
    for (const byCondition of paired)
      for (const xs of (byCondition.get(id) as Map<number, number[]>).values()) {
        const m = mean(xs) as number;
        squares += sum(xs.map((x) => (x - m) ** 2));
        df += xs.length - 1;
        episodesSeen += xs.length;
      }
    return df > 0 ? squares / df / (episodesSeen / paired.length) : 0;
  };
  return { deltas, noise: paired.length > 0 ? noiseOf(condition) + noiseOf(baseline) : 0 };
}
