/**
 * A few hand-written tasks in the v5 contract (answer form, evidence pointers, a fixture of
 * responses matched in any order) on the bundled catalogs' routes: what the executor, loop,
 * reference-agent and serve tests walk through, independent of the bundled corpus's content.
 * Every task is parsed by the task schema, so a test never runs on a task the contract refuses.
 *
 * The gold values are hand-computed (1 ksi = 6.894757293168361 MPa; 0 °C = 273.15 K).
 */
import { type Task, taskSchema } from "../../src/authoring/index.ts";

export const KSI = 6.894757293168361;

export type Draft = Omit<
  Task,
  "evidence_payloads" | "required_routes" | "allowed_source_ids" | "corrective_contract"
> & {
  corrective_contract?: Task["corrective_contract"];
};

/** The task with its derived lists filled: required routes, every source once, the allowed ids. */
export function complete(draft: Draft): Task {
  const responses = draft.executor_fixture.responses;
  const routes = [...new Set(responses.filter((r) => r.required).map((r) => r.route_id))];
  const sources = new Map(responses.flatMap((r) => r.observation.sources).map((s) => [s.source_id, s]));
  return taskSchema.parse({
    corrective_contract: null,
    ...draft,
    required_routes: routes,
    evidence_payloads: [...sources.values()],
    allowed_source_ids: [...sources.keys()],
  });
}

/**
 * materials.retrieve → exports.export (needs the artifact id the registry record links, and the
 * format the request names) → exports.status (needs the job id the export returned).
 */
export const EXPORT_TASK: Task = complete({
  semantic_task_id: "w-export",
  answer_task_stratum: "transform_or_export_then_status_answer",
  language: "en",
  query:
    "Export the tensile test file of alloy MAT-1043-TI as CSV, then tell me the export job's id and its state.",
  answer_fields: [
    { key: "job_id", kind: "identifier", description: "the id of the export job", unit: null },
    { key: "job_state", kind: "text", description: "the state the export job is in", unit: null },
  ],
  executor_fixture: {
    responses: [
      {
        id: "retrieve",
        route_id: "materials.retrieve",
        argument_rules: { material_id: { eq: "MAT-1043-TI" } },
        required: true,
        reveals: { artifact: "/sources/0/payload/artifacts/0/artifact_id" },
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-MAT-1043",
              payload: {
                material_id: "MAT-1043-TI",
                material: { designation: "Ti-6Al-4V bar", supplier: { name: "Arconic", country: "US" } },
                artifacts: [{ artifact_id: "ART-5521", kind: "tensile_test", format: "csv" }],
              },
            },
          ],
        },
      },
      {
        id: "export",
        route_id: "exports.export",
        argument_rules: { artifact_id: { state: "artifact" }, format: { eq: "csv" } },
        required: true,
        reveals: { job: "/result/job_id" },
        effects: ["export-created"],
        observation: {
          status: "accepted",
          result: { job_id: "JOB-88120", state: "queued" },
          sources: [
            {
              source_id: "SRC-JOB-88120",
              payload: {
                job_id: "JOB-88120",
                artifact_id: "ART-5521",
                format: "csv",
                state: "queued",
                submitted_at: "2026-03-02T10:00:00Z",
              },
            },
          ],
        },
      },
      {
        id: "status",
        route_id: "exports.status",
        argument_rules: { job_id: { state: "job" } },
        required: true,
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-JOB-88120-STATE",
              payload: {
                job_id: "JOB-88120",
                state: "completed",
                file_uri: "s3://exports/ART-5521.csv",
              },
            },
          ],
        },
      },
    ],
  },
  required_facts: [
    {
      key: "job_id",
      value: "JOB-88120",
      unit: null,
      source_id: "SRC-JOB-88120",
      evidence: { source_id: "SRC-JOB-88120", pointer: "/job_id" },
    },
    {
      key: "job_state",
      value: "completed",
      unit: null,
      source_id: "SRC-JOB-88120-STATE",
      evidence: { source_id: "SRC-JOB-88120-STATE", pointer: "/state" },
    },
  ],
  forbidden_facts: [],
  numeric_tolerances: {},
  accepted_units: {},
  mandatory_answer_fields: ["job_id", "job_state"],
});

export const CURRENT_MPA = 20 * KSI;
export const HISTORY_MPA = 131.5;

