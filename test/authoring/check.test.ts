/**
 * One test per content check: a small mutation of a valid task (or of the corpus header)
 * produces that check's code, and nothing else.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  checkCorpus,
  CONTENT_RULES,
  parseCorpusText,
  type CheckContext,
  type EvidencePointer,
  type Task,
} from "../../src/authoring/index.ts";
import { checkContext } from "../../src/world/index.ts";
import { canonicalSha256, normalizeQuery } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol, plan, catalogs, corpus } = bundled();
let context: CheckContext;
beforeAll(async () => {
  context = await checkContext({ protocol, catalogs });
});

function run(
  document: unknown,
  overrides: { context?: Partial<CheckContext>; prior?: Map<string, string> } = {},
) {
  return checkCorpus({
    corpus: parseCorpusText(JSON.stringify(document), "corpus.json"),
    protocol,
    protocolSha256: canonicalSha256(protocol),
    plan,
    catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    context: { ...context, ...overrides.context },
    priorQueries: overrides.prior ?? new Map(),
  });
}

type Mutable = Task & Record<string, unknown>;

/** The bundled tasks as a bare list (no header), with the task `id` (or the first of a stratum) changed by `mutate`. */
function mutated(which: string, mutate: (task: Mutable) => void): unknown[] {
  const tasks = structuredClone(corpus.tasks);
  const index = tasks.findIndex((t) => t.semantic_task_id === which || t.answer_task_stratum === which);
  expect(index).toBeGreaterThanOrEqual(0);
  mutate(tasks[index] as Mutable);
  return tasks;
}

/** Sets a value in a source's payload, in the observation that shows it and in evidence_payloads alike. */
function editPayload(task: Task, sourceId: string, edit: (payload: Record<string, unknown>) => void) {
  for (const r of task.executor_fixture.responses)
    for (const s of r.observation.sources) if (s.source_id === sourceId) edit(s.payload);
  for (const e of task.evidence_payloads) if (e.source_id === sourceId) edit(e.payload);
}

const pointerOf = (task: Task, i = 0) => task.required_facts[i]!.evidence as EvidencePointer;

const S1 = "single_property_value_unit_provenance";
const S3 = "multi_source_comparison";
const S4 = "transform_or_export_then_status_answer";
const S5 = "corrective_expansion_required";
const S6 = "distractor_or_contradiction_resistance";
/**
 * The first S1 task (en-01) asks in °F for a heat deflection temperature the record holds in degC
 * (203.6 degC = 398.48 °F, ±1 °F), row 2 of `properties` in MATDB-PS-1104-R7, with its test record id.
 */
const S1_SOURCE = "MATDB-PS-1104-R7";
/** One fact, a kinematic viscosity asked in mm²/s, the unit the LIMS row holds it in (`mm2/s`). */
const SAME_UNIT = "v4-single_property_value_unit_provenance-en-02";
/** A number with no record unit of its own: the as-found error is derived (reading − nominal, Pa). */
const DERIVED_FIRST = "v4-single_property_value_unit_provenance-ko-04";
/** A chain of reveals: the material record reveals the artifact, the export (r2) the job id the status (r3) needs. */
const CHAINED = "v4-transform_or_export_then_status_answer-en-04";
/** An export whose row count (4501) has no tolerance. */
const COUNTED = "v4-transform_or_export_then_status_answer-es-01";
/** A literature task whose digestion temperature is quoted from the paper's methods sentence (`quote: "210"`, °C). */
const QUOTED = "v4-literature_fact_with_source_attribution-en-03";
/** A distractor task whose forbidden 4.92 L is the sum of three containers, the expired one among them. */
const SUMMED = "v4-distractor_or_contradiction_resistance-es-04";
/** A list read from rows (`/authors`, item `/name`): a paper's registered authors, in order. */
const LISTED = "v4-literature_fact_with_source_attribution-de-01";

