/**
 * `corpus check` on provenance by evidence and enumerations (#32): every `also_in` entry resolves
 * and holds the gold value as `evidence` would, options are sound, and an allowed record that holds
 * a value without being listed is reported (not failed). Small hand-built tasks, hand-computed values.
 */
import { describe, expect, it } from "vitest";
import {
  CONTENT_RULES,
  type CheckContext,
  type Evidence,
  type EvidencePointer,
  type RequiredFact,
  type Task,
  WARNING_RULES,
} from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";

const context = { units: await loadUnitConverter() } as CheckContext;

/**
 * SRC-A (the detail record: 71.7 GPa), SRC-B (a search hit: 71 700 MPa in a field named for its
 * unit), SRC-C (a history in MPa whose row 1 is 71 700 MPa = 71.7 GPa), SRC-D (71.9 GPa: outside
 * ±0.1), SRC-E (71.7 GPa, shown only by a response that is not required), SRC-F (the job record).
 */
const SOURCES: Evidence[] = [
  {
    source_id: "SRC-A",
    payload: { measurements: [{ property: "modulus", value: 71.7, unit: "GPa" }], state: "completed" },
  },
  { source_id: "SRC-B", payload: { hits: [{ material_id: "MAT-1", modulus_mpa: 71700 }] } },
  { source_id: "SRC-C", payload: { unit: "MPa", entries: [{ value: 70100 }, { value: 71700 }] } },
  { source_id: "SRC-D", payload: { value: 71.9, unit: "GPa", note: "the run completed without errors" } },
  { source_id: "SRC-E", payload: { value: 71.7, unit: "GPa" } },
  { source_id: "SRC-F", payload: { job_id: "JOB-7", state: "Completed", tags: ["raw", "tensile"] } },
];

const modulus: RequiredFact = {
  key: "modulus",
  value: 71.7,
  unit: "GPa",
  source_id: "SRC-A",
  evidence: { source_id: "SRC-A", pointer: "/measurements/0/value", unit_pointer: "/measurements/0/unit" },
};
const state: RequiredFact = {
  key: "state",
  value: "completed",
  unit: null,
  source_id: "SRC-A",
  evidence: { source_id: "SRC-A", pointer: "/state" },
};

function task(overrides: Partial<Task> = {}): Task {
  const shown = (ids: string[], required: boolean, id: string) => ({
    id,
    route_id: "materials.retrieve",
    argument_rules: {},
    observation: { status: "ok", sources: SOURCES.filter((s) => ids.includes(s.source_id)) },
    required,
  });
  return {
    semantic_task_id: "t-1",
    answer_task_stratum: "single_property_value_unit_provenance",
    language: "en",
    query: "What is the modulus, and did the run complete?",
    answer_fields: [
      { key: "modulus", kind: "number", description: "the modulus", unit: "GPa" },
      { key: "state", kind: "text", description: "the run's state", unit: null },
    ],
    required_routes: ["materials.retrieve"],
    executor_fixture: {
      responses: [
        shown(["SRC-A", "SRC-B", "SRC-C", "SRC-D", "SRC-F"], true, "r1"),
        shown(["SRC-E"], false, "r2"),
      ],
    },
    evidence_payloads: SOURCES,
    allowed_source_ids: SOURCES.map((s) => s.source_id),
    required_facts: [modulus, state],
    forbidden_facts: [],
    numeric_tolerances: { modulus: { absolute: 0.1 } },
    accepted_units: { modulus: ["GPa", "MPa"] },
    mandatory_answer_fields: ["modulus", "state"],
    corrective_contract: null,
    ...overrides,
  };
}

const withAlsoIn = (...also_in: EvidencePointer[]) =>
  task({ required_facts: [{ ...modulus, also_in }, state] });
/** The rules about sources, evidence, the form and also_in (the route rules need catalogs). */
const RULES = [
  "evidenceSources",
  "allowedSources",
  "requiredFactSources",
  "factEvidence",
  "answerFields",
  "alsoIn",
  "options",
];
const codes = (t: Task) => RULES.flatMap((name) => CONTENT_RULES[name]!(t, context)).map((p) => p.code);
const alsoIn = (t: Task) => CONTENT_RULES["alsoIn"]!(t, context);
const options = (t: Task) => CONTENT_RULES["options"]!(t, context);
const warnings = (t: Task) => WARNING_RULES["unlistedSources"]!(t, context);

