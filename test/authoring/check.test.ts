/**
 * One test per content check: a one-field mutation of a valid task (or of the corpus header)
 * produces exactly that check's code, and nothing else.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  checkCorpus,
  CONTENT_RULES,
  parseCorpusText,
  type CheckContext,
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

/** The bundled tasks as a bare list (no header), with one task of `stratum` changed by `mutate`. */
function mutated(stratum: string, mutate: (task: Task & Record<string, unknown>) => void): unknown[] {
  const tasks = structuredClone(corpus.tasks);
  const index = tasks.findIndex((t) => t.answer_task_stratum === stratum);
  mutate(tasks[index] as Task & Record<string, unknown>);
  return tasks;
}

const S1 = "single_property_value_unit_provenance";
const S3 = "multi_source_comparison";
const S4 = "transform_or_export_then_status_answer";
const S5 = "corrective_expansion_required";
const S6 = "distractor_or_contradiction_resistance";

describe("the content checker", () => {
  it("passes the bundled corpus", () => {
    const report = run(corpus);
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ ok: true, task_count: 144, tasks_sha256: corpus.tasks_sha256 });
  });

  const cases: Array<[string, string, (t: Task & Record<string, unknown>) => void]> = [
    ["invalid_task", S1, (t) => (t["extra_field"] = 1)],
    ["required_routes_empty", S1, (t) => (t.required_routes = [])],
    [
      "required_routes_duplicate",
      S1,
      (t) => (t.required_routes = ["materials.current", "materials.current"]),
    ],
    ["unknown_route", S1, (t) => (t.required_routes = ["materials.nowhere"])],
    ["required_routes_fixture_mismatch", S3, (t) => t.required_routes.reverse()],
    [
      "argument_not_in_schema",
      S1,
      (t) => (t.executor_fixture.steps[0]!.argument_rules = { materialId: { eq: "MAT-H20001" } }),
    ],
    [
      "argument_state_unavailable",
      S4,
      (t) => (t.executor_fixture.steps[1]!.argument_rules = { artifact_id: { state: "artifact_uri" } }),
    ],
    [
      "evidence_source_id_empty",
      S1,
      (t) => t.evidence_payloads.push({ source_id: " ", payload: { facts: {} } }),
    ],
    [
      "evidence_source_id_duplicate",
      S1,
      (t) => t.evidence_payloads.push(structuredClone(t.evidence_payloads[0]!)),
    ],
    [
      "observation_source_mismatch",
      S6,
      (t) => (t.evidence_payloads[0]!.payload["note"] = "edited after the fixture was frozen"),
    ],
    ["allowed_source_not_in_evidence", S1, (t) => t.allowed_source_ids.push("SRC-ELSEWHERE")],
    ["fact_source_not_allowed", S1, (t) => (t.required_facts[0]!.source_id = "SRC-ELSEWHERE")],
    ["fact_not_in_evidence", S1, (t) => (t.required_facts[0]!.value = 999)],
    ["tolerance_keys_mismatch", S1, (t) => (t.numeric_tolerances = {})],
    ["accepted_units_keys_mismatch", S1, (t) => (t.accepted_units = {})],
    // The first S1 task asks for a yield strength the record gives in ksi.
    ["accepted_units_missing_canonical", S1, (t) => (t.accepted_units = { yield_strength: ["MPa"] })],
    ["accepted_unit_not_convertible", S1, (t) => (t.accepted_units = { yield_strength: ["ksi", "kelvin"] })],
    ["forbidden_fact_source_not_allowed", S6, (t) => (t.forbidden_facts[0]!.source_id = "SRC-ELSEWHERE")],
    ["mandatory_field_not_required", S1, (t) => t.mandatory_answer_fields.push("shear_modulus")],
    ["corrective_contract_missing", S5, (t) => (t.corrective_contract = null)],
    [
      "corrective_contract_invalid",
      S5,
      (t) => (t.corrective_contract = { initial_candidate_miss: false, ground_truth_trigger_visible: false }),
    ],
    [
      "corrective_contract_unexpected",
      S1,
      (t) => (t.corrective_contract = { initial_candidate_miss: true, ground_truth_trigger_visible: false }),
    ],
  ];

  it.each(cases)("reports exactly %s for its one-field mutation", (code, stratum, mutate) => {
    const report = run(mutated(stratum, mutate));
    expect(report.errors.map((e) => e.code)).toEqual([code]);
    expect(report.ok).toBe(false);
    expect(report.tasks_sha256).toBeNull();
    expect(report.errors[0]?.semantic_task_id).toContain(stratum);
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

  it("has a mutation test above for every content rule's codes", () => {
    expect(Object.keys(CONTENT_RULES).sort()).toEqual([
      "acceptedUnits",
      "allowedSources",
      "argumentRules",
      "correctiveContract",
      "evidenceSources",
      "forbiddenFactSources",
      "mandatoryFields",
      "requiredFactsDerivable",
      "requiredRoutes",
      "tolerances",
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
    expect(run(document).errors.map((e) => e.code)).toEqual(["tasks_hash_mismatch", "fact_not_in_evidence"]);
  });
});
