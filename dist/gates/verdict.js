/** Boundaries are inclusive as written; this slack absorbs floating-point rounding of means only. */
export const BOUNDARY_SLACK = 1e-12;
/** The bounds of the interval method the protocol names for the gate. */
function bounds(view, method) {
    if (!view)
        return null;
    if (method === "percentile")
        return [view.low, view.high];
    const calibrated = view.calibrated?.[method];
    return calibrated ? [calibrated.low, calibrated.high] : null;
}
function check(spec, selection, condition, baseline, method, inputs) {
    const level = inputs.statistic(selection, condition, spec.metric, "level");
    const full = inputs.statistic(selection, baseline, spec.metric, "level");
    const delta = inputs.statistic(selection, condition, spec.metric, "delta");
    const value = level?.point ?? null;
    const fullValue = full?.point ?? null;
    const d = delta?.point ?? null;
    const t = spec.threshold;
    let passed;
    let shown = d;
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
    const ci95 = spec.rule === "value_at_least"
        ? level
            ? [level.low, level.high]
            : null
        : spec.rule.startsWith("delta") && delta
            ? [delta.low, delta.high]
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
function verdictFor(protocol, selection, condition, inputs) {
    const checks = Object.fromEntries(protocol.gate.checks.map((c) => [
        c.id,
        check(c, selection, condition, protocol.baseline_condition, protocol.statistics.gate_interval, inputs),
    ]));
    const results = Object.values(checks);
    return {
        passed: results.every((c) => c.passed),
        interval_passed: results.every((c) => c.interval_passed),
        checks,
    };
}
export function evaluateGate(protocol, inputs, prerequisite) {
    const deployable = protocol.conditions.filter((c) => c.deployable).map((c) => c.id);
    const conditions = Object.fromEntries(deployable.map((c) => [c, verdictFor(protocol, "pooled", c, inputs)]));
    const perCatalog = Object.fromEntries(protocol.catalog_sizes.map((size) => [
        String(size),
        Object.fromEntries(deployable.map((c) => [c, verdictFor(protocol, String(size), c, inputs)])),
    ]));
    const anyPassed = inputs.complete && Object.values(conditions).some((v) => v.passed);
    return {
        status: !prerequisite.satisfied ? "BLOCKED" : anyPassed ? "PASS" : "FAIL",
        prerequisite,
        complete: inputs.complete,
        verdict_rule: "point_estimate",
        interval_method: protocol.statistics.gate_interval,
        interval_rule: `${protocol.statistics.gate_interval} interval: lower bound of each accuracy delta ≥ threshold, upper bound of the unsupported-rate delta ≤ threshold (the preregistered percentile interval is reported as ci95)`,
        any_deployable_condition_passed: anyPassed,
        conditions,
        per_catalog: perCatalog,
    };
}
/** Exit code of `fabench gate`: 0 PASS, 1 FAIL, 3 BLOCKED. */
export function gateExitCode(gate) {
    return gate.status === "PASS" ? 0 : gate.status === "BLOCKED" ? 3 : 1;
}