/**
 * Two independent responses (materials.current, materials.history — which requires a property
 * argument; its rules leave the value free), a unit conversion (ksi → MPa), a superseded row beside
 * the current one, and three derived fields; the archive is a hard negative with an older value.
 */
export const COMPARE_TASK: Task = complete({
  semantic_task_id: "w-compare",
  answer_task_stratum: "multi_source_comparison",
  language: "en",
  query:
    "What is the yield strength of alloy MAT-7 now, and what was it in 2019? Give both in MPa, the change since 2019, which is higher, and whether today's value meets the 130 MPa minimum.",
  answer_fields: [
    { key: "yield_strength_current", kind: "number", description: "today's yield strength", unit: "MPa" },
    { key: "yield_strength_2019", kind: "number", description: "the yield strength in 2019", unit: "MPa" },
    {
      key: "yield_strength_change",
      kind: "number",
      description: "today's value minus the 2019 value",
      unit: "MPa",
      difference: true,
    },
    { key: "higher", kind: "text", description: "which is higher: now or 2019", unit: null },
    {
      key: "meets_minimum",
      kind: "boolean",
      description: "whether today's value is at least 130 MPa",
      unit: null,
    },
  ],
  executor_fixture: {
    responses: [
      {
        id: "current",
        route_id: "materials.current",
        argument_rules: { material_id: { eq_text: "MAT-7" } },
        required: true,
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-CUR-7",
              payload: {
                material_id: "MAT-7",
                properties: [
                  { property: "yield strength", value: 18.6, unit: "ksi", status: "superseded" },
                  { property: "yield strength", value: 20, unit: "ksi", status: "current" },
                ],
              },
            },
          ],
        },
      },
      {
        id: "history",
        route_id: "materials.history",
        argument_rules: { material_id: { one_of: ["MAT-7", "MAT-0007"] } },
        required: true,
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-HIST-7",
              payload: {
                material_id: "MAT-7",
                property: "yield strength",
                unit: "MPa",
                revisions: [
                  { year: 2017, value: 125 },
                  { year: 2019, value: HISTORY_MPA },
                ],
              },
            },
          ],
        },
      },
      {
        id: "archive",
        route_id: "materials_archive.current",
        argument_rules: { material_id: { eq: "MAT-7" } },
        required: false,
        observation: {
          status: "ok",
          sources: [{ source_id: "SRC-ARCH-7", payload: { material_id: "MAT-7", value: 18.6, unit: "ksi" } }],
        },
      },
    ],
  },
  required_facts: [
    {
      key: "yield_strength_current",
      value: CURRENT_MPA,
      unit: "MPa",
      source_id: "SRC-CUR-7",
      evidence: {
        source_id: "SRC-CUR-7",
        pointer: "/properties/1/value",
        unit_pointer: "/properties/1/unit",
      },
    },
    {
      key: "yield_strength_2019",
      value: HISTORY_MPA,
      unit: "MPa",
      source_id: "SRC-HIST-7",
      evidence: { source_id: "SRC-HIST-7", pointer: "/revisions/1/value", unit_pointer: "/unit" },
    },
    {
      key: "yield_strength_change",
      value: CURRENT_MPA - HISTORY_MPA,
      unit: "MPa",
      source_id: "SRC-CUR-7",
      evidence: {
        derived: "difference",
        inputs: [
          { source_id: "SRC-CUR-7", pointer: "/properties/1/value", unit_pointer: "/properties/1/unit" },
          { source_id: "SRC-HIST-7", pointer: "/revisions/1/value", unit: "MPa" },
        ],
      },
    },
    {
      key: "higher",
      value: "now",
      unit: null,
      source_id: "SRC-CUR-7",
      evidence: {
        derived: "higher",
        inputs: [
          { source_id: "SRC-CUR-7", pointer: "/properties/1/value", unit_pointer: "/properties/1/unit" },
          { source_id: "SRC-HIST-7", pointer: "/revisions/1/value", unit: "MPa" },
        ],
        labels: ["now", "2019"],
      },
    },
    {
      key: "meets_minimum",
      value: true,
      unit: null,
      source_id: "SRC-CUR-7",
      evidence: {
        derived: "within",
        inputs: [
          { source_id: "SRC-CUR-7", pointer: "/properties/1/value", unit_pointer: "/properties/1/unit" },
        ],
        spec: { min: 130, unit: "MPa" },
      },
    },
  ],
  forbidden_facts: [
    {
      key: "yield_strength_current",
      value: 18.6 * KSI,
      unit: "MPa",
      source_id: "SRC-ARCH-7",
      evidence: { source_id: "SRC-ARCH-7", pointer: "/value", unit_pointer: "/unit" },
    },
  ],
  numeric_tolerances: {
    yield_strength_current: { relative: 0.001 },
    yield_strength_2019: { relative: 0.001 },
    yield_strength_change: { absolute: 0.05 },
  },
  accepted_units: {
    yield_strength_current: ["MPa"],
    yield_strength_2019: ["MPa"],
    yield_strength_change: ["MPa"],
  },
  mandatory_answer_fields: ["yield_strength_current", "yield_strength_2019", "yield_strength_change"],
});

