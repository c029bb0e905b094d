import { describe, expect, it } from "vitest";
import {
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
