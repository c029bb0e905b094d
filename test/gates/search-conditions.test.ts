/**
 * Search conditions (#34) in the gate: compared with FULL by the same checks (the coverage level
 * ≥ 0.97 included), and every verdict over them labelled not preregistered, even when the rest of
 * the protocol is.
 */
import { describe, expect, it } from "vitest";
import type { Protocol } from "../../src/authoring/index.ts";
import {
  conditionLabel,
  conditionsNotPreregistered,
  CONDITIONS_NOT_PREREGISTERED,
  evaluateGate,
  type GateInputs,
  NOT_PREREGISTERED,
  onTheNumbers,
  renderGate,
  verdictLine,
} from "../../src/gates/index.ts";
import { preregistrationOf } from "../../src/world/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const satisfied = { satisfied: true, blocking: [] };
const blocked = { satisfied: false, blocking: [{ stage: "#432", reason: "is pending; needs succeeded" }] };

/** A protocol entry the bundled union does not know yet: the condition package adds `search`. */
const search = (id: string, engine: "bm25" | "regex", executor = "fabench") =>
  ({
    id,
    deployable: true,
    visibility: { kind: "search", engine, k: 5, executor },
  }) as unknown as Protocol["conditions"][number];
const withSearch: Protocol = {
  ...protocol,
  conditions: [...protocol.conditions, search("SEARCH-BM25", "bm25"), search("SEARCH-REGEX", "regex")],
};

/**
 * Every condition as FULL (recall 0.9, coverage 1) with a tenth of its tokens, except SEARCH-REGEX,
 * which gathered 0.9 of the required evidence: its coverage check (level ≥ 0.97) must fail.
 */
const inputs: GateInputs = {
  complete: true,
  total: () => 0,
  statistic: (_s, condition, metric, kind) => {
    const tokens = metric === "input_tokens" || metric === "tool_schema_tokens";
    if (kind === "delta") {
      const d = metric === "input_tokens" && condition !== "FULL" ? -500 : 0;
      return { point: d, low: d, high: d, calibrated: { bootstrap_t: { low: d, high: d } } };
    }
    const v = tokens
      ? condition === "FULL"
        ? 1000
        : 100
      : metric === "required_evidence_coverage"
        ? condition === "SEARCH-REGEX"
          ? 0.9
          : 1
        : 0.9;
    return { point: v, low: v, high: v };
  },
};

describe("search conditions the preregistration does not name", () => {
  it("are the deployable conditions the bundled preregistration lacks or defines otherwise", () => {
    expect(conditionsNotPreregistered(withSearch, protocol)).toEqual(["SEARCH-BM25", "SEARCH-REGEX"]);
    expect(conditionsNotPreregistered(protocol, protocol)).toEqual([]);
    // A pilot's SR-5 that shows 7 routes is not the preregistered SR-5.
    const redefined: Protocol = {
      ...protocol,
      conditions: protocol.conditions.map((c) =>
        c.id === "SR-5" ? { ...c, visibility: { kind: "top_k" as const, k: 7 } } : c,
      ),
    };
    expect(conditionsNotPreregistered(redefined, protocol)).toEqual(["SR-5"]);
  });

  it("are what score and gate read against the bundled preregistration", () => {
    expect(preregistrationOf(protocol)).toEqual({ protocol: true, conditionsNot: [] });
    expect(preregistrationOf(withSearch)).toEqual({
      protocol: false,
      conditionsNot: ["SEARCH-BM25", "SEARCH-REGEX"],
    });
  });

  it("are judged against FULL by the same checks, the coverage level included", () => {
    const gate = evaluateGate(withSearch, inputs, satisfied, {
      protocol: false,
      conditionsNot: ["SEARCH-BM25", "SEARCH-REGEX"],
    });
    expect(Object.keys(gate.conditions)).toEqual([
      "SR-5",
      "SR-10",
      "SR-PROGRESSIVE",
      "SEARCH-BM25",
      "SEARCH-REGEX",
    ]);
    const bm25 = gate.conditions["SEARCH-BM25"]!;
    const regex = gate.conditions["SEARCH-REGEX"]!;
    expect(Object.keys(bm25.checks)).toEqual(Object.keys(gate.conditions["SR-5"]!.checks));
    expect(bm25.passed).toBe(true);
    // Tool-schema tokens 100 against FULL's 1000: ratio 0.1 ≤ 0.4.
    expect(bm25.checks["tool_schema_token_ratio"]!.delta).toBeCloseTo(0.1, 12);
    expect(regex.checks["required_evidence_coverage"]).toMatchObject({ value: 0.9, passed: false });
    expect(regex.passed).toBe(false);
    expect(gate.per_catalog["100"]!["SEARCH-REGEX"]!.passed).toBe(false);
    expect(gate.conditions_not_preregistered).toEqual(["SEARCH-BM25", "SEARCH-REGEX"]);
  });

  it("says so in the verdict line, each condition's line and what the numbers alone would say", () => {
    const gate = evaluateGate(withSearch, inputs, blocked, {
      protocol: false,
      conditionsNot: ["SEARCH-BM25", "SEARCH-REGEX"],
    });
    const label = `NOT PREREGISTERED conditions: SEARCH-BM25, SEARCH-REGEX (${CONDITIONS_NOT_PREREGISTERED})`;
    expect(onTheNumbers(gate)).toBe(
      "would PASS (SR-5, SR-10, SR-PROGRESSIVE, SEARCH-BM25 (not preregistered) passes every check)",
    );
    expect(verdictLine(gate)).toBe(
      `BLOCKED by #432 — on the numbers: ${onTheNumbers(gate)} — ${NOT_PREREGISTERED} — ${label}`,
    );
    const text = renderGate(gate);
    expect(text).toContain("\nSEARCH-BM25 (not preregistered): passes on point estimates;");
    expect(text).toContain("\nSEARCH-REGEX (not preregistered): fails on point estimates;");
    expect(text).toContain("\nSR-5: passes on point estimates");
    expect(conditionLabel(gate, "SR-10")).toBe("SR-10");
  });

  it("are labelled even inside an otherwise preregistered verdict", () => {
    const gate = evaluateGate(withSearch, inputs, satisfied, {
      protocol: true,
      conditionsNot: ["SEARCH-BM25"],
    });
    expect(verdictLine(gate)).toBe(
      `PASS — NOT PREREGISTERED conditions: SEARCH-BM25 (${CONDITIONS_NOT_PREREGISTERED})`,
    );
  });

  it("leave a gate without them as it was: no new key, the same line", () => {
    const gate = evaluateGate(protocol, inputs, satisfied, { protocol: true, conditionsNot: [] });
    expect("conditions_not_preregistered" in gate).toBe(false);
    expect(gate).toEqual(evaluateGate(protocol, inputs, satisfied, true));
    expect(verdictLine(gate)).toBe("PASS");
  });
});
