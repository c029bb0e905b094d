/**
 * Power of the gate's interval rule, by simulation from pilot data. Assumption, stated in every
 * output: the pilot's per-task paired deltas (shifted to each true mean tried) are the population;
 * tasks are drawn from it with replacement into the protocol's cells. Other trial counts follow a
 * random-effects model: a task's delta is its own true delta plus trial noise averaged over its
 * repeats, so with T trials instead of the pilot's T₀ each delta's deviation from the mean is
 * scaled by √((σ_b² + w·T₀/T) / (σ_b² + w)), where w is the pilot's trial-noise variance of
 * a delta (the spread of a task's trials within one catalog size) and σ_b² = max(0, var(deltas) − w). The shape of the pilot (its rare large losses) is
 * kept; at T = T₀ the pilot is used as it is. Every interval method is judged on the same datasets
 * (one bootstrap each), so the methods differ only by method.
 */
import seedrandom from "seedrandom";
import { designTasks, intervalsOf } from "./intervals.ts";
import { METHODS, type Method } from "./schema.ts";

export interface PowerOptions {
  readonly pilot: readonly number[];
  readonly cells: number;
  readonly tasksPerCell: readonly number[];
  /** Trial counts to try; the pilot's own count reproduces the pilot's spread. */
  readonly trials: readonly number[];
  readonly pilotTrials: number;
  /** Within-task noise variance of one pilot delta (from the spread of its repeats); 0 when unknown. */
  readonly pilotNoise: number;
  readonly trueDeltas: readonly number[];
  readonly margin: number;
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
  readonly confidence: number;
}

export interface PowerRow {
  readonly tasks_per_cell: number;
  readonly trials: number;
  readonly true_delta: number;
  /** Per method: share of simulated datasets whose interval's lower bound is ≥ −margin. */
  readonly pass_rates: Record<Method, number>;
}

export const POWER_ASSUMPTION =
  "the pilot's per-task paired deltas, shifted to each true mean, are the population; tasks are drawn with replacement into the protocol's cells; other trial counts rescale each task's deviation by a random-effects model (between-task variance, catalog effects included, plus trial noise within a task and catalog size ÷ trials)";

/** How much a task's deviation from the mean shrinks (or grows) with `trials` instead of the pilot's. */
export function trialScale(
  pilot: readonly number[],
  pilotNoise: number,
  pilotTrials: number,
  trials: number,
): number {
  if (trials === pilotTrials || pilot.length < 2) return 1;
  const mean = pilot.reduce((a, b) => a + b, 0) / pilot.length;
  const variance = pilot.reduce((a, x) => a + (x - mean) ** 2, 0) / (pilot.length - 1);
  const between = Math.max(0, variance - pilotNoise);
  const now = between + pilotNoise;
  return now > 0 ? Math.sqrt((between + (pilotNoise * pilotTrials) / trials) / now) : 1;
}

export function simulatePower(
  options: PowerOptions,
  progress?: (done: number, total: number) => void,
): PowerRow[] {
  const pilotMean = options.pilot.reduce((a, b) => a + b, 0) / Math.max(options.pilot.length, 1);
  const rows: PowerRow[] = [];
  const designs = options.tasksPerCell.flatMap((n) =>
    options.trials.flatMap((trials) => options.trueDeltas.map((truth) => ({ n, trials, truth }))),
  );
  for (const { n, trials, truth } of designs) {
    const scale = trialScale(options.pilot, options.pilotNoise, options.pilotTrials, trials);
    // The same draws for every trial count (common random numbers), so designs differ only by design.
    const rng = seedrandom.alea(`${options.seed}:${n}:${truth}`);
    const tasks = designTasks(options.cells, n);
    const passes = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<Method, number>;
    for (let d = 0; d < options.datasets; d++) {
      const values = tasks.map(
        () =>
          ((options.pilot[Math.floor(rng() * options.pilot.length)] as number) - pilotMean) * scale + truth,
      );
      const bounds = intervalsOf(values, tasks, {
        iterations: options.iterations,
        seed: options.seed + d,
        confidence: options.confidence,
      });
      for (const m of METHODS) {
        const low = bounds[m]?.low;
        if (low !== undefined && low >= -options.margin) passes[m] += 1;
      }
    }
    const pass_rates = Object.fromEntries(METHODS.map((m) => [m, passes[m] / options.datasets])) as Record<
      Method,
      number
    >;
    rows.push({ tasks_per_cell: n, trials, true_delta: truth, pass_rates });
    progress?.(rows.length, designs.length);
  }
  return rows;
}

/** The fewest tasks per cell reaching the power target with `method` at a true delta with `trials` trials, or null. */
export function tasksNeeded(
  rows: readonly PowerRow[],
  method: Method,
  trueDelta: number,
  target: number,
  trials: number,
): number | null {
  const hit = rows
    .filter((r) => r.true_delta === trueDelta && r.trials === trials && r.pass_rates[method] >= target)
    .map((r) => r.tasks_per_cell);
  return hit.length === 0 ? null : Math.min(...hit);
}
