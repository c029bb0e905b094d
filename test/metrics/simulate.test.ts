import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILT_IN_SCENARIOS, drawDataset, METHODS, simulateScenario } from "../../src/metrics/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const design = { cells: 36, tasksPerCell: 4, repeats: 6, margin: 0.02, confidence: 0.95 };

describe("the coverage simulator", () => {
  const temp = useTempDir();

  it("draws datasets whose mean delta is the scenario's truth on average", () => {
    const scenario = BUILT_IN_SCENARIOS.find((s) => s.name === "rare-total-miss")!;
    let seed = 1;
    const rng = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    let total = 0;
    const n = 400;
    for (let i = 0; i < n; i++) {
      const deltas = drawDataset(scenario, design, new Array(36).fill(0), rng);
      expect(deltas).toHaveLength(144);
      total += deltas.reduce((a, b) => a + b, 0) / deltas.length;
    }
    expect(Math.abs(total / n - scenario.true_delta)).toBeLessThan(0.005);
  });

  it("is deterministic for a seed and reports every method", () => {
    const scenario = BUILT_IN_SCENARIOS[0]!;
    const a = simulateScenario(scenario, design, { datasets: 20, iterations: 200, seed: 5 });
    const b = simulateScenario(scenario, design, { datasets: 20, iterations: 200, seed: 5 });
    expect(a).toEqual(b);
    expect(Object.keys(a.methods)).toEqual([...METHODS]);
    for (const m of METHODS)
      expect(a.methods[m].coverage + a.methods[m].below + a.methods[m].above).toBeCloseTo(1, 12);
  });

  it("shows the percentile interval undercovering and the widened one covering more, on a small run", () => {
    const scenario = BUILT_IN_SCENARIOS.find((s) => s.name === "exact-null")!;
    const r = simulateScenario(scenario, design, { datasets: 150, iterations: 400, seed: 11 });
    expect(r.methods.percentile.coverage).toBeLessThan(r.methods.percentile_widened.coverage);
    expect(r.methods.percentile.mean_width).toBeLessThan(r.methods.percentile_widened.mean_width);
    // On equal cells of four the widened interval is √(4/3) ≈ 1.155 times as wide.
    expect(r.methods.percentile_widened.mean_width / r.methods.percentile.mean_width).toBeCloseTo(
      Math.sqrt(4 / 3),
      6,
    );
  });

  it("counts an unbounded bootstrap-t interval as covering and never as passing the margin", () => {
    // Exactly unchanged tasks and rare total losses: many replicates are degenerate, so bootstrap-t
    // intervals are often unbounded below. They cover a truth below their upper bound, are left
    // out of the mean width, and cannot pass "lower ≥ −margin".
    const scenario = {
      ...BUILT_IN_SCENARIOS.find((s) => s.name === "rare-total-miss")!,
      name: "exact",
      noise_sd: 0,
    };
    const r = simulateScenario(scenario, design, { datasets: 40, iterations: 300, seed: 3 });
    const bt = r.methods.bootstrap_t;
    expect(bt.unbounded).toBeGreaterThan(0);
    expect(bt.undefined).toBe(0);
    expect(Number.isFinite(bt.mean_width)).toBe(true);
    expect(bt.coverage + bt.below + bt.above).toBeCloseTo(1, 12);
    expect(bt.margin_pass_rate).toBeLessThanOrEqual(1 - bt.unbounded);
    for (const m of METHODS.filter((x) => x !== "bootstrap_t")) expect(r.methods[m].unbounded).toBe(0);
  });

  it("reproduces the issue's acceptance figures on the two skewed scenarios at full size (1,000 × 1,000)", () => {
    // Deterministic for the seed; these are the README's figures. Bootstrap-t's coverage is held to
    // ≥ 0.93 only: it is 0.977 / 0.982 here, above the 0.97 (see README and closing note).
    for (const name of ["rare-total-miss", "heterogeneous-margin"]) {
      const scenario = BUILT_IN_SCENARIOS.find((s) => s.name === name)!;
      const r = simulateScenario(scenario, design, { datasets: 1000, iterations: 1000, seed: 20260929 });
      expect(r.methods.percentile.coverage).toBeGreaterThanOrEqual(0.88);
      expect(r.methods.percentile.coverage).toBeLessThanOrEqual(0.92);
      expect(r.methods.bootstrap_t.coverage).toBeGreaterThanOrEqual(0.93);
      if (name === "heterogeneous-margin") {
        expect(r.methods.percentile.margin_pass_rate).toBeGreaterThan(0.04);
        expect(r.methods.bootstrap_t.margin_pass_rate).toBeLessThan(0.045);
      }
    }
  }, 120_000);

  it("runs from the command line with --json and refuses a bad scenario file", async () => {
    const run = await runCli(["simulate", "coverage", "--datasets", "5", "--iterations", "100", "--json"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as { results: Array<{ scenario: string }>; gate_interval: string };
    expect(out.results.map((r) => r.scenario)).toEqual(BUILT_IN_SCENARIOS.map((s) => s.name));
    expect(out.gate_interval).toBe("bootstrap_t");
    const file = join(temp(), "s.json");
    writeFileSync(file, JSON.stringify({ scenarios: [{ name: "x" }] }));
    expect((await runCli(["simulate", "coverage", "--scenarios", file, "--datasets", "2"])).code).toBe(2);
  });
});

describe("power by simulation", () => {
  it("passes more often with more tasks per cell and when the truth is farther from the margin", async () => {
    const { simulatePower, tasksNeeded } = await import("../../src/metrics/index.ts");
    // A pilot with rare large losses, like a router that sometimes misses.
    const pilot = Array.from({ length: 144 }, (_, i) => (i % 20 === 0 ? -0.5 : 0.02 * Math.sin(i)));
    const rows = simulatePower({
      pilot,
      cells: 36,
      tasksPerCell: [2, 8],
      trials: [1, 4],
      pilotTrials: 1,
      pilotNoise: 0.004,
      trueDeltas: [0, -0.01],
      margin: 0.02,
      method: "t_stratified",
      datasets: 60,
      iterations: 200,
      seed: 1,
      confidence: 0.95,
    });
    const rate = (n: number, d: number, trials = 1) =>
      rows.find((r) => r.tasks_per_cell === n && r.true_delta === d && r.trials === trials)!.pass_rate;
    expect(rate(8, 0)).toBeGreaterThanOrEqual(rate(2, 0));
    expect(rate(8, 0)).toBeGreaterThanOrEqual(rate(8, -0.01));
    // Same draws, deviations shrunk by more trials: the interval's lower bound only moves toward the truth.
    expect(rate(2, -0.01, 4)).toBeGreaterThanOrEqual(rate(2, -0.01, 1));
    expect(tasksNeeded(rows, 0, 0.8, 1)).toBe(
      rows
        .filter((r) => r.trials === 1 && r.true_delta === 0 && r.pass_rate >= 0.8)
        .map((r) => r.tasks_per_cell)
        .sort((a, b) => a - b)[0] ?? null,
    );
  });

  it("rescales a task's deviation by the random-effects model, and not at the pilot's trial count", async () => {
    const { trialScale } = await import("../../src/metrics/index.ts");
    const pilot = [0.1, -0.1, 0.1, -0.1]; // sample variance 1/75
    const variance = 0.04 / 3;
    expect(trialScale(pilot, 0.005, 2, 2)).toBe(1);
    expect(trialScale(pilot, 0, 2, 8)).toBe(1); // no trial noise: more trials change nothing
    // between = variance − 0.005; with 8 trials instead of 2 the noise term falls to a quarter.
    expect(trialScale(pilot, 0.005, 2, 8)).toBeCloseTo(
      Math.sqrt((variance - 0.005 + 0.005 / 4) / variance),
      12,
    );
    // All of the spread is noise: the spread falls with √(T₀/T).
    expect(trialScale(pilot, 1, 1, 4)).toBeCloseTo(0.5, 12);
  });
});
