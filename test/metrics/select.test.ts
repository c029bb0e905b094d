/** The preregistered gate-interval rule on hand-made result tables: every branch of the pick. */
import { describe, expect, it } from "vitest";
import {
  METHODS,
  ruleDeviations,
  selectMethod,
  type Method,
  type MethodResult,
  type ScenarioResult,
} from "../../src/metrics/simulate/index.ts";

const rule = {
  scenarios: ["a", "b"],
  coverage_band: { min: 0.93, max: 0.97 },
  type_one_error_at_most: 0.03,
};

type Figures = [coverage: number, typeOne: number, power: number];

/** A result table: per scenario, each method's coverage, type I at the margin and power at 0 (unlisted methods fail). */
function table(figures: Record<string, Partial<Record<Method, Figures>>>): ScenarioResult[] {
  return Object.entries(figures).map(([scenario, byMethod]) => ({
    scenario,
    kind: "continuous",
    true_delta: -0.01,
    recentring: "location_shift",
    datasets: 4000,
    methods: Object.fromEntries(
      METHODS.map((m) => {
        const [coverage, type_one_error, power_at_zero] = byMethod[m] ?? [0.8, 0.2, 0.9];
        const r: MethodResult = {
          coverage,
          below: (1 - coverage) / 2,
          above: (1 - coverage) / 2,
          mean_width: 0.04,
          margin_pass_rate: 0.1,
          type_one_error,
          power_at_zero,
          unbounded: 0,
          undefined: 0,
        };
        return [m, r];
      }),
    ) as Record<Method, MethodResult>,
  }));
}

describe("selectMethod: the gate-interval rule", () => {
  it("picks the passing method with the highest mean power at true delta 0", () => {
    const picked = selectMethod(
      table({
        a: { bootstrap_t: [0.95, 0.02, 0.3], skew_t: [0.95, 0.025, 0.5], t_stratified: [0.95, 0.05, 0.9] },
        b: { bootstrap_t: [0.96, 0.01, 0.1], skew_t: [0.94, 0.02, 0.2], t_stratified: [0.95, 0.02, 0.9] },
      }),
      rule,
    );
    expect(picked.selected).toBe("skew_t");
    expect(picked.reason).toBe("highest_power_among_passing");
    const skew = picked.methods.find((m) => m.method === "skew_t")!;
    expect(skew).toMatchObject({ passes_everywhere: true, scenarios_passed: 2, worst_type_one_error: 0.025 });
    expect(skew.mean_power_at_zero).toBeCloseTo(0.35, 12);
    // t_stratified has more power but fails a's type I bound: it is out.
    const t = picked.methods.find((m) => m.method === "t_stratified")!;
    expect(t.passes_everywhere).toBe(false);
    expect(t.scenarios[0]).toMatchObject({
      coverage_in_band: true,
      type_one_within_bound: false,
      passes: false,
    });
  });

  it("holds the band's ends and the bound inclusive", () => {
    const picked = selectMethod(
      table({ a: { percentile: [0.93, 0.03, 0.4] }, b: { percentile: [0.97, 0.0, 0.4] } }),
      rule,
    );
    expect(picked.selected).toBe("percentile");
    expect(picked.reason).toBe("highest_power_among_passing");
  });

  it("breaks a tie in power among passing methods by the lower worst-case type I, then by list order", () => {
    const tied = table({
      a: { bootstrap_t: [0.95, 0.02, 0.4], skew_t: [0.95, 0.01, 0.4] },
      b: { bootstrap_t: [0.95, 0.02, 0.2], skew_t: [0.95, 0.01, 0.2] },
    });
    expect(selectMethod(tied, rule).selected).toBe("skew_t");
    const exact = table({
      a: { bootstrap_t: [0.95, 0.02, 0.4], skew_t: [0.95, 0.02, 0.4] },
      b: { bootstrap_t: [0.95, 0.02, 0.2], skew_t: [0.95, 0.02, 0.2] },
    });
    expect(selectMethod(exact, rule).selected).toBe("bootstrap_t");
  });

  it("when none passes everywhere, picks the lowest worst-case type I", () => {
    const picked = selectMethod(
      table({
        a: { bootstrap_t: [0.98, 0.01, 0.1], skew_t: [0.95, 0.04, 0.5], percentile: [0.9, 0.07, 0.6] },
        b: { bootstrap_t: [0.95, 0.035, 0.1], skew_t: [0.95, 0.02, 0.5], percentile: [0.95, 0.01, 0.6] },
      }),
      rule,
    );
    expect(picked.methods.every((m) => !m.passes_everywhere)).toBe(true);
    expect(picked.selected).toBe("bootstrap_t"); // worst type I 0.035 against skew_t's 0.04
    expect(picked.reason).toBe("lowest_worst_type_one_error");
  });

  it("when none passes and the worst-case type I ties, picks the one with more power", () => {
    const picked = selectMethod(
      table({
        a: { bootstrap_t: [0.98, 0.04, 0.1], skew_t: [0.98, 0.04, 0.3] },
        b: { bootstrap_t: [0.95, 0.01, 0.1], skew_t: [0.95, 0.02, 0.3] },
      }),
      rule,
    );
    expect(picked.selected).toBe("skew_t");
    expect(picked.reason).toBe("lowest_worst_type_one_error");
  });

  it("reads only the rule's scenarios, in the rule's order, and needs every one of them", () => {
    const results = table({
      b: { skew_t: [0.95, 0.01, 0.3] },
      extra: { percentile: [0.95, 0.0, 1] },
      a: { skew_t: [0.95, 0.01, 0.3] },
    });
    const picked = selectMethod(results, rule);
    expect(picked.selected).toBe("skew_t");
    expect(picked.methods[0]?.scenarios.map((s) => s.scenario)).toEqual(["a", "b"]);
    expect(() => selectMethod(results.slice(0, 1), rule)).toThrow(/a$/);
  });
});

describe("ruleDeviations", () => {
  const theRule = { min_datasets: 4000, iterations: 1000, seed: 7 };
  const design = { tasksPerCell: 4, repeats: 6 };
  const run = { datasets: 4000, iterations: 1000, seed: 7, tasksPerCell: 4, repeats: 6, fromFile: [] };

  it("finds none in the rule's own run; more datasets than its minimum is another run", () => {
    expect(ruleDeviations(theRule, run, design)).toEqual([]);
    expect(ruleDeviations(theRule, { ...run, datasets: 8000 }, design)).toEqual([
      "8000 datasets instead of the rule's 4000",
    ]);
  });

  it("names every departure", () => {
    expect(
      ruleDeviations(
        theRule,
        { datasets: 10, iterations: 50, seed: 8, tasksPerCell: 8, repeats: 2, fromFile: ["x"] },
        design,
      ),
    ).toEqual([
      "10 datasets fewer than the rule's 4000",
      "50 iterations instead of the rule's 1000",
      "seed 8 instead of the rule's 7",
      "8 tasks per cell instead of the protocol's 4",
      "2 repeats per task instead of the protocol's 6",
      "x from --scenarios, not built in",
    ]);
  });
});
