import { describe, expect, it } from "vitest";
import {
  BASELINE_FAILED_BELOW,
  baselineWarning,
  evaluateGate,
  type GateInputs,
  NOT_PREREGISTERED,
  onTheNumbers,
  renderGate,
  verdictLine,
} from "../../src/gates/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const blocked = { satisfied: false, blocking: [{ stage: "#432", reason: "is pending; needs succeeded" }] };
const satisfied = { satisfied: true, blocking: [] };

/** Every condition equals FULL (recall 0.9, fewer tokens), except SR-5's recall when `srFiveRecall` is given. */
function inputs(srFiveRecall?: number): GateInputs {
  return {
    complete: true,
    total: () => 0,
    statistic: (_s, condition, metric, kind) => {
      const tokens = metric === "input_tokens" || metric === "tool_schema_tokens";
      if (kind === "delta") {
        const d =
          condition === "SR-5" && metric === "required_fact_recall" && srFiveRecall !== undefined
            ? srFiveRecall - 0.9
            : tokens && metric === "input_tokens"
              ? -500
              : 0;
        return { point: d, low: d, high: d, calibrated: { bootstrap_t: { low: d, high: d } } };
      }
      const v = tokens
        ? condition === "FULL"
          ? 1000
          : 100
        : metric === "required_evidence_coverage"
          ? 1
          : 0.9;
      return { point: v, low: v, high: v };
    },
  };
}

describe("the verdict in words", () => {
  it("says beside BLOCKED what the numbers alone would say, naming the failing metrics per condition", () => {
    const gate = evaluateGate(protocol, inputs(0.5), blocked, true);
    expect(gate.status).toBe("BLOCKED");
    // SR-5 fails recall; SR-10 and SR-PROGRESSIVE pass every check, so the numbers would pass.
    expect(verdictLine(gate)).toBe(
      "BLOCKED by #432 — on the numbers: would PASS (SR-10, SR-PROGRESSIVE passes every check)",
    );
  });

  it("names the failing metric of every condition when none passes", () => {
    const failing = evaluateGate(protocol, inputs(0.5), blocked, true);
    const allFail = {
      ...failing,
      any_deployable_condition_passed: false,
      conditions: Object.fromEntries(
        Object.keys(failing.conditions).map((c) => [c, failing.conditions["SR-5"]!]),
      ),
    };
    expect(onTheNumbers(allFail)).toBe(
      "would FAIL (SR-5: required_fact_recall; SR-10: required_fact_recall; SR-PROGRESSIVE: required_fact_recall)",
    );
  });

  it("labels a verdict under a protocol that is not the preregistration, in the text and the JSON", () => {
    const gate = evaluateGate(protocol, inputs(), satisfied, false);
    expect(gate.status).toBe("PASS");
    expect(gate.preregistered).toBe(false);
    expect(verdictLine(gate)).toBe(`PASS — ${NOT_PREREGISTERED}`);
    expect(renderGate(gate).split("\n")[0]).toBe(`verdict: PASS — ${NOT_PREREGISTERED}`);
    expect(verdictLine(evaluateGate(protocol, inputs(), satisfied, true))).toBe("PASS");
  });

  it("names checks by their metric and prints the coverage check's level, not a delta", () => {
    const text = renderGate(evaluateGate(protocol, inputs(0.5), satisfied, true));
    expect(text).toMatch(/FAIL required_fact_recall\s+Δ\s+-0\.4000/);
    expect(text).toMatch(/ok {3}required_evidence_coverage\s+level\s+1\.0000 .*needs level ≥ 0\.97/);
    expect(text).not.toMatch(/ fact_recall /);
  });
});

/** The statistics of `inputs()` for the conditions given only: the rest were never run (no statistic at all). */
function only(conditions: readonly string[], base: GateInputs = inputs(), complete = false): GateInputs {
  return {
    complete,
    total: base.total,
    statistic: (selection, condition, metric, kind) =>
      conditions.includes(condition) ? base.statistic(selection, condition, metric, kind) : undefined,
  };
}

