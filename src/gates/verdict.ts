/**
 * The product gate: for each deployable condition, every check of the protocol against FULL, on
 * point estimates (`passed`, the preregistered rule) and with the bootstrap interval's bound
 * (`interval_passed`, reported beside it). BLOCKED whenever the prerequisite is unmet, whatever
 * the numbers; otherwise PASS when any deployable condition passes on a complete run set.
 */
import type { CalibratedMethod, GateCheckSpec, Protocol } from "../authoring/index.ts";
import { canonicalJson } from "../core/index.ts";
import type { PrerequisiteStatus } from "./conveyor.ts";

/** Boundaries are inclusive as written; this slack absorbs floating-point rounding of means only. */
export const BOUNDARY_SLACK = 1e-12;

export interface IntervalView {
  readonly point: number | null;
  /** The preregistered percentile interval. */
  readonly low: number | null;
  readonly high: number | null;
  /** Calibrated intervals by method, when the summary has them. */
  readonly calibrated?: Partial<
    Record<CalibratedMethod, { readonly low: number | null; readonly high: number | null }>
  >;
}

/** The bounds of the interval method the protocol names for the gate. */
function bounds(
  view: IntervalView | undefined,
  method: Protocol["statistics"]["gate_interval"],
): readonly [number | null, number | null] | null {
  if (!view) return null;
  if (method === "percentile") return [view.low, view.high];
  const calibrated = view.calibrated?.[method];
  return calibrated ? [calibrated.low, calibrated.high] : null;
}

/** What the gate reads: bootstrap statistics by key and episode totals. */
export interface GateInputs {
  readonly statistic: (
    selection: string,
    condition: string,
    metric: string,
    kind: "level" | "delta",
  ) => IntervalView | undefined;
  readonly total: (selection: string, condition: string, metric: string) => number;
  readonly complete: boolean;
}

export interface CheckResult {
  /** The metric the check reads; what reports and `power --metric` call it. */
  readonly metric: string;
  readonly rule: GateCheckSpec["rule"];
  readonly value: number | null;
  readonly full: number | null;
  readonly delta: number | null;
  readonly threshold: number;
  readonly passed: boolean;
  /** The preregistered percentile interval, and the one the interval verdict uses (the protocol's method). */
  readonly ci95: readonly [number | null, number | null] | null;
  readonly ci95_gate: readonly [number | null, number | null] | null;
  readonly interval_passed: boolean;
}

export interface ConditionVerdict {
  readonly passed: boolean;
  readonly interval_passed: boolean;
  readonly checks: Record<string, CheckResult>;
}

export interface Gate {
  /** NOT_GATED: the runs are a labelled variant no gate judges (`not_gated` says which). */
  readonly status: "PASS" | "FAIL" | "BLOCKED" | "NOT_GATED";
  /**
   * Why no verdict is given: the runs widened SR-PROGRESSIVE on the gold (the origin harness's
   * trigger), which no deployed system can do. Absent for every run the gate judges.
   */
  readonly not_gated?: string;
  /**
   * Whether the protocol is the bundled preregistration (same canonical hash). A verdict under any
   * other protocol — a pilot, a copy with a stage removed — is labelled "not preregistered".
   */
  readonly preregistered: boolean;
  readonly prerequisite: PrerequisiteStatus;
  readonly complete: boolean;
  readonly verdict_rule: "point_estimate";
  /** The interval method behind `interval_passed` (named by the protocol). */
  readonly interval_method: string;
  readonly interval_rule: string;
  readonly any_deployable_condition_passed: boolean;
  /**
   * The conditions the gate reads (the baseline and the deployable ones) that the scored runs do
   * not hold, in the protocol's order: a pilot of FULL alone is a normal run. A deployable
   * condition not run cannot pass, and without the baseline none can; their checks are shown
   * failed. Absent when every one ran (and from summaries written before fabench recorded it).
   */
  readonly conditions_not_run?: readonly string[];
  /**
   * The deployable conditions the bundled preregistration does not name (a search condition, or one
   * it defines otherwise), in the protocol's order: each verdict over them is labelled not
   * preregistered, even where the rest of the protocol is. Absent when there are none.
   */
  readonly conditions_not_preregistered?: readonly string[];
  readonly conditions: Record<string, ConditionVerdict>;
  readonly per_catalog: Record<string, Record<string, ConditionVerdict>>;
}

