import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { envelopeText, type Fact, forbidden, formTask as makeTask, required } from "./form-task.ts";

const units = await loadUnitConverter();
const fact = (
  value: unknown,
  unit: string | null = "GPa",
  source_id = "SRC-A",
  key = "youngs_modulus",
): Fact => ({ key, value, unit, source_id });
const score = (task: Task, facts: Fact[], sources?: string[]) =>
  scoreEpisode(task, parseEnvelope(envelopeText(facts, sources)), units);
const metrics = (task: Task, facts: Fact[], sources?: string[]) => score(task, facts, sources).metrics;

describe("numeric tolerances", () => {
  it.each([
    ["absolute, exactly at the bound", { absolute: 0.01 }, 1, 1.01, true],
    ["absolute, exactly at the lower bound", { absolute: 0.01 }, 144, 143.99, true],
    ["absolute, just past", { absolute: 0.01 }, 144, 144.0101, false],
    ["relative, exactly at the bound", { relative: 0.01 }, 200, 202, true],
    ["relative, just past", { relative: 0.01 }, 200, 202.001, false],
    ["both, only the absolute bound holds", { absolute: 5, relative: 0.001 }, 200, 204, true],
    ["both, only the relative bound holds", { absolute: 0.1, relative: 0.05 }, 200, 209, true],
    ["both, neither holds", { absolute: 0.1, relative: 0.01 }, 200, 203, false],
  ])("%s", (_label, tolerance, expected, emitted, ok) => {
    const task = makeTask({
      required_facts: [required("youngs_modulus", expected, "GPa", "SRC-A")],
      numeric_tolerances: { youngs_modulus: tolerance },
    });
    expect(metrics(task, [fact(emitted)]).numeric_value_accuracy).toBe(ok ? 1 : 0);
    expect(metrics(task, [fact(emitted)]).required_fact_recall).toBe(ok ? 1 : 0);
  });

  it("requires exact equality without a configured tolerance", () => {
    const task = makeTask({ numeric_tolerances: {} });
    expect(metrics(task, [fact(144)]).numeric_value_accuracy).toBe(1);
    expect(metrics(task, [fact(144.000001)]).numeric_value_accuracy).toBe(0);
  });

  it("treats a string where a number is required as a miss, even if it reads the same", () => {
    expect(metrics(makeTask(), [fact("144")]).numeric_value_accuracy).toBe(0);
    expect(metrics(makeTask(), [fact(true)]).numeric_value_accuracy).toBe(0);
  });
});

describe("units", () => {
  it("converts an accepted label before comparing: 117400 MPa is 117.4 GPa", () => {
    const task = makeTask({
      required_facts: [required("youngs_modulus", 117.4, "GPa", "SRC-A")],
      numeric_tolerances: {},
    });
    const m = metrics(task, [fact(117400, "MPa")]);
    expect([m.numeric_value_accuracy, m.unit_accuracy, m.required_fact_recall]).toEqual([1, 1, 1]);
  });

  it("converts the other way when the canonical unit is the smaller one", () => {
    const task = makeTask({
      required_facts: [required("youngs_modulus", 117400, "MPa", "SRC-A")],
      accepted_units: { youngs_modulus: ["MPa", "GPa"] },
    });
    expect(metrics(task, [fact(117.4, "GPa")]).required_fact_recall).toBe(1);
  });

  it("never takes 144 kPa for 144 GPa, and does not accept an unlisted label", () => {
    const m = metrics(makeTask(), [fact(144, "kPa")]);
    expect([m.numeric_value_accuracy, m.unit_accuracy, m.required_fact_recall]).toEqual([0, 0, 0]);
    const converted = metrics(makeTask(), [fact(144_000_000, "kPa")]);
    expect([converted.numeric_value_accuracy, converted.unit_accuracy]).toEqual([1, 0]);
  });

  it("compares the raw value when the label cannot be converted", () => {
    const m = metrics(makeTask(), [fact(144, "gigapascals-ish")]);
    expect([m.numeric_value_accuracy, m.unit_accuracy]).toEqual([1, 0]);
  });

  it("wants no unit on a unitless fact, and takes an empty label for none", () => {
    const task = makeTask({
      required_facts: [required("file_uri", "file:///tmp/a.json", null, "SRC-B")],
      numeric_tolerances: {},
      accepted_units: {},
      mandatory_answer_fields: ["file_uri"],
    });
    const uri = (unit: string | null) => fact("file:///tmp/a.json", unit, "SRC-B", "file_uri");
    expect(metrics(task, [uri(null)], ["SRC-B"]).required_fact_recall).toBe(1);
    expect(metrics(task, [uri("")], ["SRC-B"]).required_fact_recall).toBe(1);
    expect(metrics(task, [uri(" ")], ["SRC-B"]).required_fact_recall).toBe(1);
    expect(metrics(task, [uri("B")], ["SRC-B"]).required_fact_recall).toBe(0);
    expect(metrics(task, [uri(null)]).unit_accuracy).toBeNull();
  });

  it("never takes an empty label for the unit of a unit-bearing fact", () => {
    const m = metrics(makeTask(), [fact(144, "")]);
    expect([m.numeric_value_accuracy, m.unit_accuracy, m.required_fact_recall]).toEqual([1, 0, 0]);
  });
});

