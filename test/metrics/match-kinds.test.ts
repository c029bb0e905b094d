/**
 * Units up to spelling and values by the kind of their answer-form field: the variants the #26
 * issue names, each scored as a whole envelope against a small hand-built v5 task.
 */
import { describe, expect, it } from "vitest";
import type { AnswerField, RequiredFact, Task, Tolerance } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { envelopeText, field, forbidden, formTask, required } from "./form-task.ts";

const units = await loadUnitConverter();

/** A task with one required fact of `key`, its form field, accepted units and tolerance. */
function oneFact(
  fact: RequiredFact,
  form: AnswerField,
  accepted: readonly string[] | null,
  tolerance?: Tolerance,
  extra: Partial<Task> = {},
): Task {
  return formTask({
    required_facts: [fact],
    answer_fields: [form],
    accepted_units: accepted === null ? {} : { [fact.key]: [...accepted] },
    numeric_tolerances: tolerance === undefined ? {} : { [fact.key]: tolerance },
    ...extra,
  });
}

function metrics(task: Task, value: unknown, unit: string | null) {
  const key = task.required_facts[0]!.key;
  const text = envelopeText([{ key, value, unit, source_id: "SRC-A" }]);
  return scoreEpisode(task, parseEnvelope(text), units).metrics;
}

/** [numeric_value_accuracy, unit_accuracy, required_fact_recall] */
const triple = (task: Task, value: unknown, unit: string | null) => {
  const m = metrics(task, value, unit);
  return [m.numeric_value_accuracy, m.unit_accuracy, m.required_fact_recall];
};

describe("units up to spelling", () => {
  // Each gold unit and accepted list is written the way the bundled corpus writes it.
  it.each([
    ["°C for a degC fact", "degC", ["degC", "K", "degF"], 870, "°C", 870],
    ["℃ for a degC fact", "degC", ["degC", "K"], 870, "℃", 870],
    ["deg C for a degC fact", "degC", ["degC"], 870, "deg C", 870],
    ["W/m/K for W/(m*K)", "W/(m*K)", ["W/(m*K)"], 21.9, "W/m/K", 21.9],
    ["W m-1 K-1 for W/(m*K)", "W/(m*K)", ["W/(m*K)"], 21.9, "W m-1 K-1", 21.9],
    ["W/(m·K) for W/(m*K)", "W/(m*K)", ["W/(m*K)"], 21.9, "W/(m·K)", 21.9],
    ["um for µm", "µm", ["µm"], 12.5, "um", 12.5],
    ["μm (Greek mu) for um", "um", ["um", "mm"], 12.5, "μm", 12.5],
    ["micron for um", "um", ["um"], 12.5, "micron", 12.5],
    ["g cm-3 for g/cm3", "g/cm3", ["g/cm3", "kg/m3"], 4.43, "g cm-3", 4.43],
    ["g/cm³ for g/cm3", "g/cm3", ["g/cm3"], 4.43, "g/cm³", 4.43],
    ["MPa√m for MPa*m^0.5", "MPa*m^0.5", ["MPa*m^0.5"], 55, "MPa√m", 55],
    ["MPa m^1/2 for MPa*m^0.5", "MPa*m^0.5", ["MPa*m^0.5"], 55, "MPa m^1/2", 55],
    ["MPa·m^0.5 for MPa*m^0.5", "MPa*m^0.5", ["MPa*m^0.5"], 55, "MPa·m^0.5", 55],
  ])("%s scores as correct", (_label, unit, accepted, gold, answerUnit, answer) => {
    const task = oneFact(required("q", gold, unit), field("q", "number", { unit }), accepted, {
      relative: 0.001,
    });
    expect(triple(task, answer, answerUnit)).toEqual([1, 1, 1]);
  });

  it("converts through the table: 1000 μm answered for 1 mm", () => {
    const task = oneFact(required("q", 1, "mm"), field("q", "number", { unit: "mm" }), ["mm", "um"], {
      absolute: 0.001,
    });
    expect(triple(task, 1000, "μm")).toEqual([1, 1, 1]);
  });

  it("scores a value in a convertible but not accepted unit numeric-correct and unit-wrong", () => {
    const task = oneFact(required("q", 870, "degC"), field("q", "number", { unit: "degC" }), ["degC"], {
      absolute: 1,
    });
    expect(triple(task, 1143.15, "K")).toEqual([1, 0, 0]);
    expect(triple(task, 1598, "°F")).toEqual([1, 0, 0]);
    const modulus = oneFact(required("q", 113.8, "GPa"), field("q", "number", { unit: "GPa" }), ["GPa"], {
      absolute: 0.1,
    });
    expect(triple(modulus, 16.5, "Msi")).toEqual([0, 0, 0]); // mathjs knows no Msi: the raw value is compared
    expect(triple(modulus, 113800, "MPa")).toEqual([1, 0, 0]);
  });

  it("keeps units case-sensitive: mS/cm is not MS/m, Mpa is no unit", () => {
    const task = oneFact(required("q", 5.9, "mS/cm"), field("q", "number", { unit: "mS/cm" }), ["mS/cm"], {
      relative: 0.01,
    });
    expect(triple(task, 5.9, "ms/cm")).toEqual([1, 0, 0]); // milliseconds per cm: no conversion, raw value
    const mpa = oneFact(required("q", 100, "MPa"), field("q", "number", { unit: "MPa" }), ["MPa"], {
      absolute: 1,
    });
    expect(triple(mpa, 100, "Mpa")).toEqual([1, 0, 0]);
  });

  it("accepts the unit the form asks for even when accepted_units forgets it", () => {
    const task = oneFact(required("q", 144, "GPa"), field("q", "number", { unit: "ksi" }), ["GPa"], {
      relative: 0.001,
    });
    expect(triple(task, 20885.5, "ksi")).toEqual([1, 1, 1]);
  });
});

