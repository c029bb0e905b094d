import { describe, expect, it } from "vitest";
import { GOLD_TRIGGER_LABEL } from "../../src/conditions/execution/index.ts";
import {
  evaluateGate,
  gateExitCode,
  verdictLine,
  type GateInputs,
  type IntervalView,
} from "../../src/gates/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const satisfied = { satisfied: true, blocking: [] };

/** Statistics where every condition equals FULL except what `override` says. */
function inputs(
  override: Record<string, IntervalView> = {},
  totals: Record<string, number> = {},
  complete = true,
): GateInputs {
  const base: Record<string, number> = {
    required_fact_recall: 0.9,
    numeric_value_accuracy: 0.9,
    unit_accuracy: 0.9,
    provenance_accuracy: 0.9,
    unsupported_fact_rate: 0.05,
    contradiction_count: 0.1,
    required_evidence_coverage: 1,
    input_tokens: 1000,
    tool_schema_tokens: 1000,
  };
  return {
    complete,
    total: (_s, condition, metric) => totals[`${condition}|${metric}`] ?? 0,
    statistic: (selection, condition, metric, kind) => {
      const key = `${condition}|${metric}|${kind}`;
      if (override[key]) return override[key];
      if (kind === "delta") return metric === "input_tokens" ? delta(-500, -600, -400) : delta(0);
      const v =
        condition === "FULL"
          ? base[metric]
          : metric === "input_tokens"
            ? 500
            : metric === "tool_schema_tokens"
              ? 100
              : base[metric];
      return { point: v ?? null, low: v ?? null, high: v ?? null };
    },
  };
}

/** The method the bundled protocol's gate reads (the rule's pick). */
const METHOD = protocol.statistics.gate_interval;

/** A delta whose calibrated interval (the gate's method) equals its percentile one unless given. */
const delta = (
  point: number,
  low = point,
  high = point,
  t: [number, number] = [low, high],
): IntervalView => ({ point, low, high, calibrated: { [METHOD]: { low: t[0], high: t[1] } } });
const checkOf = (i: GateInputs, condition: string, check: string) =>
  evaluateGate(protocol, i, satisfied, true).conditions[condition]!.checks[check]!;