describe("provenance, support and duplicates", () => {
  it("counts a right value with the wrong source as a numeric hit and a provenance miss", () => {
    const m = metrics(makeTask(), [fact(144, "GPa", "SRC-B")]);
    expect([
      m.numeric_value_accuracy,
      m.unit_accuracy,
      m.provenance_accuracy,
      m.required_fact_recall,
      m.unsupported_fact_count,
    ]).toEqual([1, 1, 0, 0, 1]);
  });

  it("does not accept the required source when it is not allowed", () => {
    const task = makeTask({ allowed_source_ids: ["SRC-B"] });
    expect(metrics(task, [fact(144)]).provenance_accuracy).toBe(0);
  });

  it("counts a repeated licensed fact once everywhere and as one duplicate", () => {
    const s = score(makeTask(), [fact(144), fact(144000, "MPa"), fact(144)]);
    expect(s.metrics).toMatchObject({
      required_fact_recall: 1,
      numeric_value_accuracy: 1,
      unsupported_fact_count: 0,
      unsupported_fact_rate: 0,
      duplicate_fact_count: 2,
    });
    expect(s.facts.map((f) => f.duplicate)).toEqual([false, true, true]);
    expect(s.facts[1]?.reason).toBe("duplicate of fact 0");
  });

  it("lets each accuracy look at its own dimension, across different facts of one key", () => {
    // One fact has the value, another the unit, a third the source: no single fact is licensed.
    const m = metrics(makeTask(), [
      fact(144, "Gpa", "SRC-B"),
      fact(1, "GPa", "SRC-B"),
      fact(1, "Gpa", "SRC-A"),
    ]);
    expect([
      m.numeric_value_accuracy,
      m.unit_accuracy,
      m.provenance_accuracy,
      m.required_fact_recall,
    ]).toEqual([1, 1, 1, 0]);
    expect([m.unsupported_fact_count, m.unsupported_fact_rate]).toEqual([3, 1]);
  });

  it("counts facts of other keys as unsupported", () => {
    const m = metrics(makeTask(), [fact(144), fact(8.9, "g/cm^3", "SRC-A", "density")]);
    expect([m.required_fact_recall, m.unsupported_fact_count, m.unsupported_fact_rate]).toEqual([1, 1, 0.5]);
  });

  it("checks the source list: listed sources allowed, licensed sources listed", () => {
    expect(metrics(makeTask(), [fact(144)], ["SRC-A"]).source_list_valid).toBe(true);
    expect(metrics(makeTask(), [fact(144)], []).source_list_valid).toBe(false);
    expect(metrics(makeTask(), [fact(144)], ["SRC-A", "SRC-Z"]).source_list_valid).toBe(false);
  });
});

