/**
 * `fabench power`: from a pilot, the chance the gate's interval rule passes, now and with more
 * tasks — for every interval method side by side, `--method` (default: the gate's) highlighted.
 */
import { metricNamed, requireMargin } from "../../authoring/index.ts";
import { inputError, usageError } from "../../core/index.ts";
import {
  METHODS,
  pilotDeltas,
  powerReport,
  simulatePower,
  type Method,
  type PilotEpisode,
  type PowerReport,
} from "../../metrics/index.ts";
import { readSummary } from "../shell/inputs.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { progressReporter } from "../shell/progress.ts";
import { scoreRunFiles } from "../scoring/score.ts";
import { loadProtocol } from "../../world/index.ts";

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
  /** Default: the protocol's bootstrap seed. */
  readonly seed?: number;
  readonly json: boolean;
  /** `--allow-live-file`: rescore a snapshot of a run file a live writer holds. */
  readonly allowLiveFile?: boolean;
}

/** Episode scores of the pilot, from a summary or by rescoring run files. */
async function pilotEpisodes(
  options: PowerCommandOptions,
  io: CliIo,
): Promise<{ episodes: readonly PilotEpisode[]; trials: number; source: string }> {
  if ((options.summary === undefined) === (options.runs.length === 0))
    throw usageError("pilot_source", "give the pilot as --runs FILE… or --summary FILE, exactly one of them");
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
  if (!(METHODS as readonly string[]).includes(method))
    throw usageError("bad_method", `--method takes ${METHODS.join(", ")}`);
  const condition = options.condition ?? protocol.conditions.find((c) => c.deployable)?.id ?? "";
  const named = metricNamed(protocol, options.metric);
  if (named === null)
    throw usageError(
      "unknown_metric",
      `--metric ${options.metric} is not a metric of the protocol; one of ${protocol.metrics.join(", ")}`,
    );
  if (named.checkId)
    io.err(
      `warning: ${options.metric} is a gate check's name; its metric is ${named.metric} — use that name\n`,
    );
  const metric = named.metric;
  const { episodes, trials: pilotTrials, source } = await pilotEpisodes(options, io);
  const { deltas: pilot, noise } = pilotDeltas(episodes, protocol.baseline_condition, condition, metric);
  const trials = options.trials ?? [pilotTrials];
  if (pilot.length < 2)
    throw inputError(
      "power",
      "no_pilot",
      `the pilot has fewer than two tasks with a ${metric} delta for ${condition}`,
      { file: source },
    );
  const margin = options.margin ?? requireMargin(protocol, metric);
  const seed = options.seed ?? protocol.statistics.seed;
  const clock = () => performance.now();
  const rows = simulatePower(
    {
      pilot,
      cells: protocol.expected_cell_count,
      tasksPerCell: options.tasksPerCell,
      trials,
      pilotTrials,
      pilotNoise: noise,
      trueDeltas: [0, -0.01],
      margin,
      datasets: options.datasets,
      iterations: options.iterations,
      seed,
      confidence: protocol.statistics.confidence_level,
    },
    // What power counts is designs (tasks per cell × trials × true Δ).
    progressReporter(io, "power", clock, "designs"),
  );
  const out = powerReport({ condition, metric, method, margin, pilot, pilotTrials, noise, trials, rows });
  if (options.json) printJson(io, out);
  else io.out(renderPower(out));
  return EXIT.ok;
}

/** Every method's pass rates side by side, the highlighted method marked with *, then the tasks needed for 80 % power. */
function renderPower(report: PowerReport): string {
  const { method, margin, pilot } = report;
  const mark = (m: Method) => (m === method ? `${m}*` : m);
  const widths = METHODS.map((m) => Math.max(mark(m).length, 5));
  const lines = [
    `power of "lower bound ≥ −${margin}" for ${report.condition} ${report.metric} (${pilot.tasks} pilot tasks × ${pilot.trials} trial(s), mean delta ${pilot.mean_delta.toFixed(4)}), every interval method; * marks ${method} (--method; the gate's by default)`,
    `assumption: ${report.assumption}`,
    `tasks per cell   trials   true Δ   P(pass): ${METHODS.map((m, i) => mark(m).padStart(widths[i] as number)).join("  ")}`,
  ];
  for (const r of report.rows)
    lines.push(
      `${String(r.tasks_per_cell).padStart(14)}   ${String(r.trials).padStart(6)}   ${r.true_delta.toFixed(3).padStart(6)}            ${METHODS.map((m, i) => r.pass_rates[m].toFixed(3).padStart(widths[i] as number)).join("  ")}`,
    );
  const say = (n: number | null) => (n === null ? "not reached in these designs" : `${n} tasks per cell`);
  for (const n of report.tasks_per_cell_for_80_percent_power) {
    lines.push(
      `80 % power with ${n.trials} trial(s), ${method}: at true Δ 0 ${say(n.at_zero)}; at −0.01 ${say(n.at_minus_0_01)}`,
    );
    for (const m of METHODS.filter((x) => x !== method))
      lines.push(
        `  (${m}: at true Δ 0 ${say(n.methods[m].at_zero)}; at −0.01 ${say(n.methods[m].at_minus_0_01)})`,
      );
  }
  return `${lines.join("\n")}\n`;
}