describe("the content checker", () => {
  it("passes the bundled corpus", () => {
    const report = run(corpus);
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ ok: true, task_count: 144, tasks_sha256: corpus.tasks_sha256 });
  });

  // [codes expected (in order), task or stratum, mutation]
  const cases: Array<[string[], string, (t: Mutable) => void]> = [
    [["invalid_task"], S1, (t) => (t["extra_field"] = 1)],
    [["required_routes_empty"], S1, (t) => (t.required_routes = [])],
    [
      ["required_routes_duplicate"],
      S1,
      (t) => (t.required_routes = ["materials.current", "materials.current"]),
    ],
    [["unknown_route"], S1, (t) => (t.required_routes = ["materials.nowhere"])],
    [["required_routes_fixture_mismatch"], S3, (t) => t.required_routes.reverse()],
    // A hard-negative response on a route no catalog has.
    [["unknown_route"], S1, (t) => (t.executor_fixture.responses[1]!.route_id = "materials_nowhere.current")],
    [
      ["argument_not_in_schema"],
      S1,
      (t) => (t.executor_fixture.responses[0]!.argument_rules = { materialId: { eq: "MAT-H20001" } }),
    ],
    [
      ["argument_state_unavailable"],
      CHAINED,
      (t) => (t.executor_fixture.responses[1]!.argument_rules["artifact_id"] = { state: "artifact_uri" }),
    ],
    // r1 now waits for the job id r2 reveals, and r2 for the artifact id r1 reveals: no order reaches either.
    [
      ["argument_state_cycle"],
      CHAINED,
      (t) => (t.executor_fixture.responses[0]!.argument_rules = { material_id: { state: "job_id" } }),
    ],
    // exports.export's format is an enum (csv, tsv, json, …): no valid call sends "banana".
    [
      ["argument_rule_violates_schema"],
      "v4-transform_or_export_then_status_answer-en-02",
      (t) => {
        const exported = t.executor_fixture.responses.find((r) => r.route_id === "exports.export");
        exported!.argument_rules["format"] = { eq: "banana" };
      },
    ],
    [["response_id_duplicate"], S6, (t) => (t.executor_fixture.responses[1]!.id = "r1")],
    [
      ["response_unreachable"],
      S1,
      (t) =>
        t.executor_fixture.responses.push({
          ...structuredClone(t.executor_fixture.responses[0]!),
          id: "r99",
        }),
    ],
    [
      ["pointer_unresolved"],
      CHAINED,
      (t) => (t.executor_fixture.responses[0]!.reveals = { artifact_id: "/sources/0/payload/nope" }),
    ],
    [["evidence_source_id_empty"], S1, (t) => t.evidence_payloads.push({ source_id: " ", payload: {} })],
    [
      ["evidence_source_id_duplicate"],
      S1,
      (t) => t.evidence_payloads.push(structuredClone(t.evidence_payloads[0]!)),
    ],
    [
      ["observation_source_mismatch"],
      S6,
      (t) => (t.evidence_payloads[0]!.payload["note"] = "edited after the fixture was frozen"),
    ],
    [["allowed_source_not_in_evidence"], S1, (t) => t.allowed_source_ids.push("SRC-ELSEWHERE")],
    [["fact_source_not_allowed"], S1, (t) => (t.required_facts[0]!.source_id = "SRC-ELSEWHERE")],
    // The fact cites the history record while its evidence reads the current one.
    [
      ["evidence_source_mismatch"],
      S3,
      (t) => (t.required_facts[0]!.source_id = t.required_facts[1]!.source_id),
    ],
    // The only response that shows the record is no longer required; a required copy shows it under
    // another id. Both facts of the task (the temperature and its test record id) read that record.
    [
      ["fact_not_in_evidence", "fact_not_in_evidence"],
      S1,
      (t) => {
        const [first] = t.executor_fixture.responses;
        const copy = structuredClone(first!);
        copy.id = "r98";
        copy.argument_rules = { material_id: { eq: "MAT-OTHER" } };
        copy.observation.sources[0]!.source_id = "MATDB-COPY";
        t.evidence_payloads.push(structuredClone(copy.observation.sources[0]!));
        first!.required = false;
        t.executor_fixture.responses.push(copy);
      },
    ],
    [["forbidden_fact_source_unknown"], S6, (t) => (t.forbidden_facts[0]!.source_id = "SRC-ELSEWHERE")],
    // The withdrawn revision read from the revision log, cited as the archive's.
    [
      ["evidence_source_mismatch"],
      S6,
      (t) => (t.forbidden_facts[1]!.source_id = t.forbidden_facts[3]!.source_id!),
    ],
    // The superseded 67.01 ksi made equal to the in-force 65.12 ksi: a right answer would read as a contradiction.
    [
      ["pointer_value_mismatch", "forbidden_fact_matches_required"],
      S6,
      (t) => (t.forbidden_facts[0]!.value = 65.12),
    ],
    [["tolerance_keys_mismatch"], S1, (t) => (t.numeric_tolerances = {})],
    [["answer_field_unit_not_accepted", "accepted_units_keys_mismatch"], S1, (t) => (t.accepted_units = {})],
    // A task whose record holds the asked unit, so other units may be accepted (no accepted_units_beyond_request).
    [
      ["answer_field_unit_not_accepted", "accepted_units_missing_canonical"],
      SAME_UNIT,
      (t) => (t.accepted_units = { kinematic_viscosity: ["m2/s"] }),
    ],
    [
      ["accepted_unit_not_convertible"],
      SAME_UNIT,
      (t) => (t.accepted_units = { kinematic_viscosity: ["mm2/s", "kelvin"] }),
    ],
    [["mandatory_field_not_required"], S1, (t) => t.mandatory_answer_fields.push("shear_modulus")],
    [["answer_field_missing"], S3, (t) => t.answer_fields.pop()],
    [
      ["answer_field_unscored"],
      S1,
      (t) => t.answer_fields.push({ key: "shear_modulus", kind: "number", description: "G", unit: "GPa" }),
    ],
    [["answer_field_duplicate"], S3, (t) => t.answer_fields.push(structuredClone(t.answer_fields[0]!))],
    [["answer_field_kind_mismatch"], S1, (t) => (t.answer_fields[0]!.kind = "identifier")],
    [["answer_field_kind_mismatch"], S4, (t) => (t.answer_fields[0]!.kind = "number")],
    // A derived number has no record unit, so asking for kelvin is only a unit the task does not accept.
    [["answer_field_unit_not_accepted"], DERIVED_FIRST, (t) => (t.answer_fields[0]!.unit = "kelvin")],
    [["answer_field_unit_not_accepted"], S4, (t) => (t.answer_fields[0]!.unit = "MB")],
    [["corrective_contract_missing"], S5, (t) => (t.corrective_contract = null)],
    [
      ["corrective_contract_invalid"],
      S5,
      (t) => (t.corrective_contract = { initial_candidate_miss: false, ground_truth_trigger_visible: false }),
    ],
    [
      ["corrective_contract_unexpected"],
      S1,
      (t) => (t.corrective_contract = { initial_candidate_miss: true, ground_truth_trigger_visible: false }),
    ],
  ];

  it.each(cases)("reports exactly %j for its mutation (%s)", (codes, which, mutate) => {
    const report = run(mutated(which, mutate));
    expect(report.errors.map((e) => e.code)).toEqual(codes);
    expect(report.ok).toBe(false);
    expect(report.tasks_sha256).toBeNull();
  });

  it("reports corrective_miss_not_guaranteed when the first stage could show every required route", () => {
    const report = run(corpus.tasks, { context: { firstStageSize: 4 } });
    expect(new Set(report.errors.map((e) => e.code))).toEqual(new Set(["corrective_miss_not_guaranteed"]));
    // 22 of the 24 corrective tasks need four routes (the other 2 need five, more than four can show).
    expect(report.errors).toHaveLength(22);
  });

  it("reports prior_query_overlap against an earlier surface", () => {
    const prior = new Map([
      [normalizeQuery(`  ${corpus.tasks[7]!.query.toUpperCase()} `), "old-surface.jsonl"],
    ]);
    const report = run(corpus.tasks, { prior });
    expect(report.errors.map((e) => [e.code, e.semantic_task_id])).toEqual([
      ["prior_query_overlap", corpus.tasks[7]!.semantic_task_id],
    ]);
  });

  it("also runs the identity checks", () => {
    const tasks = structuredClone(corpus.tasks);
    tasks[3]!.language = "ko";
    expect(run(tasks).errors.map((e) => e.code)).toEqual(["language_drift"]);
  });

  it("has a mutation test for every content rule", () => {
    // alsoIn and options: test/authoring/also-in-options.test.ts.
    expect(Object.keys(CONTENT_RULES).sort()).toEqual([
      "acceptedUnits",
      "allowedSources",
      "alsoIn",
      "answerFields",
      "answerSlots",
      "argumentRules",
      "argumentRulesInSchema",
      "correctiveContract",
      "evidenceSources",
      "factEvidence",
      "forbiddenFactSources",
      "forbiddenFactsDistinct",
      "mandatoryFields",
      "options",
      "requiredFactSources",
      "requiredRoutes",
      "responses",
      "reveals",
      "tolerances",
    ]);
  });
});