function check(
  spec: GateCheckSpec,
  selection: string,
  condition: string,
  baseline: string,
  method: Protocol["statistics"]["gate_interval"],
  inputs: GateInputs,
): CheckResult {
  const level = inputs.statistic(selection, condition, spec.metric, "level");
  const full = inputs.statistic(selection, baseline, spec.metric, "level");
  const delta = inputs.statistic(selection, condition, spec.metric, "delta");
  const value = level?.point ?? null;
  const fullValue = full?.point ?? null;
  const d = delta?.point ?? null;
  const t = spec.threshold;
  let passed: boolean;
  let shown: number | null = d;
  switch (spec.rule) {
    case "delta_at_least":
      passed = d === null ? spec.null_delta_passes === true : d >= t - BOUNDARY_SLACK;
      break;
    case "delta_at_most":
      passed = d === null ? spec.null_delta_passes === true : d <= t + BOUNDARY_SLACK;
      break;
    case "delta_below":
      passed = d !== null && d < t;
      break;
    case "value_at_least":
      shown = value;
      passed = value !== null && value >= t - BOUNDARY_SLACK;
      break;
    case "ratio_at_most":
      shown = value !== null && fullValue !== null && fullValue > 0 ? value / fullValue : null;
      passed = shown !== null && shown <= t + BOUNDARY_SLACK;
      break;
    case "total_at_most":
      shown = inputs.total(selection, condition, spec.metric);
      passed = shown <= t + BOUNDARY_SLACK;
      break;
  }
  // Intervals exist for paired deltas only; a ratio or a total has none.
  const ci95 =
    spec.rule === "value_at_least"
      ? level
        ? ([level.low, level.high] as const)
        : null
      : spec.rule.startsWith("delta") && delta
        ? ([delta.low, delta.high] as const)
        : null;
  const gateBounds = spec.rule.startsWith("delta") ? bounds(delta, method) : null;
  let intervalPassed = passed;
  if (spec.interval_bound === "lower")
    intervalPassed =
      passed &&
      (d === null ? spec.null_delta_passes === true : (gateBounds?.[0] ?? -Infinity) >= t - BOUNDARY_SLACK);
  if (spec.interval_bound === "upper")
    intervalPassed =
      passed &&
      (d === null ? spec.null_delta_passes === true : (gateBounds?.[1] ?? Infinity) <= t + BOUNDARY_SLACK);
  const totals = spec.rule === "total_at_most";
  return {
    metric: spec.metric,
    rule: spec.rule,
    value: totals ? shown : value,
    full: totals ? inputs.total(selection, baseline, spec.metric) : fullValue,
    delta: totals ? null : shown,
    threshold: t,
    passed,
    ci95,
    ci95_gate: spec.interval_bound ? gateBounds : null,
    interval_passed: intervalPassed,
  };
}

/**
 * Whether the runs hold `condition` in `selection`: the bootstrap has a level for every condition it
 * saw (null where no value is defined), and none at all for a condition no record names.
 */
function ran(protocol: Protocol, selection: string, condition: string, inputs: GateInputs): boolean {
  return protocol.gate.checks.some(
    (c) => inputs.statistic(selection, condition, c.metric, "level") !== undefined,
  );
}