describe("also_in", () => {
  it("passes entries that hold the gold value once converted (71 700 MPa = 71.7 GPa), with no other problem", () => {
    const t = withAlsoIn(
      { source_id: "SRC-B", pointer: "/hits/0/modulus_mpa", unit: "MPa" },
      { source_id: "SRC-C", pointer: "/entries/1/value", unit_pointer: "/unit" },
    );
    expect(codes(t)).toEqual([]);
  });

  it("refuses an entry whose value is not the gold, read as evidence is (70 100 MPa = 70.1 GPa; 71 700 read as GPa)", () => {
    const t = withAlsoIn(
      { source_id: "SRC-C", pointer: "/entries/0/value", unit_pointer: "/unit" },
      { source_id: "SRC-B", pointer: "/hits/0/modulus_mpa", unit: "GPa" },
      { source_id: "SRC-D", pointer: "/value", unit_pointer: "/unit" },
    );
    expect(alsoIn(t).map((p) => p.code)).toEqual([
      "also_in_value_mismatch",
      "also_in_value_mismatch",
      "also_in_value_mismatch",
    ]);
    expect(alsoIn(t)[0]?.message).toBe(
      "required_facts[0] (modulus) also_in[0] SRC-C: SRC-C/entries/0/value holds 70100 MPa = 70.1 GPa, not the gold 71.7 GPa",
    );
  });

  it("refuses an entry that does not resolve", () => {
    const t = withAlsoIn(
      { source_id: "SRC-B", pointer: "/hits/3/modulus_mpa", unit: "MPa" },
      { source_id: "SRC-C", pointer: "/entries/1/value", unit_pointer: "/units" },
    );
    expect(alsoIn(t).map((p) => p.code)).toEqual(["also_in_unresolved", "also_in_unresolved"]);
  });

  it("refuses a source that is not allowed, or that no response shows; one an optional response shows is accepted", () => {
    const notAllowed = {
      ...withAlsoIn({ source_id: "SRC-B", pointer: "/hits/0/modulus_mpa", unit: "MPa" }),
      allowed_source_ids: ["SRC-A"],
    };
    expect(alsoIn(notAllowed).map((p) => p.code)).toEqual(["also_in_not_allowed"]);
    // SRC-E is shown only by r2, which is not required: an agent that made that call may cite it.
    const optional = withAlsoIn({ source_id: "SRC-E", pointer: "/value", unit_pointer: "/unit" });
    expect(alsoIn(optional)).toEqual([]);
    const responses = optional.executor_fixture.responses.filter((r) => r.id !== "r2");
    const hidden = { ...optional, executor_fixture: { responses } };
    expect(alsoIn(hidden).map((p) => p.code)).toEqual(["also_in_not_in_evidence"]);
  });

  it("refuses the fact's own source, a repeated entry and a derived fact's input: each is accepted already", () => {
    const repeated = withAlsoIn(
      { source_id: "SRC-A", pointer: "/measurements/0/value", unit_pointer: "/measurements/0/unit" },
      { source_id: "SRC-B", pointer: "/hits/0/modulus_mpa", unit: "MPa" },
      { source_id: "SRC-B", pointer: "/hits/0/modulus_mpa", unit: "MPa" },
    );
    expect(alsoIn(repeated).map((p) => p.code)).toEqual(["also_in_duplicate", "also_in_duplicate"]);
    // 71.7 − 70.1 = 1.6 GPa, from SRC-A and SRC-C; SRC-C again in also_in adds nothing.
    const change: RequiredFact = {
      key: "modulus",
      value: 1.6,
      unit: "GPa",
      source_id: "SRC-A",
      evidence: {
        derived: "difference",
        inputs: [
          { source_id: "SRC-A", pointer: "/measurements/0/value", unit_pointer: "/measurements/0/unit" },
          { source_id: "SRC-C", pointer: "/entries/0/value", unit_pointer: "/unit" },
        ],
      },
      also_in: [{ source_id: "SRC-C", pointer: "/entries/0/value", unit_pointer: "/unit" }],
    };
    expect(alsoIn(task({ required_facts: [change, state] })).map((p) => p.code)).toEqual([
      "also_in_duplicate",
    ]);
  });
});

