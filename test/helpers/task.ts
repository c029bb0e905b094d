/** A small valid task to score against, with the parts a test cares about overridden. */
import type { Task } from "../../src/authoring/index.ts";

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    semantic_task_id: "t-1",
    answer_task_stratum: "single_property_value_unit_provenance",
    language: "en",
    query: "What is the modulus?",
    answer_fields: [{ key: "youngs_modulus", kind: "number", description: "the modulus", unit: "GPa" }],
    required_routes: ["materials.current"],
    executor_fixture: { responses: [] },
    evidence_payloads: [],
    allowed_source_ids: ["SRC-A", "SRC-B"],
    required_facts: [
      {
        key: "youngs_modulus",
        value: 144,
        unit: "GPa",
        source_id: "SRC-A",
        evidence: { source_id: "SRC-A", pointer: "/modulus/value", unit_pointer: "/modulus/unit" },
      },
    ],
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