/** The three counterexamples and a derived fact, each with the row's line and the place inside it. */
describe("corpus check on evidence pointers (#26 item 2)", () => {
  const only = (which: string, mutate: (t: Mutable) => void) => {
    const report = run(mutated(which, mutate));
    expect(report.ok).toBe(false);
    return report.errors;
  };

  it("catches a broken pointer: pointer_unresolved, naming the fact and the pointer", () => {
    const errors = only(S1, (t) => (pointerOf(t).pointer = "/properties/7/value"));
    expect(errors).toEqual([
      {
        code: "pointer_unresolved",
        semantic_task_id: "v4-single_property_value_unit_provenance-en-01",
        location: "index 0",
        line: 1,
        message:
          "required_facts[0] (heat_deflection_temperature): pointer /properties/7/value does not resolve in MATDB-PS-1104-R7's payload",
      },
    ]);
  });

  it("catches a unit pointer that names nothing, and a source no observation shows", () => {
    expect(only(S1, (t) => (pointerOf(t).unit_pointer = "/units")).map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_unresolved",
        "required_facts[0] (heat_deflection_temperature): unit_pointer /units does not resolve in MATDB-PS-1104-R7's payload",
      ],
    ]);
    const errors = only(
      S6,
      (t) => ((t.forbidden_facts[1]!.evidence as EvidencePointer).source_id = "NOWHERE"),
    );
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      [
        "evidence_source_mismatch",
        "forbidden_facts[1] (compressive_yield_strength) cites MATDB-REVLOG-4107-CYS but its evidence reads NOWHERE",
      ],
      [
        "pointer_unresolved",
        "forbidden_facts[1] (compressive_yield_strength): source NOWHERE is not in the task's observations",
      ],
    ]);
  });

  it("catches a wrong value: the record changed, or the gold changed", () => {
    const record = only(S1, (t) =>
      editPayload(t, S1_SOURCE, (p) => ((p["properties"] as Array<{ value: number }>)[2]!.value = 190)),
    );
    // 190 degC = 190 × 9/5 + 32 = 374 °F, not 398.48 °F.
    expect(record.map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_value_mismatch",
        "required_facts[0] (heat_deflection_temperature): MATDB-PS-1104-R7/properties/2/value holds 190 degC = 374 degF, not the gold 398.48 degF",
      ],
    ]);
    // Within tolerance (±1 °F): 203.9 degC = 399.02 °F still passes.
    expect(
      run(
        mutated(S1, (t) =>
          editPayload(t, S1_SOURCE, (p) => ((p["properties"] as Array<{ value: number }>)[2]!.value = 203.9)),
        ),
      ).ok,
    ).toBe(true);
    // The export's 4501 rows, no tolerance: one row more is caught.
    // The row count also sits in another record the fact lists (also_in): both disagree with it.
    const gold = only(COUNTED, (t) => (t.required_facts[2]!.value = 4502));
    expect(gold.map((e) => e.code)).toEqual(["pointer_value_mismatch", "also_in_value_mismatch"]);
  });

  it("converts the record's unit to the fact's before comparing", () => {
    // 203.6 degC = 476.75 K: the record rewritten in kelvin still holds the gold 398.48 °F.
    const converted = mutated(S1, (t) =>
      editPayload(t, S1_SOURCE, (p) => {
        const row = (p["properties"] as Array<{ value: number; unit: string }>)[2]!;
        row.value = 476.75;
        row.unit = "K";
      }),
    );
    expect(run(converted).errors).toEqual([]);
    // A unit of another dimension cannot hold it.
    const errors = only(S1, (t) =>
      editPayload(t, S1_SOURCE, (p) => ((p["properties"] as Array<{ unit: string }>)[2]!.unit = "kg")),
    );
    expect(errors.map((e) => e.message)).toEqual([
      "required_facts[0] (heat_deflection_temperature): MATDB-PS-1104-R7/properties/2/value is in kg, which does not convert to degF",
    ]);
  });

  it("checks a quote: it must occur in the text at the pointer and be the gold value", () => {
    // The methods sentence says "210 °C"; "201" occurs nowhere in it.
    const moved = only(QUOTED, (t) => (pointerOf(t).quote = "201"));
    expect(moved.map((e) => e.code)).toEqual(["pointer_value_mismatch"]);
    expect(moved[0]!.message).toContain(
      'the quote "201" does not occur in the text at LIX-FT-2325-v1/paragraphs/1/text',
    );
    const text = only(
      S4,
      (t) =>
        (t.required_facts[1]!.evidence = { source_id: "RTJOB-6119", pointer: "/state", quote: "succeed" }),
    );
    expect(text.map((e) => e.message)).toEqual([
      'required_facts[1] (final_state): the quote "succeed" is not the gold "succeeded"',
    ]);
  });

  it("checks a list spread over rows item by item", () => {
    const errors = only(LISTED, (t) => ((t.required_facts[0]!.value as string[])[2] = "Nakamura, Rei"));
    expect(errors.map((e) => e.message)).toEqual([
      'required_facts[0] (registered_authors): item 2 at XREF-2795/authors is "Nakamura, Ren", not the gold "Nakamura, Rei"',
    ]);
  });

  it("catches an answer slot: a facts member, or a {value, unit} object keyed by a form key", () => {
    const facts = only(S1, (t) =>
      editPayload(
        t,
        S1_SOURCE,
        (p) => (p["facts"] = { heat_deflection_temperature: { value: 203.6, unit: "degC" } }),
      ),
    );
    expect(facts.map((e) => [e.code, e.message])).toEqual([
      [
        "answer_slot_in_evidence",
        "response r1's observation hands over an answer slot at /sources/0/payload/facts",
      ],
      [
        "answer_slot_in_evidence",
        "response r1's observation hands over an answer slot at /sources/0/payload/facts/heat_deflection_temperature",
      ],
    ]);
    // On the hard negative's record (the archive's revisions, r2).
    const keyed = only(S6, (t) =>
      editPayload(
        t,
        "MATDB-ARCHIVE-4107-CYS",
        (p) => (p["summary"] = { compressive_yield_strength: { value: 462, unit: "MPa" } }),
      ),
    );
    expect(keyed.map((e) => [e.code, e.message])).toEqual([
      [
        "answer_slot_in_evidence",
        "response r2's observation hands over an answer slot at /sources/0/payload/summary/compressive_yield_strength",
      ],
    ]);
    // A member named by a form key that holds a plain value is a record's own field, not a slot.
    expect(
      run(
        mutated(S6, (t) =>
          editPayload(
            t,
            "MATDB-ARCHIVE-4107-CYS",
            (p) => (p["compressive_yield_strength"] = "see revisions"),
          ),
        ),
      ).ok,
    ).toBe(true);
  });

  it("recomputes a derived fact: a bundled sum of containers, and a difference added by hand", () => {
    // 1900 mL + 2380 mL + 640 mL = 4920 mL = 4.92 L (the expired container counted); any other value is caught.
    const sum = only(SUMMED, (t) => (t.forbidden_facts[0]!.value = 5));
    expect(sum.map((e) => e.code)).toEqual(["pointer_value_mismatch"]);
    const said =
      /^forbidden_facts\[0\] \(usable_hplc_ipa\): the sum of (.+) is (\S+) L, not the gold 5$/.exec(
        sum[0]!.message,
      );
    expect(said?.[1]).toBe(
      "STOCK-FL4810-20260319/items/0/quantity, STOCK-FL4810-20260319/items/1/quantity, STOCK-FL4810-20260319/items/3/quantity",
    );
    // The sum is taken in litres, so it prints with float noise (4.919999999999999).
    expect(Number(said?.[2])).toBeCloseTo(4.92, 9);
    // The multi-source task's approved 1112 MPa and the standard's minimum 1070 MPa: a margin of 42 MPa (0.042 GPa).
    const withMargin = (value: number) =>
      mutated(S3, (t) => {
        const [approved, minimum] = t.required_facts as [
          (typeof t.required_facts)[0],
          (typeof t.required_facts)[0],
        ];
        t.required_facts.push({
          key: "tensile_margin_gpa",
          value,
          unit: "GPa",
          source_id: approved.source_id,
          evidence: {
            derived: "difference",
            inputs: [approved.evidence as EvidencePointer, minimum.evidence as EvidencePointer],
          },
        });
        t.answer_fields.push({
          key: "tensile_margin_gpa",
          kind: "number",
          description: "margin",
          unit: "GPa",
        });
        t.numeric_tolerances["tensile_margin_gpa"] = { absolute: 0.0005 };
        t.accepted_units["tensile_margin_gpa"] = ["GPa", "MPa"];
      });
    expect(run(withMargin(0.042)).errors).toEqual([]);
    const wrong = run(withMargin(-0.042)).errors;
    expect(wrong.map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_value_mismatch",
        "required_facts[4] (tensile_margin_gpa): the difference of MATDB-PROP-3112/properties/0/value, STD-LIM-3114/limits/1/min is 0.042 GPa, not the gold -0.042",
      ],
    ]);
  });
});