describe("conditions not run", () => {
  it("of a FULL-only run: no comparison condition, every deployable one fails, and the words say why", () => {
    const gate = evaluateGate(protocol, only(["FULL"]), satisfied, true);
    expect(gate.conditions_not_run).toEqual(["SR-5", "SR-10", "SR-PROGRESSIVE"]);
    expect(gate.status).toBe("FAIL");
    // The checks that pass a null delta (numeric, unit) and a total of nothing fail when nothing ran.
    for (const v of Object.values(gate.conditions)) {
      expect([v.passed, v.interval_passed]).toEqual([false, false]);
      expect(Object.values(v.checks).filter((c) => c.passed || c.interval_passed)).toEqual([]);
    }
    for (const v of Object.values(gate.per_catalog["100"] ?? {})) expect(v.passed).toBe(false);
    const reason = "no comparison condition was run: SR-5, SR-10, SR-PROGRESSIVE are not in the run files";
    expect(verdictLine(gate)).toBe(`FAIL (incomplete run set: cannot pass; ${reason})`);
    const text = renderGate(gate);
    expect(text).toContain("SR-5: not run (no episode in the run files): cannot pass");
    expect(text).not.toMatch(/^ {2}(ok|FAIL) /m); // no check line for a condition not run
    expect(onTheNumbers(evaluateGate(protocol, only(["FULL"]), blocked, true))).toBe(
      `would FAIL (incomplete run set; ${reason})`,
    );
  });

  it("of FULL and SR-5: SR-5 is judged on its numbers, the other two are named as not run", () => {
    const gate = evaluateGate(protocol, only(["FULL", "SR-5"], inputs(0.5)), blocked, true);
    expect(gate.conditions_not_run).toEqual(["SR-10", "SR-PROGRESSIVE"]);
    expect(gate.conditions["SR-5"]?.checks["numeric_accuracy"]?.passed).toBe(true);
    expect(gate.conditions["SR-5"]?.checks["fact_recall"]?.delta).toBeCloseTo(-0.4, 12);
    expect(onTheNumbers(gate)).toBe(
      "would FAIL (incomplete run set; not run: SR-10, SR-PROGRESSIVE; SR-5: required_fact_recall)",
    );
  });

  it("without the baseline: nothing to compare against, every condition fails, said once", () => {
    const gate = evaluateGate(protocol, only(["SR-5", "SR-10"]), blocked, true);
    expect(gate.conditions_not_run).toEqual(["FULL", "SR-PROGRESSIVE"]);
    expect(Object.values(gate.conditions).map((v) => v.passed)).toEqual([false, false, false]);
    expect(onTheNumbers(gate)).toBe(
      "would FAIL (incomplete run set; the baseline FULL was not run: nothing to compare against)",
    );
  });

  it("leaves a full matrix's gate as it was: no conditions_not_run key at all", () => {
    expect(Object.keys(evaluateGate(protocol, inputs(), satisfied, true))).not.toContain(
      "conditions_not_run",
    );
  });
});

describe("a failed baseline", () => {
  /** `inputs()` with the baseline's recall (and SR-5's, so the delta stays 0) at `recall`. */
  function baselineAt(recall: number): GateInputs {
    const base = inputs();
    return {
      ...base,
      statistic: (selection, condition, metric, kind) =>
        metric === "required_fact_recall" && kind === "level"
          ? { point: recall, low: recall, high: recall }
          : base.statistic(selection, condition, metric, kind),
    };
  }

  it("warns below 0.5 in the gate's text, right under the verdict, and the verdict itself is unchanged", () => {
    const failed = evaluateGate(protocol, baselineAt(0), satisfied, true);
    expect(failed.status).toBe("PASS"); // presentation only: the preregistered rule decides
    const warning =
      "WARNING: the FULL baseline's required fact recall is 0.000 (below 0.5): the baseline itself failed; non-inferiority against it says little";
    expect(baselineWarning(failed)).toBe(warning);
    expect(renderGate(failed).split("\n").slice(0, 2)).toEqual(["verdict: PASS", warning]);
    expect(BASELINE_FAILED_BELOW).toBe(0.5);
  });

  it("is silent at 0.5 and above (the boundary passes), and rounds a recall just under it down", () => {
    expect(baselineWarning(evaluateGate(protocol, baselineAt(0.5), satisfied, true))).toBeNull();
    expect(baselineWarning(evaluateGate(protocol, baselineAt(0.9), satisfied, true))).toBeNull();
    expect(baselineWarning(evaluateGate(protocol, baselineAt(0.4999), satisfied, true))).toContain(
      "is 0.499 (below 0.5)",
    );
    expect(renderGate(evaluateGate(protocol, baselineAt(0.5), satisfied, true))).not.toContain("WARNING");
  });
});
