import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BUILT_IN_SCENARIOS,
  designTasks,
  drawDataset,
  intervalsOf,
  METHODS,
  recentreBinary,
  recentringProblems,
  scenarioSchema,
  simulateScenario,
  trueDelta,
  type BinaryScenario,
  type ContinuousScenario,
  type OneStratumScenario,
  type Scenario,
} from "../../src/metrics/simulate/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const design = { cells: 36, strata: 6, tasksPerCell: 4, repeats: 6, margin: 0.02, confidence: 0.95 };
const named = <S extends Scenario = ContinuousScenario>(name: string) =>
  BUILT_IN_SCENARIOS.find((s) => s.name === name) as S;
/** A small deterministic random source for the draw tests. */
function lcg(start = 1): () => number {
  let seed = start;
  return () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
}
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("the coverage simulator", () => {
  const temp = useTempDir();

  it("draws datasets whose mean delta is the scenario's truth on average", () => {
    const scenario = named("rare-total-miss");
    const rng = lcg();
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
    const scenario = named("exact-null");
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
    const scenario = { ...named("rare-total-miss"), name: "exact", noise_sd: 0 };
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
    // Deterministic for the seed; these are docs/statistics.md's figures. Bootstrap-t's coverage is held to
    // ≥ 0.93 only: it is 0.977 / 0.982 here, above the 0.97 (see docs/statistics.md and closing note).
    for (const name of ["rare-total-miss", "heterogeneous-margin"]) {
      const scenario = named(name);
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
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));
    expect(out.gate_interval).toBe(protocol.statistics.gate_interval);
    const file = join(temp(), "s.json");
    writeFileSync(file, JSON.stringify({ scenarios: [{ name: "x" }] }));
    expect((await runCli(["simulate", "coverage", "--scenarios", file, "--datasets", "2"])).code).toBe(2);
  });
});

