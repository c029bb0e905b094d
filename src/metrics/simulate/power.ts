/**
 * Power of the gate's interval rule, by simulation from pilot data. Assumption, stated in every
 * output: the pilot's per-task paired deltas (shifted to each true mean tried) are the population;
 * tasks are drawn from it with replacement into the protocol's cells; more trials are not
 * modelled (the pilot's per-task values already average its trials), which is conservative.
 */
import seedrandom from "seedrandom";
import { bootstrap, type BootstrapTask } from "../bootstrap/index.ts";
import type { Method } from "./coverage.ts";

export interface PowerOptions {
  readonly pilot: readonly number[];
  readonly cells: number;
  readonly tasksPerCell: readonly number[];
  readonly trueDeltas: readonly number[];
  readonly margin: number;
  readonly method: Method;
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
  readonly confidence: number;
}

export interface PowerRow {
  readonly tasks_per_cell: number;
  readonly true_delta: number;
  /** Share of simulated datasets whose interval's lower bound is ≥ −margin. */
  readonly pass_rate: number;
}

export const POWER_ASSUMPTION =
  "the pilot's per-task paired deltas, shifted to each true mean, are the population; tasks are drawn with replacement into the protocol's cells; extra trials are not modelled";

export function simulatePower(options: PowerOptions, progress?: (done: number, total: number) => void): PowerRow[] {
  const pilotMean = options.pilot.reduce((a, b) => a + b, 0) / Math.max(options.pilot.length, 1);
  const rows: PowerRow[] = [];
  const total = options.tasksPerCell.length * options.trueDeltas.length;
  for (const n of options.tasksPerCell)
    for (const truth of options.trueDeltas) {
      const rng = seedrandom.alea(`${options.seed}:${n}:${truth}`);
      const tasks: BootstrapTask[] = [];
      for (let c = 0; c < options.cells; c++) for (let t = 0; t < n; t++) tasks.push({ id: `c${String(c).padStart(4, "0")}t${String(t).padStart(4, "0")}`, stratum: `c${c}`, language: "x" });
      let passes = 0;
      for (let d = 0; d < options.datasets; d++) {
        const values = tasks.map(() => (options.pilot[Math.floor(rng() * options.pilot.length)] as number) - pilotMean + truth);
        const interval = bootstrap(tasks, [{ key: "delta", values }], { iterations: options.iterations, seed: options.seed + d, rng: "seedrandom", confidence: options.confidence, calibrated: options.method !== "percentile" }).intervals["delta"];
        const low = options.method === "percentile" ? interval?.low : interval?.calibrated?.[options.method]?.low;
        if (low !== null && low !== undefined && low >= -options.margin) passes += 1;
      }
      rows.push({ tasks_per_cell: n, true_delta: truth, pass_rate: passes / options.datasets });
      progress?.(rows.length, total);
    }
  return rows;
}

/** The smallest design reaching the power target at a true delta, or null. */
export function tasksNeeded(rows: readonly PowerRow[], trueDelta: number, target: number): number | null {
  const hit = rows.filter((r) => r.true_delta === trueDelta && r.pass_rate >= target).map((r) => r.tasks_per_cell);
  return hit.length === 0 ? null : Math.min(...hit);
}
