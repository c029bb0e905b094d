/** Every interval method on one simulated dataset, shared by the coverage and power simulators. */
import { bootstrap, type BootstrapTask } from "../bootstrap/index.ts";
import { METHODS, type Method } from "./schema.ts";

/** A method's bounds on one dataset (±∞: unbounded on that side), or null when it gave none. */
export type Bounds = { readonly low: number; readonly high: number } | null;

/** The tasks of a simulated design: one bootstrap cell per design cell, ids in cell order. */
export function designTasks(cells: number, tasksPerCell: number): BootstrapTask[] {
  const tasks: BootstrapTask[] = [];
  for (let c = 0; c < cells; c++)
    for (let t = 0; t < tasksPerCell; t++)
      tasks.push({
        id: `c${String(c).padStart(4, "0")}t${String(t).padStart(4, "0")}`,
        stratum: `c${c}`,
        language: "x",
      });
  return tasks;
}

/** Every method's interval of one dataset's mean delta, from one bootstrap (seeded per dataset). */
export function intervalsOf(
  values: readonly number[],
  tasks: readonly BootstrapTask[],
  options: { readonly iterations: number; readonly seed: number; readonly confidence: number },
): Record<Method, Bounds> {
  const interval = bootstrap(tasks, [{ key: "delta", values }], {
    iterations: options.iterations,
    seed: options.seed,
    rng: "seedrandom",
    confidence: options.confidence,
    calibrated: true,
  }).intervals["delta"];
  const out = {} as Record<Method, Bounds>;
  for (const method of METHODS) {
    const bounds = method === "percentile" ? interval : interval?.calibrated?.[method];
    // A null bootstrap-t bound with infinite replicates is unbounded on that side, not undefined.
    const open = method === "bootstrap_t" && (interval?.calibrated?.bootstrap_t.infinite ?? 0) > 0;
    const low = bounds?.low ?? (open ? -Infinity : null);
    const high = bounds?.high ?? (open ? Infinity : null);
    out[method] = low === null || high === null ? null : { low, high };
  }
  return out;
}
