/**
 * Provenance by evidence (#32 item 1): a required fact accepts a citation of its own source, of any
 * record `also_in` lists as holding the same value and, for a derived fact, of any record it was
 * computed from — each still an allowed source. Expectations computed by hand.
 */
import { describe, expect, it } from "vitest";
import { acceptedSources, type RequiredFact, type Task } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { envelopeText, type Fact, formTask, required } from "./form-task.ts";

const units = await loadUnitConverter();

/** 144 GPa read in SRC-A's detail record, and also shown in SRC-B's search hit. */
const modulus: RequiredFact = {
  ...required("youngs_modulus", 144, "GPa", "SRC-A"),
  also_in: [{ source_id: "SRC-B", pointer: "/hits/0/modulus", unit: "GPa" }],
};
/** 12 GPa = SRC-A's 144 GPa − SRC-C's 132 GPa; the scorer never recomputes it. */
const change: RequiredFact = {
  key: "modulus_change",
  value: 12,
  unit: "GPa",
  source_id: "SRC-A",
  evidence: {
    derived: "difference",
    inputs: [
      { source_id: "SRC-A", pointer: "/modulus", unit: "GPa" },
      { source_id: "SRC-C", pointer: "/entries/0/value", unit: "GPa" },
    ],
  },
};

const task = (overrides: Partial<Task> = {}): Task =>
  formTask({
    required_facts: [modulus, change],
    allowed_source_ids: ["SRC-A", "SRC-B", "SRC-C", "SRC-D"],
    numeric_tolerances: { youngs_modulus: { absolute: 0.01 }, modulus_change: { absolute: 0.01 } },
    accepted_units: { youngs_modulus: ["GPa", "MPa"], modulus_change: ["GPa", "MPa"] },
    ...overrides,
  });
const fact = (key: string, value: number, source_id: string): Fact => ({
  key,
  value,
  unit: "GPa",
  source_id,
});
const score = (t: Task, facts: Fact[], sources: string[]) =>
  scoreEpisode(t, parseEnvelope(envelopeText(facts, sources)), units);

describe("acceptedSources", () => {
  it("is the fact's source, then every also_in source, then a derived fact's inputs, without repeats", () => {
    expect(acceptedSources(modulus)).toEqual(["SRC-A", "SRC-B"]);
    expect(acceptedSources(change)).toEqual(["SRC-A", "SRC-C"]);
    expect(acceptedSources(required("k", 1, null, "SRC-D"))).toEqual(["SRC-D"]);
    expect(
      acceptedSources({
        ...change,
        also_in: [
          { source_id: "SRC-C", pointer: "/delta" },
          { source_id: "SRC-D", pointer: "/d" },
        ],
      }),
    ).toEqual(["SRC-A", "SRC-C", "SRC-D"]);
  });
});

describe("a required fact accepts every allowed source that holds its value", () => {
  it("scores recall 1 and provenance 1 for every value right, citing the also_in record and the other input", () => {
    const s = score(
      task(),
      [fact("youngs_modulus", 144, "SRC-B"), fact("modulus_change", 12, "SRC-C")],
      ["SRC-B", "SRC-C"],
    );
    expect(s.metrics).toMatchObject({
      required_fact_recall: 1,
      provenance_accuracy: 1,
      unsupported_fact_count: 0,
      source_list_valid: true,
    });
    expect(s.facts.map((f) => f.reason)).toEqual(["licensed", "licensed"]);
  });

  it("takes the fact's own source and a derived fact's first input as before", () => {
    const m = score(
      task(),
      [fact("youngs_modulus", 144, "SRC-A"), fact("modulus_change", 12, "SRC-A")],
      ["SRC-A"],
    ).metrics;
    expect([m.required_fact_recall, m.provenance_accuracy, m.source_list_valid]).toEqual([1, 1, true]);
  });

  it("does not take an allowed record that does not hold the value", () => {
    // SRC-C holds the 2019 value, not today's 144 GPa; SRC-D is allowed but neither holds nor computes either.
    const s = score(
      task(),
      [fact("youngs_modulus", 144, "SRC-C"), fact("modulus_change", 12, "SRC-D")],
      ["SRC-C", "SRC-D"],
    );
    // Both values right, both sources wrong: recall 0 / 2, provenance 0 / 2, value accuracy 2 / 2.
    expect(s.metrics).toMatchObject({
      required_fact_recall: 0,
      provenance_accuracy: 0,
      numeric_value_accuracy: 1,
      unsupported_fact_count: 2,
    });
    expect(s.facts.map((f) => f.reason)).toEqual([
      "source is not one of SRC-A, SRC-B",
      "source is not one of SRC-A, SRC-C",
    ]);
  });

  it("scores one right citation and one wrong one as half", () => {
    const m = score(
      task(),
      [fact("youngs_modulus", 144, "SRC-B"), fact("modulus_change", 12, "SRC-B")],
      ["SRC-B"],
    ).metrics;
    // youngs_modulus from SRC-B (also_in): hit; modulus_change from SRC-B (not an input): miss. 1 / 2.
    expect([m.required_fact_recall, m.provenance_accuracy]).toEqual([0.5, 0.5]);
  });

  it("still wants the cited record to be allowed, however it is listed", () => {
    const t = task({ allowed_source_ids: ["SRC-A"] });
    const m = score(
      t,
      [fact("youngs_modulus", 144, "SRC-B"), fact("modulus_change", 12, "SRC-C")],
      ["SRC-B", "SRC-C"],
    ).metrics;
    expect([m.required_fact_recall, m.provenance_accuracy, m.source_list_valid]).toEqual([0, 0, false]);
  });

  it("wants the source a licensed fact cites in the source list, not the fact's own", () => {
    const facts = [fact("youngs_modulus", 144, "SRC-B"), fact("modulus_change", 12, "SRC-C")];
    // SRC-A is the facts' own source but neither answer cites it; SRC-C is cited and not listed.
    expect(score(task(), facts, ["SRC-A", "SRC-B"]).metrics.source_list_valid).toBe(false);
    expect(score(task(), facts, ["SRC-B", "SRC-C"]).metrics.source_list_valid).toBe(true);
  });
});