function verdictFor(
  protocol: Protocol,
  selection: string,
  condition: string,
  inputs: GateInputs,
): ConditionVerdict {
  // Nothing to judge: a check of a condition not run, or against a baseline not run, cannot pass
  // (a null delta would otherwise pass the checks that allow one, and a total of nothing is 0).
  const comparable =
    ran(protocol, selection, condition, inputs) &&
    ran(protocol, selection, protocol.baseline_condition, inputs);
  const checks = Object.fromEntries(
    protocol.gate.checks.map((c) => {
      const result = check(
        c,
        selection,
        condition,
        protocol.baseline_condition,
        protocol.statistics.gate_interval,
        inputs,
      );
      return [c.id, comparable ? result : { ...result, passed: false, interval_passed: false }];
    }),
  );
  const results = Object.values(checks);
  return {
    passed: results.every((c) => c.passed),
    interval_passed: results.every((c) => c.interval_passed),
    checks,
  };
}

/**
 * What the bundled preregistration covers: whether the protocol is it (same canonical hash), and
 * the deployable conditions of this protocol it does not name. A bare boolean says the first only:
 * true covers every condition (the same protocol), false names none apart.
 */
export interface Preregistration {
  readonly protocol: boolean;
  readonly conditionsNot: readonly string[];
}

export function evaluateGate(
  protocol: Protocol,
  inputs: GateInputs,
  prerequisite: PrerequisiteStatus,
  preregistration: boolean | Preregistration,
  notGated: string | null = null,
): Gate {
  const { protocol: preregistered, conditionsNot } =
    typeof preregistration === "boolean" ? { protocol: preregistration, conditionsNot: [] } : preregistration;
  const deployable = protocol.conditions.filter((c) => c.deployable).map((c) => c.id);
  const conditions = Object.fromEntries(
    deployable.map((c) => [c, verdictFor(protocol, "pooled", c, inputs)]),
  );
  const perCatalog = Object.fromEntries(
    protocol.catalog_sizes.map((size) => [
      String(size),
      Object.fromEntries(deployable.map((c) => [c, verdictFor(protocol, String(size), c, inputs)])),
    ]),
  );
  // A labelled variant is shown on its numbers but never passes.
  const anyPassed = notGated === null && inputs.complete && Object.values(conditions).some((v) => v.passed);
  const notRun = [protocol.baseline_condition, ...deployable].filter(
    (c) => !ran(protocol, "pooled", c, inputs),
  );
  return {
    status:
      notGated !== null ? "NOT_GATED" : !prerequisite.satisfied ? "BLOCKED" : anyPassed ? "PASS" : "FAIL",
    ...(notGated !== null ? { not_gated: notGated } : {}),
    preregistered,
    prerequisite,
    complete: inputs.complete,
    verdict_rule: "point_estimate",
    interval_method: protocol.statistics.gate_interval,
    interval_rule: `${protocol.statistics.gate_interval} interval: lower bound of each accuracy delta ≥ threshold, upper bound of the unsupported-rate delta ≤ threshold (the preregistered percentile interval is reported as ci95)`,
    any_deployable_condition_passed: anyPassed,
    // Only when some are missing, so a summary of a full matrix is byte-identical to one written before.
    ...(notRun.length > 0 ? { conditions_not_run: notRun } : {}),
    ...(conditionsNot.length > 0 ? { conditions_not_preregistered: [...conditionsNot] } : {}),
    conditions,
    per_catalog: perCatalog,
  };
}

/**
 * The deployable conditions of `protocol` that `preregistered` (the bundled preregistration) does
 * not hold with the same definition — a search condition, or an SR-5 a pilot redefined — in the
 * protocol's order.
 */
export function conditionsNotPreregistered(
  protocol: Pick<Protocol, "conditions">,
  preregistered: Pick<Protocol, "conditions">,
): string[] {
  const known = new Map(preregistered.conditions.map((c) => [c.id, canonicalJson(c)]));
  return protocol.conditions
    .filter((c) => c.deployable && known.get(c.id) !== canonicalJson(c))
    .map((c) => c.id);
}

/** Exit code of `fabench gate`: 0 PASS, 1 FAIL, 3 BLOCKED or NOT_GATED (no verdict). */
export function gateExitCode(gate: Gate): number {
  return gate.status === "PASS" ? 0 : gate.status === "FAIL" ? 1 : 3;
}
