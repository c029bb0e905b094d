/** A small valid task to score against, with the parts a test cares about overridden. */
import type { Task } from "../../src/authoring/index.ts";

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    semantic_task_id: "t-1",
    answer_task_stratum: "single_property_value_unit_provenance",
    language: "en",
    query: "What is the modulus?",
    required_routes: ["materials.current"],
    executor_fixture: { steps: [] },
    evidence_payloads: [],
    allowed_source_ids: ["SRC-A", "SRC-B"],
    required_facts: [{ key: "youngs_modulus", value: 144, unit: "GPa", source_id: "SRC-A" }],
    forbidden_facts: [],
    numeric_tolerances: { youngs_modulus: { absolute: 0.01 } },
    accepted_units: { youngs_modulus: ["GPa", "MPa"] },
    mandatory_answer_fields: ["youngs_modulus"],
    corrective_contract: null,
    ...overrides,
  };
}

export function envelopeText(
  facts: Array<{ key: string; value: unknown; unit: string | null; source_id: string }>,
  sources: string[] = ["SRC-A"],
): string {
  return JSON.stringify({ answer: "see facts", facts, sources });
}

/**
 * The bundled corpus's first export task (materials.retrieve → exports.export → exports.status) cut
 * to its first two steps, answered by the export job's id: the shape the executor and loop tests
 * walk through, with the identifiers they call it with.
 */
export function twoStepExportTask(tasks: readonly Task[]): {
  task: Task;
  material: string;
  artifact: string;
} {
  const copy = structuredClone(
    tasks.find((t) => t.answer_task_stratum === "transform_or_export_then_status_answer")!,
  );
  const steps = copy.executor_fixture.steps.slice(0, 2);
  const job = steps[1]!.observation.sources[0]!;
  const task: Task = {
    ...copy,
    required_routes: steps.map((s) => s.route_id),
    executor_fixture: { steps },
    required_facts: [
      { key: "job_id", value: job.payload.facts["job_id"]!.value, unit: null, source_id: job.source_id },
    ],
    numeric_tolerances: {},
    accepted_units: {},
    mandatory_answer_fields: ["job_id"],
  };
  const material = (steps[0]!.argument_rules["material_id"] as { eq: string }).eq;
  const artifact = steps[0]!.observation.sources[0]!.payload.facts["artifact_id"]!.value as string;
  return { task, material, artifact };
}
