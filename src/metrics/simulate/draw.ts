/**
 * Drawing one simulated dataset of per-task paired deltas (cells × tasks per cell, each delta a
 * mean over the design's repeats) from a scenario. Pure given the random source: the same `rng`
 * state gives the same dataset. The continuous kind draws exactly as before kinds existed, so its
 * figures are unchanged for a seed.
 */
import type { BinaryScenario, ContinuousScenario, OneStratumScenario, Scenario } from "./scenarios.ts";
import { inHurtStratum, type Strata } from "./truth.ts";

export interface DrawDesign extends Strata {
  readonly tasksPerCell: number;
  /** Repeated measures per task (catalog sizes × trials). */
  readonly repeats: number;
}

export function normal(rng: () => number): number {
  let u = 0;
  while (u === 0) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** Gamma(shape, 1) by Marsaglia and Tsang; shapes below 1 by the usual boost Gamma(a + 1)·U^(1/a). */
export function gamma(shape: number, rng: () => number): number {
  if (shape < 1) {
    let u = 0;
    while (u === 0) u = rng();
    return gamma(shape + 1, rng) * u ** (1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rng);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = rng();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

export function beta(alpha: number, b: number, rng: () => number): number {
  const x = gamma(alpha, rng);
  const y = gamma(b, rng);
  return x / (x + y);
}

/** One dataset's per-task deltas; cell effects are part of the super-population (fixed per scenario, centred). */
export function drawDataset(
  scenario: Scenario,
  design: DrawDesign,
  cellEffects: readonly number[],
  rng: () => number,
): number[] {
  switch (scenario.kind) {
    case "continuous":
      return drawContinuous(scenario, design, cellEffects, rng, () => true, scenarioBase(scenario));
    case "one-stratum":
      // The other strata's tasks keep a mean delta of 0: no constant is added anywhere.
      return drawContinuous(scenario, design, cellEffects, rng, (c) => inHurtStratum(c, design), 0);
    case "binary":
      return drawBinary(scenario, design, rng);
  }
}

/** The constant that makes a continuous scenario's mean its true_delta. */
function scenarioBase(s: ContinuousScenario): number {
  return s.true_delta + s.miss_rate * s.miss_loss - s.gain_rate * s.gain;
}

function drawContinuous(
  scenario: ContinuousScenario | OneStratumScenario,
  design: DrawDesign,
  cellEffects: readonly number[],
  rng: () => number,
  routerActs: (cell: number) => boolean,
  base: number,
): number[] {
  const deltas: number[] = [];
  for (let c = 0; c < design.cells; c++) {
    const acts = routerActs(c);
    for (let t = 0; t < design.tasksPerCell; t++) {
      let noise = 0;
      for (let r = 0; r < design.repeats; r++) noise += normal(rng) * scenario.noise_sd;
      // Both draws happen in every cell, so one stream serves every cell whether the router acts there or not.
      const missed = rng() < scenario.miss_rate && acts ? scenario.miss_loss : 0;
      const gained = rng() < scenario.gain_rate && acts ? scenario.gain : 0;
      deltas.push(
        base +
          (cellEffects[c] ?? 0) +
          normal(rng) * scenario.task_sd +
          noise / design.repeats -
          missed +
          gained,
      );
    }
  }
  return deltas;
}

/**
 * Per task: its FULL success probability p ~ Beta(α, β), the router's p(1 − ℓ) + (1 − p)g.
 * Coupled: one FULL outcome per task, and the router keeps it except for a loss (ℓ) or a gain (g),
 * shared by every repeat. Noisy: each repeat's outcomes drawn independently from p and the
 * router's probability. The delta is the router's mean minus FULL's over the repeats.
 */
function drawBinary(scenario: BinaryScenario, design: DrawDesign, rng: () => number): number[] {
  const { alpha, beta: b } = scenario.difficulty;
  const { loss_rate: loss, gain_rate: gain } = scenario;
  const deltas: number[] = [];
  const tasks = design.cells * design.tasksPerCell;
  for (let i = 0; i < tasks; i++) {
    const p = beta(alpha, b, rng);
    if (scenario.coupled) {
      const full = rng() < p ? 1 : 0;
      const router = full === 1 ? (rng() < loss ? 0 : 1) : rng() < gain ? 1 : 0;
      deltas.push(router - full);
      continue;
    }
    const pRouter = p * (1 - loss) + (1 - p) * gain;
    let difference = 0;
    for (let r = 0; r < design.repeats; r++) difference += (rng() < pRouter ? 1 : 0) - (rng() < p ? 1 : 0);
    deltas.push(difference / design.repeats);
  }
  return deltas;
}
