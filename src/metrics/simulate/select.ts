/**
 * The protocol's preregistered rule for the gate's interval method (`statistics.gate_interval_rule`),
 * applied to simulated results. Pure: the same results and rule give the same pick.
 *
 * A method passes a scenario when its coverage at the scenario's own truth lies in the band and its
 * pass rate with the truth at −margin (type I error) is at most the bound. The pick is, among the
 * methods that pass every scenario, the one with the highest mean power at true delta 0; when none
 * passes everywhere, the one with the lowest worst-case type I error, ties broken by mean power.
 * The rule does not say how to break a tie in power among passing methods; the lower worst-case
 * type I error breaks it here (the same two numbers, the other way round). Ties that remain go to
 * the method listed first in INTERVAL_METHODS, so the rule always picks exactly one.
 */
import {
  METHODS,
  type GateIntervalRule,
  type Method,
  type MethodVerdict,
  type ScenarioResult,
} from "./schema.ts";

/** What the rule reads of a rule. */
export type RuleBounds = Pick<GateIntervalRule, "scenarios" | "coverage_band" | "type_one_error_at_most">;

export interface MethodSelection {
  readonly methods: MethodVerdict[];
  readonly selected: Method;
  readonly reason: "highest_power_among_passing" | "lowest_worst_type_one_error";
}

/** Each method's verdict on each of the rule's scenarios, in the rule's order. */
export function ruleVerdicts(results: readonly ScenarioResult[], rule: RuleBounds): MethodVerdict[] {
  const byName = new Map(results.map((r) => [r.scenario, r]));
  const missing = rule.scenarios.filter((s) => !byName.has(s));
  if (missing.length > 0) throw new Error(`no results for the rule's scenarios ${missing.join(", ")}`);
  return METHODS.map((method) => {
    const scenarios = rule.scenarios.map((name) => {
      const r = (byName.get(name) as ScenarioResult).methods[method];
      const coverageInBand = rule.coverage_band.min <= r.coverage && r.coverage <= rule.coverage_band.max;
      const typeOneWithin = r.type_one_error <= rule.type_one_error_at_most;
      return {
        scenario: name,
        coverage: r.coverage,
        type_one_error: r.type_one_error,
        power_at_zero: r.power_at_zero,
        coverage_in_band: coverageInBand,
        type_one_within_bound: typeOneWithin,
        passes: coverageInBand && typeOneWithin,
      };
    });
    const passed = scenarios.filter((s) => s.passes).length;
    return {
      method,
      passes_everywhere: passed === scenarios.length,
      scenarios_passed: passed,
      mean_power_at_zero: scenarios.reduce((a, s) => a + s.power_at_zero, 0) / scenarios.length,
      worst_type_one_error: Math.max(...scenarios.map((s) => s.type_one_error)),
      scenarios,
    };
  });
}

/** The rule's pick from simulated results (which must hold every scenario the rule names). */
export function selectMethod(results: readonly ScenarioResult[], rule: RuleBounds): MethodSelection {
  const methods = ruleVerdicts(results, rule);
  const passing = methods.filter((m) => m.passes_everywhere);
  // Sorts are stable, so remaining ties keep METHODS order.
  if (passing.length > 0) {
    const best = [...passing].sort(
      (a, b) =>
        b.mean_power_at_zero - a.mean_power_at_zero || a.worst_type_one_error - b.worst_type_one_error,
    )[0] as MethodVerdict;
    return { methods, selected: best.method, reason: "highest_power_among_passing" };
  }
  const best = [...methods].sort(
    (a, b) => a.worst_type_one_error - b.worst_type_one_error || b.mean_power_at_zero - a.mean_power_at_zero,
  )[0] as MethodVerdict;
  return { methods, selected: best.method, reason: "lowest_worst_type_one_error" };
}

/** What a selection run used, beside what the rule and the protocol's design prescribe. */
export interface RunConfiguration {
  readonly datasets: number;
  readonly iterations: number;
  readonly seed: number;
  readonly tasksPerCell: number;
  readonly repeats: number;
  /** The rule's scenarios that came from a scenario file rather than the built-in ones. */
  readonly fromFile: readonly string[];
}

/**
 * How a run departs from the rule's preregistered configuration, one phrase each (none: it is the
 * rule's run). The rule's run is exactly min_datasets datasets: more would satisfy its floor, but
 * the pick is preregistered only if the draws are, and the seed with the count fixes them — with
 * the count free, a pick near a tie could be had by choosing how many datasets to run.
 */
export function ruleDeviations(
  rule: Pick<GateIntervalRule, "min_datasets" | "iterations" | "seed">,
  run: RunConfiguration,
  design: { readonly tasksPerCell: number; readonly repeats: number },
): string[] {
  const out: string[] = [];
  if (run.datasets !== rule.min_datasets)
    out.push(
      `${run.datasets} datasets ${run.datasets < rule.min_datasets ? "fewer than" : "instead of"} the rule's ${rule.min_datasets}`,
    );
  if (run.iterations !== rule.iterations)
    out.push(`${run.iterations} iterations instead of the rule's ${rule.iterations}`);
  if (run.seed !== rule.seed) out.push(`seed ${run.seed} instead of the rule's ${rule.seed}`);
  if (run.tasksPerCell !== design.tasksPerCell)
    out.push(`${run.tasksPerCell} tasks per cell instead of the protocol's ${design.tasksPerCell}`);
  if (run.repeats !== design.repeats)
    out.push(`${run.repeats} repeats per task instead of the protocol's ${design.repeats}`);
  if (run.fromFile.length > 0) out.push(`${run.fromFile.join(", ")} from --scenarios, not built in`);
  return out;
}
