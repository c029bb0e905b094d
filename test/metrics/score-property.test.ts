import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { field, forbidden, formTask as makeTask, required } from "./form-task.ts";

const units = await loadUnitConverter();
const tasks = [
  makeTask(),
  makeTask({
    required_facts: [
      required("forecast_youngs_modulus", [147, 148], "GPa"),
      required("file_uri", "file:///x", null, "SRC-B"),
      required("location", "Cold room B-110", null),
      required("temperature_rise", 5, "K"),
      required("within_spec", true, null),
    ],
    answer_fields: [
      field("forecast_youngs_modulus", "list", { unit: "GPa", item_kind: "number" }),
      field("file_uri", "identifier"),
      field("location", "text"),
      field("temperature_rise", "number", { unit: "K", difference: true }),
      field("within_spec", "boolean"),
    ],
    forbidden_facts: [
      forbidden("forecast_youngs_modulus", 144, "GPa"),
      forbidden("location", "Lab “A”", null),
    ],
    numeric_tolerances: { temperature_rise: { absolute: 0.1 } },
    accepted_units: { forecast_youngs_modulus: ["GPa", "MPa"], temperature_rise: ["K", "degC", "degF"] },
    mandatory_answer_fields: ["file_uri"],
  }),
];

const key = fc.constantFrom(
  "youngs_modulus",
  "forecast_youngs_modulus",
  "file_uri",
  "location",
  "temperature_rise",
  "within_spec",
  "other",
  "",
);
const unit = fc.oneof(
  fc.constant(null),
  fc.constantFrom("GPa", "MPa", "kPa", "K", "°F", "deg C", "%", "µm", "N/mm²", "MPa√m", "1/K", "HV", "bogus"),
  fc.string(),
);
const fact = fc.record({
  key,
  value: fc.oneof(fc.jsonValue(), fc.double(), fc.array(fc.double(), { maxLength: 3 })),
  unit,
  source_id: fc.constantFrom("SRC-A", "SRC-B", "X", ""),
});
const envelopeLike = fc.record({
  answer: fc.string(),
  facts: fc.array(fact, { maxLength: 6 }),
  sources: fc.array(fc.constantFrom("SRC-A", "SRC-B", "Z"), { maxLength: 3 }),
});
const text = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  envelopeLike.map((v) => JSON.stringify(v)),
  envelopeLike.map((v) => `Answer follows. ${JSON.stringify(v)} Done.`),
);

const RATIOS = [
  "required_fact_recall",
  "numeric_value_accuracy",
  "unit_accuracy",
  "provenance_accuracy",
  "unsupported_fact_rate",
] as const;
const COUNTS = ["unsupported_fact_count", "duplicate_fact_count", "contradiction_count"] as const;

describe("the parser and scorer on arbitrary input", () => {
  it("never crash; ratios stay in [0, 1] or null; counts stay non-negative integers", () => {
    fc.assert(
      fc.property(text, fc.constantFrom(0, 1), (input, which) => {
        const score = scoreEpisode(tasks[which]!, parseEnvelope(input), units);
        for (const id of RATIOS) {
          const value = score.metrics[id];
          expect(value === null || (value >= 0 && value <= 1)).toBe(true);
        }
        for (const id of COUNTS)
          expect(Number.isInteger(score.metrics[id]) && score.metrics[id] >= 0).toBe(true);
        expect(score.metrics.unsupported_fact_count).toBeLessThanOrEqual(score.facts.length);
      }),
      { numRuns: 1500 },
    );
  });
});