describe("the scenarios that break methods, and re-centring", () => {
  it("draws every built-in scenario with its stated true delta on average", () => {
    for (const scenario of BUILT_IN_SCENARIOS) {
      const rng = lcg(7);
      const means = Array.from({ length: 600 }, () =>
        mean(drawDataset(scenario, design, new Array(36).fill(0), rng)),
      );
      // 600 datasets of 144 tasks: the standard error of the average is below 0.002 for all of them.
      expect([scenario.name, Math.abs(mean(means) - trueDelta(scenario, design)) < 0.006]).toEqual([
        scenario.name,
        true,
      ]);
    }
  });

  it("states each new scenario's truth exactly", () => {
    // m = 3/4: −0.04·0.75 + 0.08·0.25 = −0.01.
    expect(trueDelta(named("binary-coupled"), design)).toBeCloseTo(-0.01, 15);
    expect(trueDelta(named("binary-noisy"), design)).toBeCloseTo(-0.01, 15);
    // One stratum of six loses 0.24 × 0.5.
    expect(trueDelta(named("one-stratum-hurt"), design)).toBeCloseTo(-0.02, 15);
    expect(trueDelta(named("one-stratum-hurt"), { cells: 36, strata: 3 })).toBeCloseTo(-0.04, 15);
  });

  it("keeps binary-coupled deltas at −1, 0 or +1, mostly 0, and binary-noisy ones on the repeats' grid", () => {
    const rng = lcg(3);
    const coupled = drawDataset(named("binary-coupled"), design, [], rng);
    expect(new Set(coupled).size).toBeLessThanOrEqual(3);
    expect(coupled.every((d) => d === -1 || d === 0 || d === 1)).toBe(true);
    expect(coupled.filter((d) => d === 0).length).toBeGreaterThan(0.8 * coupled.length);
    const noisy = drawDataset(named("binary-noisy"), design, [], rng);
    expect(
      noisy.every((d) => Number.isInteger(Math.round(d * 6)) && Math.abs(d * 6 - Math.round(d * 6)) < 1e-12),
    ).toBe(true);
    expect(new Set(noisy).size).toBeGreaterThan(3);
  });

  it("hurts only the first stratum's cells in one-stratum-hurt", () => {
    const quiet: OneStratumScenario = {
      ...named<OneStratumScenario>("one-stratum-hurt"),
      cell_sd: 0,
      task_sd: 0,
      noise_sd: 0,
      miss_rate: 1,
    };
    const deltas = drawDataset(quiet, design, new Array(36).fill(0), lcg(5));
    // Cells 0–5 (one stratum of six, four tasks each) lose 0.5; every other task is exactly unchanged.
    expect(deltas.slice(0, 24).every((d) => d === -0.5)).toBe(true);
    expect(deltas.slice(24).every((d) => d === 0)).toBe(true);
    expect(trueDelta(quiet, design)).toBeCloseTo(mean(deltas), 15);
  });

  it("re-centres every built-in scenario to 0 and −margin; binary ones by tilting losses against gains", () => {
    expect(recentringProblems(BUILT_IN_SCENARIOS, [0, -0.02])).toEqual([]);
    const coupled = named<BinaryScenario>("binary-coupled");
    for (const target of [0, -0.02, 0.03]) {
      const moved = recentreBinary(coupled, target);
      if (!moved.ok) throw new Error(moved.message);
      expect(trueDelta(moved.scenario, design)).toBeCloseTo(target, 15);
      // The expected share of changed outcomes stays 0.05.
      expect(moved.scenario.loss_rate * 0.75 + moved.scenario.gain_rate * 0.25).toBeCloseTo(0.05, 15);
      const rng = lcg(11);
      const means = Array.from({ length: 400 }, () => mean(drawDataset(moved.scenario, design, [], rng)));
      expect(Math.abs(mean(means) - target)).toBeLessThan(0.004);
    }
    const refused = recentreBinary(coupled, -0.2);
    expect(refused.ok).toBe(false);
    expect(recentringProblems([{ ...coupled, loss_rate: 0, gain_rate: 0 }], [0, -0.02])).toHaveLength(1);
  });

  it("moves every method's interval with the data: a shifted dataset's interval is the shifted interval", () => {
    // What lets one bootstrap per dataset serve all three truths of a continuous scenario. The
    // degenerate case (exactly unchanged tasks, bootstrap-t unbounded) included.
    const tasks = designTasks(36, 4);
    const options = { iterations: 300, seed: 9, confidence: 0.95 };
    const scenarios = [
      named("near-null"),
      { ...named("rare-total-miss"), noise_sd: 0 },
      named("one-stratum-hurt"),
    ];
    let unbounded = 0;
    for (const scenario of scenarios) {
      const rng = lcg(13);
      for (let d = 0; d < 8; d++) {
        const values = drawDataset(scenario, design, new Array(36).fill(0), rng);
        const before = intervalsOf(values, tasks, options);
        for (const shift of [0.01, -0.03, 0.37]) {
          const after = intervalsOf(
            values.map((v) => v + shift),
            tasks,
            options,
          );
          for (const m of METHODS) {
            const a = before[m];
            const b = after[m];
            expect(a === null).toBe(b === null);
            if (a === null || b === null) continue;
            for (const k of ["low", "high"] as const) {
              if (!Number.isFinite(a[k])) {
                unbounded += 1;
                expect(b[k]).toBe(a[k]);
              } else expect(Math.abs(a[k] + shift - b[k])).toBeLessThan(1e-12);
            }
          }
        }
      }
    }
    expect(unbounded).toBeGreaterThan(0);
  });

  it("reports type I at −margin and power at 0 as the own-truth pass rate where the truth is already there", () => {
    const options = { datasets: 30, iterations: 200, seed: 4 };
    const atMargin = simulateScenario(named("heterogeneous-margin"), design, options);
    const atZero = simulateScenario(named("exact-null"), design, options);
    for (const m of METHODS) {
      expect(atMargin.methods[m].type_one_error).toBe(atMargin.methods[m].margin_pass_rate);
      expect(atZero.methods[m].power_at_zero).toBe(atZero.methods[m].margin_pass_rate);
      // Moving the truth up can only pass more often.
      expect(atMargin.methods[m].power_at_zero).toBeGreaterThanOrEqual(atMargin.methods[m].type_one_error);
    }
    const binary = simulateScenario(named("binary-coupled"), design, options);
    expect(binary).toMatchObject({ kind: "binary", recentring: "loss_gain_balance" });
    expect(binary.true_delta).toBeCloseTo(-0.01, 15);
    expect(simulateScenario(named("binary-coupled"), design, options)).toEqual(binary);
  });

  it("reads scenario files without a kind as continuous, and refuses an unknown kind", () => {
    const { kind: _, ...old } = named("near-null");
    expect(scenarioSchema.parse(old)).toEqual(named("near-null"));
    expect(scenarioSchema.safeParse({ ...old, kind: "poisson" }).success).toBe(false);
    const binary = { ...named<BinaryScenario>("binary-noisy") };
    expect(scenarioSchema.parse(binary)).toEqual(binary);
    expect(scenarioSchema.safeParse({ ...binary, true_delta: -0.01 }).success).toBe(false);
  });
});

describe("power by simulation", () => {
  it("passes more often with more tasks per cell and when the truth is farther from the margin", async () => {
    const { simulatePower, tasksNeeded } = await import("../../src/metrics/simulate/index.ts");
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
      datasets: 60,
      iterations: 200,
      seed: 1,
      confidence: 0.95,
    });
    const rate = (n: number, d: number, trials = 1) =>
      rows.find((r) => r.tasks_per_cell === n && r.true_delta === d && r.trials === trials)!.pass_rates
        .t_stratified;
    expect(rate(8, 0)).toBeGreaterThanOrEqual(rate(2, 0));
    expect(rate(8, 0)).toBeGreaterThanOrEqual(rate(8, -0.01));
    // Same draws, deviations shrunk by more trials: the interval's lower bound only moves toward the truth.
    expect(rate(2, -0.01, 4)).toBeGreaterThanOrEqual(rate(2, -0.01, 1));
    for (const m of METHODS)
      expect(tasksNeeded(rows, m, 0, 0.8, 1)).toBe(
        rows
          .filter((r) => r.trials === 1 && r.true_delta === 0 && r.pass_rates[m] >= 0.8)
          .map((r) => r.tasks_per_cell)
          .sort((a, b) => a - b)[0] ?? null,
      );
    for (const r of rows) expect(Object.keys(r.pass_rates)).toEqual([...METHODS]);
  });

  it("rescales a task's deviation by the random-effects model, and not at the pilot's trial count", async () => {
    const { trialScale } = await import("../../src/metrics/simulate/index.ts");
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