describe("contradictions", () => {
  const task = makeTask({
    required_facts: [required("forecast_youngs_modulus", [147, 148], "GPa", "SRC-A")],
    forbidden_facts: [
      forbidden("forecast_youngs_modulus", 144, "GPa"),
      forbidden("forecast_youngs_modulus", [144, 145], "GPa"),
    ],
    numeric_tolerances: {},
    accepted_units: { forecast_youngs_modulus: ["GPa", "MPa"] },
    mandatory_answer_fields: ["forecast_youngs_modulus"],
  });
  const f = (value: unknown, unit = "GPa", source = "SRC-A") =>
    fact(value, unit, source, "forecast_youngs_modulus");

  it("match a forbidden scalar and a forbidden list, whatever the source, after conversion", () => {
    expect(metrics(task, [f(144, "GPa", "SRC-Z")]).contradiction_count).toBe(1);
    expect(metrics(task, [f([144000, 145000], "MPa")]).contradiction_count).toBe(1);
    expect(metrics(task, [f([147, 148]), f(144), f([144, 145])]).contradiction_count).toBe(2);
  });

  it("do not match the right answer or a different value", () => {
    expect(metrics(task, [f([147, 148]), f(143)]).contradiction_count).toBe(0);
  });

  it("use the key's tolerance for numeric forbidden values", () => {
    const tolerant = {
      ...task,
      required_facts: [required("forecast_youngs_modulus", 147, "GPa", "SRC-A")],
      numeric_tolerances: { forecast_youngs_modulus: { absolute: 0.5 } },
    };
    expect(metrics(tolerant, [f(144.4)]).contradiction_count).toBe(1);
    expect(metrics(tolerant, [f(144.6)]).contradiction_count).toBe(0);
  });
});

describe("malformed and empty answers", () => {
  it.each([
    "",
    "no json here",
    "[1]",
    '{"answer":"x"}',
    '{"answer":1,"facts":[],"sources":[]}',
    '{"answer":"x","facts":[1],"sources":[]}',
  ])("scores %j as an answer failure", (text) => {
    const s = scoreEpisode(makeTask(), parseEnvelope(text), units);
    expect(s.envelope_valid).toBe(false);
    expect(s.metrics).toEqual({
      required_fact_recall: 0,
      numeric_value_accuracy: 0,
      unit_accuracy: 0,
      provenance_accuracy: 0,
      unsupported_fact_count: 0,
      unsupported_fact_rate: 0,
      duplicate_fact_count: 0,
      contradiction_count: 0,
      mandatory_field_completion: false,
      envelope_valid: false,
      source_list_valid: false,
    });
  });

  it("gives null numeric and unit accuracy on a malformed answer when the task has no such facts", () => {
    const task = makeTask({
      required_facts: [required("paper_text", "x", null, "SRC-A")],
      numeric_tolerances: {},
      accepted_units: {},
      mandatory_answer_fields: [],
    });
    const s = scoreEpisode(task, parseEnvelope("nope"), units);
    expect([
      s.metrics.numeric_value_accuracy,
      s.metrics.unit_accuracy,
      s.metrics.mandatory_field_completion,
    ]).toEqual([null, null, false]);
  });

  it("scores a valid envelope without facts as recall 0 and rate 0", () => {
    const m = metrics(makeTask(), []);
    expect([
      m.required_fact_recall,
      m.unsupported_fact_rate,
      m.mandatory_field_completion,
      m.envelope_valid,
    ]).toEqual([0, 0, false, true]);
  });

  it("refuses extra keys as a malformed envelope", () => {
    const s = scoreEpisode(
      makeTask(),
      parseEnvelope(JSON.stringify({ answer: "", facts: [fact(144)], sources: ["SRC-A"], confidence: 1 })),
      units,
    );
    expect([s.malformed_reason, s.metrics.required_fact_recall]).toEqual(["wrong_keys", 0]);
  });
});