describe("options", () => {
  const form = (extra: Record<string, unknown>, key = "state") =>
    task({
      answer_fields: task().answer_fields.map((f) => (f.key === key ? { ...f, ...extra } : f)),
    });

  it("passes a text field whose gold is one of its options after the text normaliser", () => {
    expect(options(form({ options: ["Completed", "failed", "running"] }))).toEqual([]);
  });

  it("wants the gold among the options; a forbidden value need not be", () => {
    const t = {
      ...form({ options: ["failed", "running"] }),
      forbidden_facts: [
        { key: "state", value: "queued", unit: null, evidence: { source_id: "SRC-F", pointer: "/job_id" } },
      ],
    };
    expect(options(t)).toEqual([
      {
        code: "gold_not_in_options",
        message: 'the gold "completed" of state is none of its options (failed, running)',
      },
    ]);
  });

  it("refuses options that are the same text once normalised", () => {
    expect(options(form({ options: ["completed", " COMPLETED", "failed"] })).map((p) => p.code)).toEqual([
      "options_duplicate",
    ]);
  });

  it("refuses options on a field that is not text or a list of text", () => {
    expect(options(form({ options: ["71.7", "70.1"] }, "modulus")).map((p) => p.code)).toEqual([
      "options_on_wrong_kind",
    ]);
  });

  it("checks each item of a list of text", () => {
    const tags: RequiredFact = {
      key: "tags",
      value: ["raw", "tensile"],
      unit: null,
      source_id: "SRC-F",
      evidence: { source_id: "SRC-F", pointer: "/tags" },
    };
    const field = {
      key: "tags",
      kind: "list" as const,
      item_kind: "text" as const,
      description: "the tags",
      unit: null,
    };
    const t = (opts: string[]) =>
      task({
        answer_fields: [{ ...field, options: opts }],
        required_facts: [tags],
        numeric_tolerances: {},
        accepted_units: {},
      });
    expect(options(t(["raw", "tensile", "fatigue"]))).toEqual([]);
    expect(options(t(["raw", "fatigue"])).map((p) => p.message)).toEqual([
      'the gold "tensile" of tags is none of its options (raw, fatigue)',
    ]);
  });
});

describe("unlisted_source_holds_value", () => {
  it("reports every allowed, required record that holds a value without being listed", () => {
    // modulus: SRC-C row 1 (71 700 MPa, the rows' shared unit) = 71.7 GPa; SRC-B has no unit member
    // (71 700 read raw in GPa: no), SRC-D is 71.9 (outside ±0.1), SRC-E is only in a response that
    // is not required. state: SRC-F's "Completed" equals "completed" after the text normaliser; SRC-D's
    // sentence containing "completed" does not count (the gold is no quote).
    expect(warnings(task())).toEqual([
      {
        code: "unlisted_source_holds_value",
        message:
          "required_facts[0] (modulus): allowed source SRC-C holds 71.7 at /entries/1/value but is not in also_in (accepted: SRC-A)",
      },
      {
        code: "unlisted_source_holds_value",
        message:
          'required_facts[1] (state): allowed source SRC-F holds "completed" at /state but is not in also_in (accepted: SRC-A)',
      },
    ]);
  });

  it("is silent once the records are listed, and never fails the check", () => {
    const t = task({
      required_facts: [
        { ...modulus, also_in: [{ source_id: "SRC-C", pointer: "/entries/1/value", unit_pointer: "/unit" }] },
        { ...state, also_in: [{ source_id: "SRC-F", pointer: "/state" }] },
      ],
    });
    // SRC-F holds "Completed", not "completed": evidence reads text exactly, so listing it fails.
    expect(codes(t)).toEqual(["also_in_value_mismatch"]);
    expect(warnings(t)).toEqual([]);
    expect(codes(task())).toEqual([]);
  });

  it("is silent for a record reviewed as a coincidence, which may not also be accepted", () => {
    const why = "the job record's own state, not the run's";
    const reviewed = task({
      required_facts: [modulus, { ...state, coincidences: [{ source_id: "SRC-F", why }] }],
    });
    // Only the modulus finding is left; the reviewed state match is no longer reported.
    expect(warnings(reviewed).map((w) => w.message)).toEqual([
      "required_facts[0] (modulus): allowed source SRC-C holds 71.7 at /entries/1/value but is not in also_in (accepted: SRC-A)",
    ]);
    expect(codes(reviewed)).toEqual([]);
    const contradictory = task({
      required_facts: [modulus, { ...state, coincidences: [{ source_id: "SRC-A", why }] }],
    });
    expect(codes(contradictory)).toEqual(["coincidence_accepted"]);
  });
});