describe("temperature differences", () => {
  const rise = (difference: boolean) =>
    oneFact(
      required("temperature_rise", 5, "K"),
      field("temperature_rise", "number", { unit: "K", difference }),
      ["K", "degC", "degF"],
      { absolute: 0.01 },
    );

  it("take 5 K as 5 °C and 9 °F when the field is a difference", () => {
    expect(triple(rise(true), 5, "°C")).toEqual([1, 1, 1]);
    expect(triple(rise(true), 9, "°F")).toEqual([1, 1, 1]);
    expect(triple(rise(true), 5, "K")).toEqual([1, 1, 1]);
    expect(triple(rise(true), 5, "°F")).toEqual([0, 1, 0]);
    expect(triple(rise(true), 278.15, "°C")).toEqual([0, 1, 0]);
  });

  it("convert temperatures with the offset otherwise", () => {
    expect(triple(rise(false), 5, "°C")).toEqual([0, 1, 0]);
    expect(triple(rise(false), -268.15, "°C")).toEqual([1, 1, 1]);
  });
});

describe("text and identifiers", () => {
  const text = (value: string) => oneFact(required("location", value, null), field("location", "text"), null);
  const identifier = (value: string) =>
    oneFact(required("lot_id", value, null), field("lot_id", "identifier"), null);
  const recall = (task: Task, value: unknown) => metrics(task, value, null).required_fact_recall;

  it("matches text in other case, spacing, quotes and dashes", () => {
    const task = text("Cold room B-110 — “north” shelf");
    for (const answer of [
      "cold room B-110 — “north” shelf",
      "  Cold  room\tB-110 — “north” shelf ",
      'COLD ROOM B-110 - "north" shelf',
      'Cold room B\u2010110 \u2013 "north" shelf', // U+2010 hyphen, en dash, straight quotes
      "Ｃｏｌｄ room B−110 ― „north“ shelf",
    ])
      expect(recall(task, answer)).toBe(1);
  });

  it("folds case fully (Straße is strasse) but keeps words, letters and punctuation", () => {
    expect(recall(text("Straße 7"), "STRASSE 7")).toBe(1);
    for (const answer of ["Cold room B110", "Cold room B-110.", "Cold-room B-110", "Cold room B-111"])
      expect(recall(text("Cold room B-110"), answer)).toBe(0);
  });

  it("matches an identifier only exactly, after NFKC and trimming", () => {
    const task = identifier("LOT-2024-A7");
    expect(recall(task, "LOT-2024-A7")).toBe(1);
    expect(recall(task, " LOT-2024-A7\n")).toBe(1);
    expect(recall(task, "ＬＯＴ-2024-Ａ7")).toBe(1); // full-width letters are the same after NFKC
    expect(recall(task, "lot-2024-a7")).toBe(0);
    expect(recall(task, "LOT–2024–A7")).toBe(0); // en dashes are other characters in an id
    expect(recall(task, "LOT-2024 -A7")).toBe(0);
  });

  it("never takes a number for a string", () => {
    expect(recall(identifier("4471"), 4471)).toBe(0);
  });
});

describe("booleans", () => {
  const task = oneFact(required("within_spec", true, null), field("within_spec", "boolean"), null);
  it("accept JSON true/false only", () => {
    const recall = (value: unknown) => metrics(task, value, null).required_fact_recall;
    expect(recall(true)).toBe(1);
    expect(recall(false)).toBe(0);
    for (const value of ["true", "yes", "Yes", 1, "1"]) expect(recall(value)).toBe(0);
  });
});