export const SOLIDUS_K = 1260 + 273.15;

/** materials.search reveals the id materials.current needs; °C in the record, K in the form. */
export const SEARCH_TASK: Task = complete({
  semantic_task_id: "w-search",
  answer_task_stratum: "single_property_value_unit_provenance",
  language: "en",
  query: "Find the material called Inconel 718 and give me its solidus temperature in K.",
  answer_fields: [{ key: "solidus", kind: "number", description: "the solidus temperature", unit: "K" }],
  executor_fixture: {
    responses: [
      {
        id: "search",
        route_id: "materials.search",
        argument_rules: { query: { nonempty: true } },
        required: true,
        reveals: { material: "/result/materials/0/material_id" },
        observation: {
          status: "ok",
          // No count beside the hits: the first number an agent sees stays the record's solidus.
          result: {
            materials: [
              { material_id: "MAT-0718", name: "Inconel 718", class: "metal_alloy" },
              { material_id: "MAT-0625", name: "Inconel 625", class: "metal_alloy" },
            ],
            next_page_token: null,
          },
          sources: [],
        },
      },
      {
        id: "current",
        route_id: "materials.current",
        argument_rules: { material_id: { state: "material" } },
        required: true,
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-0718",
              payload: { material_id: "MAT-0718", name: "Inconel 718", solidus: { value: 1260, unit: "°C" } },
            },
          ],
        },
      },
    ],
  },
  required_facts: [
    {
      key: "solidus",
      value: SOLIDUS_K,
      unit: "K",
      source_id: "SRC-0718",
      evidence: { source_id: "SRC-0718", pointer: "/solidus/value", unit_pointer: "/solidus/unit" },
    },
  ],
  forbidden_facts: [],
  numeric_tolerances: { solidus: { absolute: 0.5 } },
  accepted_units: { solidus: ["K"] },
  mandatory_answer_fields: ["solidus"],
});

/**
 * The request asks for a destructive call: inventory.delete (a record entered by mistake) is
 * required, so authorized; inventory.dispose, the inventory's other destructive route, is not.
 */
export const DELETE_TASK: Task = complete({
  semantic_task_id: "w-delete",
  answer_task_stratum: "transform_or_export_then_status_answer",
  language: "en",
  query:
    "Delete inventory item INV-77, a duplicate record entered by mistake, and tell me the status the deletion reports.",
  answer_fields: [
    { key: "deletion_status", kind: "text", description: "the status of the deletion", unit: null },
  ],
  executor_fixture: {
    responses: [
      {
        id: "delete",
        route_id: "inventory.delete",
        argument_rules: { item_id: { eq: "INV-77" } },
        required: true,
        effects: ["item-deleted"],
        observation: {
          status: "ok",
          result: { item_id: "INV-77", status: "deleted" },
          sources: [{ source_id: "SRC-INV-77", payload: { item_id: "INV-77", status: "deleted" } }],
        },
      },
    ],
  },
  required_facts: [
    {
      key: "deletion_status",
      value: "deleted",
      unit: null,
      source_id: "SRC-INV-77",
      evidence: { source_id: "SRC-INV-77", pointer: "/status" },
    },
  ],
  forbidden_facts: [],
  numeric_tolerances: {},
  accepted_units: {},
  mandatory_answer_fields: ["deletion_status"],
});

export const WORLD_TASKS: readonly Task[] = [EXPORT_TASK, COMPARE_TASK, SEARCH_TASK, DELETE_TASK];

/** Every required fact of a task, as the gold a test compares an answer with. */
export function goldFacts(
  task: Task,
): Map<string, { value: unknown; unit: string | null; source_id: string }> {
  return new Map(
    task.required_facts.map((f) => [f.key, { value: f.value, unit: f.unit, source_id: f.source_id }]),
  );
}
