/** Beside a FAIL, the report lists each failing condition's failed checks and where they failed. */
import { describe, expect, it } from "vitest";
import { failedChecks } from "../../src/report/html-gate.ts";
import type { Summary } from "../../src/summary/index.ts";

const check = (passed: boolean, delta: number) => ({
  metric: "required_fact_recall",
  rule: "delta_at_least",
  value: 1 + delta,
  full: 1,
  delta,
  threshold: -0.02,
  passed,
  ci95: null,
  ci95_gate: null,
  interval_passed: passed,
});

/** Only the gate is read. */
const summaryWith = (status: string, anyPassed: boolean) =>
  ({
    gate: {
      status,
      any_deployable_condition_passed: anyPassed,
      conditions: {
        "SR-5": { passed: false, interval_passed: false, checks: { fact_recall: check(false, -0.8) } },
        "SR-10": { passed: true, interval_passed: true, checks: { fact_recall: check(true, 0) } },
      },
      per_catalog: {
        "100": {
          "SR-5": { passed: false, interval_passed: false, checks: { fact_recall: check(false, -0.9) } },
        },
        "250": {
          "SR-5": { passed: true, interval_passed: true, checks: { fact_recall: check(true, -0.01) } },
        },
      },
    },
  }) as unknown as Summary;

describe("the failed checks beside the verdict", () => {
  it("names the metric, the pooled value, what it needs and where it failed, for failing conditions only", () => {
    const html = failedChecks(summaryWith("FAIL", false));
    expect(html).toBe(
      '<div id="failed-checks"><p>Checks that failed:</p><ul><li><strong>SR-5</strong>: <code>required_fact_recall</code> Δ -0.8000, needs Δ ≥ -0.02 (pooled, catalog 100)</li></ul></div>',
    );
  });

  it("says them under a BLOCKED that would fail on the numbers, and nothing beside a PASS", () => {
    expect(failedChecks(summaryWith("BLOCKED", false))).toContain("Checks that failed (on the numbers):");
    expect(failedChecks(summaryWith("BLOCKED", true))).toBe("");
    expect(failedChecks(summaryWith("PASS", true))).toBe("");
  });
});