describe("lists", () => {
  const numbers = (ordered: boolean, tolerance?: Tolerance) =>
    oneFact(
      required("historical_youngs_modulus", [118, 119, 120], "GPa"),
      field("historical_youngs_modulus", "list", { unit: "GPa", ordered, item_kind: "number" }),
      ["GPa", "MPa"],
      tolerance,
    );
  const recall = (task: Task, value: unknown, unit: string | null = "GPa") =>
    metrics(task, value, unit).required_fact_recall;

  it("compare an ordered list in order, after conversion", () => {
    expect(recall(numbers(true), [118, 119, 120])).toBe(1);
    expect(recall(numbers(true), [118000, 119000, 120000], "MPa")).toBe(1);
    expect(recall(numbers(true), [120, 119, 118])).toBe(0);
  });

  it("compare an unordered list as a multiset", () => {
    expect(recall(numbers(false), [120, 118, 119])).toBe(1);
    expect(recall(numbers(false), [120000, 118000, 119000], "MPa")).toBe(1);
    for (const value of [[118, 119], [118, 119, 120, 120], [118, 118, 120], [118, 119, 121], "118, 119, 120"])
      expect(recall(numbers(false), value)).toBe(0);
  });

  it("pair items properly when a tolerance lets one answer item fit two gold items", () => {
    const task = oneFact(
      required("peaks", [10, 10.4], "GPa"),
      field("peaks", "list", { unit: "GPa", item_kind: "number" }),
      ["GPa"],
      { absolute: 0.5 },
    );
    // 10.3 fits both 10 and 10.4; 9.6 only 10: a first-fit pairing of 10.3 with 10 would miss.
    expect(recall(task, [10.3, 9.6])).toBe(1);
    expect(recall(task, [10.3, 10.3])).toBe(1);
    expect(recall(task, [9.6, 9.6])).toBe(0);
  });

  it("compare items by their item kind", () => {
    const rooms = (kind: "text" | "identifier") =>
      oneFact(
        required("rooms", ["Cold room B-110", "Lab A"], null),
        field("rooms", "list", { item_kind: kind }),
        null,
      );
    expect(recall(rooms("text"), ["lab a", "cold  room b–110"], null)).toBe(1);
    expect(recall(rooms("identifier"), ["Lab A", "Cold room B-110"], null)).toBe(1);
    expect(recall(rooms("identifier"), ["lab a", "cold room b-110"], null)).toBe(0);
  });

  it("are not numeric facts", () => {
    expect(metrics(numbers(true), [118, 119, 120], "GPa").numeric_value_accuracy).toBeNull();
  });
});

describe("forbidden facts by the same rules", () => {
  const contradictions = (task: Task, key: string, value: unknown, unit: string | null) =>
    scoreEpisode(task, parseEnvelope(envelopeText([{ key, value, unit, source_id: "SRC-Z" }])), units).metrics
      .contradiction_count;

  it("match a superseded text in other case and spacing, but not an identifier in other case", () => {
    const task = formTask({
      required_facts: [required("location", "Cold room B-110", null), required("lot_id", "LOT-7", null)],
      answer_fields: [field("location", "text"), field("lot_id", "identifier")],
      forbidden_facts: [forbidden("location", "Warm room “A-12”", null), forbidden("lot_id", "LOT-6", null)],
      numeric_tolerances: {},
      accepted_units: {},
    });
    expect(contradictions(task, "location", 'warm  ROOM "A-12"', null)).toBe(1);
    expect(contradictions(task, "lot_id", "LOT-6", null)).toBe(1);
    expect(contradictions(task, "lot_id", "lot-6", null)).toBe(0);
  });

  it("match a forbidden temperature difference given in °F, and a forbidden value in another spelling", () => {
    const task = formTask({
      required_facts: [required("temperature_rise", 5, "K")],
      answer_fields: [field("temperature_rise", "number", { unit: "K", difference: true })],
      forbidden_facts: [forbidden("temperature_rise", 8, "K")],
      numeric_tolerances: { temperature_rise: { absolute: 0.01 } },
      accepted_units: { temperature_rise: ["K", "degC", "degF"] },
    });
    expect(contradictions(task, "temperature_rise", 14.4, "°F")).toBe(1);
    expect(contradictions(task, "temperature_rise", 8, "deg C")).toBe(1);
    expect(contradictions(task, "temperature_rise", 9, "°F")).toBe(0);
  });

  it("match an unordered forbidden list in another order", () => {
    const task = formTask({
      required_facts: [required("rooms", ["B-110", "A-12"], null)],
      answer_fields: [field("rooms", "list", { item_kind: "identifier" })],
      forbidden_facts: [forbidden("rooms", ["B-110", "C-3"], null)],
      numeric_tolerances: {},
      accepted_units: {},
    });
    expect(contradictions(task, "rooms", ["C-3", "B-110"], null)).toBe(1);
    expect(contradictions(task, "rooms", ["A-12", "B-110"], null)).toBe(0);
  });
});
