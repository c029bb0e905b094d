/** The power analysis's published report: the simulated rows and the tasks needed for 80 % power, per method. */
import { POWER_ASSUMPTION, type PowerRow, tasksNeeded } from "./power.ts";
import { METHODS, type Method, type PowerReport } from "./schema.ts";

export interface PowerReportInput {
  readonly condition: string;
  readonly metric: string;
  /** The highlighted method (the gate's by default). */
  readonly method: Method;
  readonly margin: number;
  /** The pilot's per-task paired deltas, its trial count and its trial-noise variance. */
  readonly pilot: readonly number[];
  readonly pilotTrials: number;
  readonly noise: number;
  /** The trial counts the rows were simulated with. */
  readonly trials: readonly number[];
  readonly rows: readonly PowerRow[];
}

export function powerReport(input: PowerReportInput): PowerReport {
  const { rows, method, pilot } = input;
  const neededBy = (m: Method, t: number) => ({
    at_zero: tasksNeeded(rows, m, 0, 0.8, t),
    at_minus_0_01: tasksNeeded(rows, m, -0.01, 0.8, t),
  });
  const needed = input.trials.map((t) => ({
    trials: t,
    ...neededBy(method, t),
    methods: Object.fromEntries(METHODS.map((m) => [m, neededBy(m, t)])) as Record<
      Method,
      ReturnType<typeof neededBy>
    >,
  }));
  return {
    condition: input.condition,
    metric: input.metric,
    method,
    margin: input.margin,
    pilot: {
      tasks: pilot.length,
      trials: input.pilotTrials,
      mean_delta: pilot.reduce((a, b) => a + b, 0) / pilot.length,
      trial_noise_variance: input.noise,
    },
    assumption: POWER_ASSUMPTION,
    rows: rows.map((r) => ({
      tasks_per_cell: r.tasks_per_cell,
      trials: r.trials,
      true_delta: r.true_delta,
      pass_rate: r.pass_rates[method],
      pass_rates: r.pass_rates,
    })),
    tasks_per_cell_for_80_percent_power: needed,
  };
}
