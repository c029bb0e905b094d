import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlan, parsePlan, parseProtocol } from "../../src/authoring/index.ts";
import { canonicalSha256, formatJsonFile } from "../../src/core/index.ts";
import { bundledProtocol, smallProtocol } from "../helpers/protocol.ts";

const PLAN_PATH = "manifests/authoring-plan.json";

describe("the authoring plan", () => {
  it("has the preregistered slot hash for the bundled protocol", () => {
    const plan = buildPlan(bundledProtocol());
    expect(plan.slot_count).toBe(144);
    expect(plan.slots_sha256).toBe("4160525b5a3eba37288534f66f6ccf42d226c1cef9a2d21f66128129b97cfcc0");
  });

  it("orders slots by stratum, then language, then ordinal, with two-digit ids", () => {
    const { slots } = buildPlan(bundledProtocol());
    expect(slots[0]).toEqual({
      semantic_task_id: "v4-single_property_value_unit_provenance-en-01",
      answer_task_stratum: "single_property_value_unit_provenance",
      language: "en",
      ordinal_in_cell: 1,
    });
    expect(slots[4]?.semantic_task_id).toBe("v4-single_property_value_unit_provenance-ko-01");
    expect(slots.at(-1)?.semantic_task_id).toBe("v4-distractor_or_contradiction_resistance-mixed-04");
  });

  it("holds identity only: no slot carries a content key, and both authorisations are false", () => {
    const plan = buildPlan(bundledProtocol());
    expect(plan.content_generation_authorized).toBe(false);
    expect(plan.answer_inference_authorized).toBe(false);
    for (const slot of plan.slots)
      expect(Object.keys(slot).sort()).toEqual([
        "answer_task_stratum",
        "language",
        "ordinal_in_cell",
        "semantic_task_id",
      ]);
  });

  it("is byte-identical to the checked-in plan", () => {
    expect(formatJsonFile(buildPlan(bundledProtocol()))).toBe(readFileSync(PLAN_PATH, "utf8"));
  });

  it("follows another protocol's strata, languages and per-cell count", () => {
    const plan = buildPlan(smallProtocol(["alpha", "beta"], ["fr", "en", "sw"], 3));
    expect(plan.slot_count).toBe(18);
    expect(plan.slots.map((s) => s.semantic_task_id).slice(0, 4)).toEqual([
      "v4-alpha-fr-01",
      "v4-alpha-fr-02",
      "v4-alpha-fr-03",
      "v4-alpha-en-01",
    ]);
    expect(plan.slots_sha256).toBe(canonicalSha256(plan.slots));
  });

  it("pads ordinals to at least two digits and no more", () => {
    const plan = buildPlan(smallProtocol(["s"], ["l"], 100));
    expect(plan.slots[8]?.semantic_task_id).toBe("v4-s-l-09");
    expect(plan.slots[99]?.semantic_task_id).toBe("v4-s-l-100");
  });
});

describe("protocol coherence", () => {
  it("refuses a protocol whose counts do not add up, naming both counts", () => {
    const bad = { ...bundledProtocol(), expected_task_count: 145, expected_cell_count: 35 };
    const result = parseProtocol(bad, "p.json");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.code)).toEqual([
      "protocol_counts_mismatch",
      "protocol_counts_mismatch",
    ]);
  });

  it("reports unknown fields, duplicate ids and dangling references together", () => {
    const base = bundledProtocol();
    const unknownField = parseProtocol({ ...base, surprise: 1 }, "p.json");
    expect(unknownField.ok || unknownField.problems[0]?.code).toBe("invalid_protocol");
    const tangled = parseProtocol(
      {
        ...base,
        answer_task_strata: [...base.answer_task_strata.slice(0, 5), base.answer_task_strata[0]],
        baseline_condition: "NOPE",
      },
      "p.json",
    );
    expect(tangled.ok).toBe(false);
    if (tangled.ok) return;
    expect(tangled.problems.map((p) => p.code).sort()).toEqual([
      "protocol_duplicate_id",
      "protocol_unknown_reference",
    ]);
  });

  it("refuses a gate interval the selection rule did not pick, and a judge scale without an anchor per point", () => {
    const base = bundledProtocol();
    const other = base.statistics.gate_interval === "skew_t" ? "bootstrap_t" : "skew_t";
    const dimension = base.judge.dimensions[0]!;
    const { "3": _dropped, ...anchors } = dimension.anchors;
    const result = parseProtocol(
      {
        ...base,
        statistics: { ...base.statistics, gate_interval: other },
        judge: { ...base.judge, dimensions: [{ ...dimension, anchors }, ...base.judge.dimensions.slice(1)] },
      },
      "p.json",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.code}: ${p.message}`)).toEqual([
      `protocol_gate_interval_rule: statistics.gate_interval is ${other}, but gate_interval_rule selected ${base.statistics.gate_interval}`,
      `protocol_judge_scale: judge dimension ${dimension.id} needs exactly one anchor for each point 1–5`,
    ]);
  });

  it("records the bundled judge prompt's hash, so editing the prompt is a protocol change", () => {
    const base = bundledProtocol();
    const prompt = readFileSync(`manifests/${base.judge.prompt_file}`);
    expect(createHash("sha256").update(prompt).digest("hex")).toBe(base.judge.prompt_sha256);
  });
});

describe("parsePlan", () => {
  const plan = buildPlan(bundledProtocol());

  it("accepts the plan it built", () => {
    expect(parsePlan(JSON.parse(JSON.stringify(plan)), "p").ok).toBe(true);
  });

  it("catches an edited slot through the slot hash", () => {
    const edited = structuredClone(plan);
    edited.slots[3]!.language = "ko";
    const result = parsePlan(edited, "p");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["plan_hash_mismatch"]);
  });

  it("names content that leaked into a slot with its own code", () => {
    const leaked = structuredClone(plan) as unknown as { slots: Array<Record<string, unknown>> };
    leaked.slots[0]!["query"] = "What is the modulus?";
    const result = parsePlan(leaked, "p");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["plan_content_leak"]);
  });
});