describe("the corpus header", () => {
  const headerCases: Array<[string, (d: Record<string, unknown>) => void]> = [
    ["invalid_corpus_header", (d) => (d["surprise"] = true)],
    ["protocol_hash_mismatch", (d) => (d["protocol_sha256"] = "0".repeat(64))],
    ["plan_hash_mismatch", (d) => (d["plan_slots_sha256"] = "1".repeat(64))],
    [
      "catalog_hash_mismatch",
      (d) => ((d["catalogs"] as Array<{ sha256: string }>)[1]!.sha256 = "2".repeat(64)),
    ],
    ["conditions_mismatch", (d) => (d["conditions"] = ["FULL", "SR-5"])],
    ["freeze_identity_mismatch", (d) => (d["generator_source_revision"] = "a".repeat(40))],
    ["task_count_mismatch", (d) => (d["task_count"] = 143)],
    ["tasks_hash_mismatch", (d) => (d["tasks_sha256"] = "3".repeat(64))],
  ];

  it.each(headerCases)("reports exactly %s when that header field is wrong", (code, mutate) => {
    const document = structuredClone(corpus) as unknown as Record<string, unknown>;
    mutate(document);
    const report = run(document);
    expect(report.errors.map((e) => [e.code, e.location])).toEqual([[code, "header"]]);
  });

  it("catches an edited task through tasks_sha256 as well as the content rule", () => {
    const document = structuredClone(corpus);
    document.tasks[0]!.required_facts[0]!.value = 131.5;
    expect(run(document).errors.map((e) => e.code)).toEqual([
      "tasks_hash_mismatch",
      "pointer_value_mismatch",
    ]);
  });
});