describe("the gate", () => {
  it("passes a condition that matches FULL with far fewer tokens", () => {
    const gate = evaluateGate(protocol, inputs(), satisfied, true);
    expect(gate.status).toBe("PASS");
    expect(Object.values(gate.conditions).every((c) => c.passed && c.interval_passed)).toBe(true);
  });

  it.each([
    ["fact_recall", "required_fact_recall"],
    ["numeric_accuracy", "numeric_value_accuracy"],
    ["unit_accuracy", "unit_accuracy"],
    ["provenance_accuracy", "provenance_accuracy"],
  ])("%s: delta −0.02 passes (inclusive), just below fails", (check, metric) => {
    expect(checkOf(inputs({ [`SR-5|${metric}|delta`]: delta(-0.02) }), "SR-5", check).passed).toBe(true);
    expect(checkOf(inputs({ [`SR-5|${metric}|delta`]: delta(0.9 - 0.92) }), "SR-5", check).passed).toBe(true); // −0.020000000000000018
    expect(checkOf(inputs({ [`SR-5|${metric}|delta`]: delta(-0.0201) }), "SR-5", check).passed).toBe(false);
  });

  it("passes a null delta for numeric and unit accuracy only", () => {
    expect(
      checkOf(
        inputs({ "SR-5|numeric_value_accuracy|delta": { point: null, low: null, high: null } }),
        "SR-5",
        "numeric_accuracy",
      ).passed,
    ).toBe(true);
    expect(
      checkOf(
        inputs({ "SR-5|required_fact_recall|delta": { point: null, low: null, high: null } }),
        "SR-5",
        "fact_recall",
      ).passed,
    ).toBe(false);
  });

  it("unsupported_fact_rate: +0.01 passes, more fails", () => {
    expect(
      checkOf(inputs({ "SR-5|unsupported_fact_rate|delta": delta(0.01) }), "SR-5", "unsupported_fact_rate")
        .passed,
    ).toBe(true);
    expect(
      checkOf(inputs({ "SR-5|unsupported_fact_rate|delta": delta(0.0101) }), "SR-5", "unsupported_fact_rate")
        .passed,
    ).toBe(false);
  });

  it("contradiction_count: no more than FULL", () => {
    expect(
      checkOf(inputs({ "SR-5|contradiction_count|delta": delta(0) }), "SR-5", "contradiction_count").passed,
    ).toBe(true);
    expect(
      checkOf(inputs({ "SR-5|contradiction_count|delta": delta(0.001) }), "SR-5", "contradiction_count")
        .passed,
    ).toBe(false);
  });

  it("required_evidence_coverage: 0.97 passes, less fails", () => {
    expect(
      checkOf(
        inputs({ "SR-5|required_evidence_coverage|level": delta(0.97) }),
        "SR-5",
        "required_evidence_coverage",
      ).passed,
    ).toBe(true);
    expect(
      checkOf(
        inputs({ "SR-5|required_evidence_coverage|level": delta(0.9699) }),
        "SR-5",
        "required_evidence_coverage",
      ).passed,
    ).toBe(false);
  });

  it("total_input_tokens: strictly below FULL", () => {
    expect(
      checkOf(inputs({ "SR-5|input_tokens|delta": delta(-1) }), "SR-5", "total_input_tokens").passed,
    ).toBe(true);
    expect(
      checkOf(inputs({ "SR-5|input_tokens|delta": delta(0) }), "SR-5", "total_input_tokens").passed,
    ).toBe(false);
  });

  it("tool_schema_token_ratio: 0.40 of FULL passes, more fails", () => {
    expect(
      checkOf(inputs({ "SR-5|tool_schema_tokens|level": delta(400) }), "SR-5", "tool_schema_token_ratio")
        .passed,
    ).toBe(true);
    expect(
      checkOf(inputs({ "SR-5|tool_schema_tokens|level": delta(401) }), "SR-5", "tool_schema_token_ratio")
        .passed,
    ).toBe(false);
  });

  it("unauthorized_destructive_executions: zero passes, one fails", () => {
    expect(
      checkOf(
        inputs({}, { "SR-5|unauthorized_destructive_executions": 0 }),
        "SR-5",
        "unauthorized_destructive_executions",
      ).passed,
    ).toBe(true);
    expect(
      checkOf(
        inputs({}, { "SR-5|unauthorized_destructive_executions": 1 }),
        "SR-5",
        "unauthorized_destructive_executions",
      ).passed,
    ).toBe(false);
  });

  it("reports the interval verdict beside the point verdict", () => {
    const wide = evaluateGate(
      protocol,
      inputs({ "SR-5|required_fact_recall|delta": delta(-0.01, -0.05, 0.02) }),
      satisfied,
      true,
    ).conditions["SR-5"]!;
    expect([wide.passed, wide.interval_passed]).toEqual([true, false]);
  });

  it("uses the protocol's interval method for the interval verdict, and reports the percentile one too", () => {
    // Percentile says −0.015 (passes), the gate's method says −0.03 (fails): the protocol's method decides.
    const v = evaluateGate(
      protocol,
      inputs({ "SR-5|required_fact_recall|delta": delta(-0.005, -0.015, 0.01, [-0.03, 0.012]) }),
      satisfied,
      true,
    );
    const c = v.conditions["SR-5"]!;
    expect(v.interval_method).toBe(METHOD);
    expect([c.passed, c.interval_passed]).toEqual([true, false]);
    expect(c.checks["fact_recall"]).toMatchObject({ ci95: [-0.015, 0.01], ci95_gate: [-0.03, 0.012] });
  });

  it("fails the interval verdict when the gate's interval is unbounded below (null), whatever the estimate", () => {
    const view: IntervalView = {
      point: 0,
      low: -0.001,
      high: 0.001,
      calibrated: { [METHOD]: { low: null, high: 0.004 } },
    };
    const c = evaluateGate(protocol, inputs({ "SR-5|required_fact_recall|delta": view }), satisfied, true)
      .conditions["SR-5"]!;
    expect([c.passed, c.interval_passed]).toEqual([true, false]);
    expect(c.checks["fact_recall"]!.ci95_gate).toEqual([null, 0.004]);
  });

  it("is BLOCKED while the prerequisite is unmet, even when every condition passes", () => {
    const gate = evaluateGate(
      protocol,
      inputs(),
      {
        satisfied: false,
        blocking: [{ stage: "#432", reason: "pending" }],
      },
      true,
    );
    expect(gate.status).toBe("BLOCKED");
    expect(gate.any_deployable_condition_passed).toBe(true);
  });

  it("cannot pass an incomplete run set", () => {
    expect(evaluateGate(protocol, inputs({}, {}, false), satisfied, true).status).toBe("FAIL");
  });

  it("gives a gold-triggered run no verdict: NOT_GATED, labelled, even when every condition would pass", () => {
    const gate = evaluateGate(protocol, inputs(), satisfied, true, GOLD_TRIGGER_LABEL);
    expect([gate.status, gate.not_gated, gate.any_deployable_condition_passed, gateExitCode(gate)]).toEqual([
      "NOT_GATED",
      "gold-triggered widening (origin harness, not deployable)",
      false,
      3,
    ]);
    expect(verdictLine(gate)).toBe(
      "NOT_GATED: gold-triggered widening (origin harness, not deployable) — no verdict; its numbers are shown for comparison only",
    );
    // Its numbers are still there to compare; nothing says PASS or FAIL.
    expect(gate.conditions["SR-PROGRESSIVE"]?.passed).toBe(true);
    const blocked = evaluateGate(
      protocol,
      inputs(),
      { satisfied: false, blocking: [] },
      true,
      GOLD_TRIGGER_LABEL,
    );
    expect(blocked.status).toBe("NOT_GATED");
    expect("not_gated" in evaluateGate(protocol, inputs(), satisfied, true)).toBe(false);
  });

  it("gives per-catalog verdicts beside the pooled one", () => {
    expect(Object.keys(evaluateGate(protocol, inputs(), satisfied, true).per_catalog)).toEqual([
      "100",
      "250",
    ]);
  });
});
