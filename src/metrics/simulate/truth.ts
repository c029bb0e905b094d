/**
 * Each scenario's true mean delta, known exactly, and how a scenario is moved to another true delta
 * (the gate's rule is judged at true delta −margin and 0 as well as at the scenario's own truth).
 *
 * - continuous: `true_delta` is a parameter; the draw adds the constant that makes it the mean.
 * - one-stratum: share × (gain_rate·gain − miss_rate·miss_loss), share = hurt cells / cells.
 * - binary: with m = α/(α+β) the mean success probability under FULL, a task's router success
 *   probability is p(1 − ℓ) + (1 − p)g, so the mean delta is g(1 − m) − ℓm (coupled or not).
 *
 * Re-centring: continuous and one-stratum scenarios by a location shift (a constant added to every
 * task's delta), which moves every interval method's bounds by the same constant — so the
 * simulator computes one interval per dataset and shifts it (coverage.ts). A shift would make
 * binary outcomes non-binary, so a binary scenario is moved by its loss and gain rates instead:
 * the expected share of changed outcomes D = ℓm + g(1 − m) is kept and only its balance moves,
 * ℓ' = (D − δ)/(2m), g' = (D + δ)/(2(1 − m)) — the same informative tasks (the ones McNemar's test
 * reads), now tilted to the target δ. Possible when |δ| ≤ D and both rates stay ≤ 1.
 */
import type { BinaryScenario, Scenario } from "./scenarios.ts";

/** The design facts a scenario's truth depends on. */
export interface Strata {
  readonly cells: number;
  /** Answer strata the cells divide into (cells = strata × languages). */
  readonly strata: number;
}

/** Cells of the first answer stratum: the one the one-stratum kind hurts. */
export function inHurtStratum(cell: number, design: Strata): boolean {
  return Math.floor((cell * design.strata) / design.cells) === 0;
}

export function hurtShare(design: Strata): number {
  let hurt = 0;
  for (let c = 0; c < design.cells; c++) if (inHurtStratum(c, design)) hurt += 1;
  return design.cells > 0 ? hurt / design.cells : 0;
}

function meanSuccess(s: BinaryScenario): number {
  return s.difficulty.alpha / (s.difficulty.alpha + s.difficulty.beta);
}

export function trueDelta(scenario: Scenario, design: Strata): number {
  switch (scenario.kind) {
    case "continuous":
      return scenario.true_delta;
    case "one-stratum":
      return (
        hurtShare(design) * (scenario.gain_rate * scenario.gain - scenario.miss_rate * scenario.miss_loss)
      );
    case "binary": {
      const m = meanSuccess(scenario);
      return scenario.gain_rate * (1 - m) - scenario.loss_rate * m;
    }
  }
}

/** How a scenario reaches another true delta. */
export type Recentring = "location_shift" | "loss_gain_balance";

export function recentring(scenario: Scenario): Recentring {
  return scenario.kind === "binary" ? "loss_gain_balance" : "location_shift";
}

/** A binary scenario moved to true delta `target`, or why it cannot be. */
export function recentreBinary(
  scenario: BinaryScenario,
  target: number,
): { ok: true; scenario: BinaryScenario } | { ok: false; message: string } {
  const m = meanSuccess(scenario);
  const changed = scenario.loss_rate * m + scenario.gain_rate * (1 - m);
  const loss = (changed - target) / (2 * m);
  const gain = (changed + target) / (2 * (1 - m));
  if (Math.abs(target) > changed || loss > 1 || gain > 1)
    return {
      ok: false,
      message: `${scenario.name} cannot be re-centred to a true delta of ${target}: it changes ${changed.toFixed(4)} of the outcomes in expectation, and the loss and gain rates that would tilt them to ${target} (${loss.toFixed(4)}, ${gain.toFixed(4)}) must lie in [0, 1]`,
    };
  return { ok: true, scenario: { ...scenario, loss_rate: Math.max(0, loss), gain_rate: Math.max(0, gain) } };
}

/** Every scenario that cannot be moved to each of `targets`, one message each. */
export function recentringProblems(scenarios: readonly Scenario[], targets: readonly number[]): string[] {
  const problems: string[] = [];
  for (const s of scenarios)
    if (s.kind === "binary")
      for (const target of targets) {
        const moved = recentreBinary(s, target);
        if (!moved.ok) problems.push(moved.message);
      }
  return problems;
}
