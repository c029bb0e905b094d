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
import { checkContext } from "../../src/commands/benchmark.ts";
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
/** A literature task whose melting point is quoted from the paper's sentence (`quote: "137.9"`, °C). */
const QUOTED = "v4-single_property_value_unit_provenance-de-02";
/** A distractor task whose forbidden 43.5 kg is the sum of both lots (a derived forbidden fact). */
const SUMMED = "v4-distractor_or_contradiction_resistance-ko-04";
/** A history read as a list spread over rows (`/entries`, item `/value`). */
const LISTED = "v4-multi_source_comparison-en-04";

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
      S4,
      (t) => (t.executor_fixture.responses[1]!.argument_rules = { artifact_id: { state: "artifact_uri" } }),
    ],
    // r1 now waits for the job id r2 reveals, and r2 for the artifact id r1 reveals: no order reaches either.
    [
      ["argument_state_cycle"],
      S4,
      (t) => (t.executor_fixture.responses[0]!.argument_rules = { material_id: { state: "job_id" } }),
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
      S4,
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
    // The only response that shows the record is no longer required; a required copy shows it under another id.
    [
      ["fact_not_in_evidence"],
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
    [
      ["evidence_source_mismatch"],
      S6,
      (t) => (t.forbidden_facts[1]!.source_id = t.forbidden_facts[2]!.source_id!),
    ],
    // The superseded 880 MPa made equal to the current 912 MPa: a right answer would read as a contradiction.
    [
      ["pointer_value_mismatch", "forbidden_fact_matches_required"],
      S6,
      (t) => (t.forbidden_facts[0]!.value = 912),
    ],
    [["tolerance_keys_mismatch"], S1, (t) => (t.numeric_tolerances = {})],
    [["answer_field_unit_not_accepted", "accepted_units_keys_mismatch"], S1, (t) => (t.accepted_units = {})],
    // The first S1 task asks for a yield strength the record gives in ksi.
    [
      ["answer_field_unit_not_accepted", "accepted_units_missing_canonical"],
      S1,
      (t) => (t.accepted_units = { yield_strength: ["MPa"] }),
    ],
    [
      ["accepted_unit_not_convertible"],
      S1,
      (t) => (t.accepted_units = { yield_strength: ["ksi", "kelvin"] }),
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
    [["answer_field_unit_not_accepted"], S1, (t) => (t.answer_fields[0]!.unit = "kelvin")],
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
    // 16 of the 24 corrective tasks need four routes (the other 8 need five, more than four can show).
    expect(report.errors).toHaveLength(16);
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
    expect(Object.keys(CONTENT_RULES).sort()).toEqual([
      "acceptedUnits",
      "allowedSources",
      "answerFields",
      "answerSlots",
      "argumentRules",
      "correctiveContract",
      "evidenceSources",
      "factEvidence",
      "forbiddenFactSources",
      "forbiddenFactsDistinct",
      "mandatoryFields",
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
    const errors = only(S1, (t) => (pointerOf(t).pointer = "/measurements/7/value"));
    expect(errors).toEqual([
      {
        code: "pointer_unresolved",
        semantic_task_id: "v4-single_property_value_unit_provenance-en-01",
        location: "index 0",
        line: 1,
        message:
          "required_facts[0] (yield_strength): pointer /measurements/7/value does not resolve in MATDB-TR-10417's payload",
      },
    ]);
  });

  it("catches a unit pointer that names nothing, and a source no observation shows", () => {
    expect(only(S1, (t) => (pointerOf(t).unit_pointer = "/units")).map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_unresolved",
        "required_facts[0] (yield_strength): unit_pointer /units does not resolve in MATDB-TR-10417's payload",
      ],
    ]);
    const errors = only(
      S6,
      (t) => ((t.forbidden_facts[1]!.evidence as EvidencePointer).source_id = "NOWHERE"),
    );
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      [
        "evidence_source_mismatch",
        "forbidden_facts[1] (yield_strength) cites ARCH2019-MATDB-TR-60114 but its evidence reads NOWHERE",
      ],
      [
        "pointer_unresolved",
        "forbidden_facts[1] (yield_strength): source NOWHERE is not in the task's observations",
      ],
    ]);
  });

  it("catches a wrong value: the record changed, or the gold changed", () => {
    const record = only(S1, (t) =>
      editPayload(
        t,
        "MATDB-TR-10417",
        (p) => ((p["measurements"] as Array<{ value: number }>)[0]!.value = 131.5),
      ),
    );
    expect(record.map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_value_mismatch",
        "required_facts[0] (yield_strength): MATDB-TR-10417/measurements/0/value holds 131.5 ksi, not the gold 128.4 ksi",
      ],
    ]);
    // Within tolerance (0.5 % of 128.4 ksi) still passes.
    expect(
      run(
        mutated(S1, (t) =>
          editPayload(
            t,
            "MATDB-TR-10417",
            (p) => ((p["measurements"] as Array<{ value: number }>)[0]!.value = 128.9),
          ),
        ),
      ).ok,
    ).toBe(true);
    const gold = only(S4, (t) => (t.required_facts[2]!.value = 184321));
    expect(gold.map((e) => e.code)).toEqual(["pointer_value_mismatch"]);
  });

  it("converts the record's unit to the fact's before comparing", () => {
    // 128.4 ksi = 885.3 MPa: the record rewritten in MPa still holds the gold value.
    const converted = mutated(S1, (t) =>
      editPayload(t, "MATDB-TR-10417", (p) => {
        const row = (p["measurements"] as Array<{ value: number; unit: string }>)[0]!;
        row.value = 885.3;
        row.unit = "MPa";
      }),
    );
    expect(run(converted).errors).toEqual([]);
    // A unit of another dimension cannot hold it.
    const errors = only(S1, (t) =>
      editPayload(
        t,
        "MATDB-TR-10417",
        (p) => ((p["measurements"] as Array<{ unit: string }>)[0]!.unit = "kg"),
      ),
    );
    expect(errors.map((e) => e.message)).toEqual([
      "required_facts[0] (yield_strength): MATDB-TR-10417/measurements/0/value is in kg, which does not convert to ksi",
    ]);
  });

  it("checks a quote: it must occur in the text at the pointer and be the gold value", () => {
    const moved = only(QUOTED, (t) => (pointerOf(t).quote = "139.7"));
    expect(moved.map((e) => e.code)).toEqual(["pointer_value_mismatch"]);
    expect(moved[0]!.message).toContain(
      'the quote "139.7" does not occur in the text at P-2020-1015/finding',
    );
    const text = only(
      S4,
      (t) =>
        (t.required_facts[1]!.evidence = { source_id: "EXPJOB-40103", pointer: "/state", quote: "succeed" }),
    );
    expect(text.map((e) => e.message)).toEqual([
      'required_facts[1] (job_state): the quote "succeed" is not the gold "succeeded"',
    ]);
  });

  it("checks a list spread over rows item by item", () => {
    const errors = only(LISTED, (t) => ((t.required_facts[1]!.value as number[])[2] = 142.9));
    expect(errors.map((e) => e.message)).toEqual([
      "required_facts[1] (glass_transition_series): item 2 at MATDB-HIST-30448/entries is 142.6, not the gold 142.9",
    ]);
  });

  it("catches an answer slot: a facts member, or a {value, unit} object keyed by a form key", () => {
    const facts = only(S1, (t) =>
      editPayload(
        t,
        "MATDB-TR-10417",
        (p) => (p["facts"] = { yield_strength: { value: 128.4, unit: "ksi" } }),
      ),
    );
    expect(facts.map((e) => [e.code, e.message])).toEqual([
      [
        "answer_slot_in_evidence",
        "response r1's observation hands over an answer slot at /sources/0/payload/facts",
      ],
      [
        "answer_slot_in_evidence",
        "response r1's observation hands over an answer slot at /sources/0/payload/facts/yield_strength",
      ],
    ]);
    const keyed = only(S6, (t) =>
      editPayload(
        t,
        "EUREP-MATDB-TR-60114",
        (p) => (p["summary"] = { yield_strength: { value: 885, unit: "MPa" } }),
      ),
    );
    expect(keyed.map((e) => [e.code, e.message])).toEqual([
      [
        "answer_slot_in_evidence",
        "response r5's observation hands over an answer slot at /sources/0/payload/summary/yield_strength",
      ],
    ]);
    // A member named by a form key that holds a plain value is a record's own field, not a slot.
    expect(
      run(
        mutated(S6, (t) =>
          editPayload(t, "EUREP-MATDB-TR-60114", (p) => (p["yield_strength"] = "see measurements")),
        ),
      ).ok,
    ).toBe(true);
  });

  it("recomputes a derived fact: the bundled sum of both lots, and a difference added by hand", () => {
    // 18.5 kg + 25.0 kg = 43.5 kg; any other value is caught.
    const sum = only(SUMMED, (t) => (t.forbidden_facts[1]!.value = 44));
    expect(sum.map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_value_mismatch",
        "forbidden_facts[1] (released_powder_quantity): the sum of INV-SNAP-60814/items/0/quantity, INV-SNAP-60814/items/1/quantity is 43.5 kg, not the gold 44",
      ],
    ]);
    // The multi-source task's current 862 MPa and previous 893 MPa: a change of −31 MPa (−0.031 GPa).
    const withChange = (value: number) =>
      mutated(S3, (t) => {
        const [current, previous] = t.required_facts as [
          (typeof t.required_facts)[0],
          (typeof t.required_facts)[0],
        ];
        t.required_facts.push({
          key: "yield_strength_change",
          value,
          unit: "GPa",
          source_id: current.source_id,
          evidence: {
            derived: "difference",
            inputs: [current.evidence as EvidencePointer, previous.evidence as EvidencePointer],
          },
        });
        t.answer_fields.push({
          key: "yield_strength_change",
          kind: "number",
          description: "change",
          unit: "GPa",
        });
        t.numeric_tolerances["yield_strength_change"] = { absolute: 0.0005 };
        t.accepted_units["yield_strength_change"] = ["GPa", "MPa"];
      });
    expect(run(withChange(-0.031)).errors).toEqual([]);
    const wrong = run(withChange(0.031)).errors;
    expect(wrong.map((e) => [e.code, e.message])).toEqual([
      [
        "pointer_value_mismatch",
        "required_facts[2] (yield_strength_change): the difference of MATDB-TR-30114/measurements/0/value, MATDB-HIST-30115/entries/0/value is -0.031 GPa, not the gold 0.031",
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
