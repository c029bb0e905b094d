/**
 * The coverage simulator: draw datasets of the protocol's shape from each scenario, compute every
 * interval method on the dataset's mean paired delta, and count how often each covers the truth,
 * lies wholly below or above it, how wide it is, and how often the gate's rule "lower bound ≥
 * −margin" passes — at the scenario's own truth, with the scenario re-centred to true delta
 * −margin (the type I error) and to 0 (the power). Deterministic for a seed.
 *
 * Re-centring a continuous scenario is a location shift of every delta. Every method is
 * translation-equivariant — the replicates, the estimate and the widened replicates move with the
 * data, and the stratified SEs, the bootstrap-t statistics and the skewness do not move — so the
 * interval of the shifted dataset is the interval of the dataset shifted by the same constant
 * (up to rounding; test/metrics/simulate.slow.test.ts checks it). One bootstrap per dataset serves all
 * three truths. A binary scenario is re-centred through its loss and gain rates (truth.ts), which
 * changes its outcomes, so each target truth gets datasets of its own.
 */
import seedrandom from "seedrandom";
import { drawDataset, normal, type DrawDesign } from "./draw.ts";
import { designTasks, intervalsOf, type Bounds } from "./intervals.ts";
import type { Scenario } from "./scenarios.ts";
import { METHODS, type Method, type MethodResult, type ScenarioResult } from "./schema.ts";
import { recentreBinary, recentring, trueDelta } from "./truth.ts";

export { drawDataset } from "./draw.ts";

export interface Design extends DrawDesign {
  readonly margin: number;
  readonly confidence: number;
}

export interface SimulationOptions {
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
}

interface Rate {
  pass: number;
  n: number;
}

interface Tally {
  covered: number;
  below: number;
  above: number;
  width: number;
  unbounded: number;
  undefined: number;
  atTruth: Rate;
  atMargin: Rate;
  atZero: Rate;
}

const newTally = (): Tally => ({
  covered: 0,
  below: 0,
  above: 0,
  width: 0,
  unbounded: 0,
  undefined: 0,
  atTruth: { pass: 0, n: 0 },
  atMargin: { pass: 0, n: 0 },
  atZero: { pass: 0, n: 0 },
});

/** The gate's rule on the interval moved by `shift`: "lower bound ≥ −margin" (never for an undefined one). */
function countPass(rate: Rate, bounds: Bounds, shift: number, margin: number): void {
  if (bounds === null) return;
  rate.n += 1;
  if (bounds.low + shift >= -margin) rate.pass += 1;
}

function countCoverage(t: Tally, bounds: Bounds, truth: number): void {
  if (bounds === null) {
    t.undefined += 1;
    return;
  }
  const { low, high } = bounds;
  if (low <= truth && truth <= high) t.covered += 1;
  else if (high < truth) t.below += 1;
  else t.above += 1;
  if (Number.isFinite(high - low)) t.width += high - low;
  else t.unbounded += 1;
}

function result(t: Tally): MethodResult {
  const n = t.covered + t.below + t.above;
  const share = (k: number) => (n > 0 ? k / n : 0);
  const rate = (r: Rate) => (r.n > 0 ? r.pass / r.n : 0);
  return {
    coverage: share(t.covered),
    below: share(t.below),
    above: share(t.above),
    // Mean width over the bounded intervals only.
    mean_width: n - t.unbounded > 0 ? t.width / (n - t.unbounded) : 0,
    margin_pass_rate: rate(t.atTruth),
    type_one_error: rate(t.atMargin),
    power_at_zero: rate(t.atZero),
    unbounded: share(t.unbounded),
    undefined: t.undefined,
  };
}

export function simulateScenario(
  scenario: Scenario,
  design: Design,
  options: SimulationOptions,
  progress?: (done: number) => void,
): ScenarioResult {
  const truth = trueDelta(scenario, design);
  const rng = seedrandom.alea(`${options.seed}:${scenario.name}`);
  const cellSd = scenario.kind === "binary" ? 0 : scenario.cell_sd;
  const raw =
    scenario.kind === "binary" ? [] : Array.from({ length: design.cells }, () => normal(rng) * cellSd);
  const mean = raw.reduce((a, b) => a + b, 0) / Math.max(raw.length, 1);
  const cellEffects = raw.map((v) => v - mean);
  const tasks = designTasks(design.cells, design.tasksPerCell);
  const bootstrapOptions = (d: number) => ({
    iterations: options.iterations,
    seed: options.seed + d,
    confidence: design.confidence,
  });
  const tally = Object.fromEntries(METHODS.map((m) => [m, newTally()])) as Record<Method, Tally>;
  const targets = { margin: -design.margin, zero: 0 } as const;
  // Binary scenarios: their own datasets per target truth (the same one when it is the truth).
  const moved = (target: number) => {
    if (scenario.kind !== "binary" || target === truth) return null;
    const recentred = recentreBinary(scenario, target);
    if (!recentred.ok) throw new Error(recentred.message);
    return {
      scenario: recentred.scenario,
      rng: seedrandom.alea(`${options.seed}:${scenario.name}@${target}`),
    };
  };
  const atMargin = moved(targets.margin);
  const atZero = moved(targets.zero);
  for (let d = 0; d < options.datasets; d++) {
    const own = intervalsOf(drawDataset(scenario, design, cellEffects, rng), tasks, bootstrapOptions(d));
    const marginBounds = atMargin
      ? intervalsOf(drawDataset(atMargin.scenario, design, [], atMargin.rng), tasks, bootstrapOptions(d))
      : own;
    const zeroBounds = atZero
      ? intervalsOf(drawDataset(atZero.scenario, design, [], atZero.rng), tasks, bootstrapOptions(d))
      : own;
    // Location shifts move the intervals; re-drawn binary datasets are already at their truth.
    const shift = (target: number, redrawn: boolean) => (redrawn ? 0 : target - truth);
    for (const method of METHODS) {
      const t = tally[method];
      countCoverage(t, own[method], truth);
      countPass(t.atTruth, own[method], 0, design.margin);
      countPass(t.atMargin, marginBounds[method], shift(targets.margin, atMargin !== null), design.margin);
      countPass(t.atZero, zeroBounds[method], shift(targets.zero, atZero !== null), design.margin);
    }
    progress?.(d + 1);
  }
  return {
    scenario: scenario.name,
    kind: scenario.kind,
    true_delta: truth,
    recentring: recentring(scenario),
    datasets: options.datasets,
    methods: Object.fromEntries(METHODS.map((m) => [m, result(tally[m])])) as Record<Method, MethodResult>,
  };
}
