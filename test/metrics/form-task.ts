/**
 * Small v5 tasks (an answer form, evidence pointers) built by hand for the scorer's tests: the
 * scorer reads the form, the facts, the tolerances and the accepted units, never the fixture.
 */
import type { AnswerField, ForbiddenFact, RequiredFact, Task } from "../../src/authoring/index.ts";

export type Fact = { key: string; value: unknown; unit: string | null; source_id: string };

/** A required fact whose evidence is a pointer into its source's payload (the scorer never reads it). */
export function required(
  key: string,
  value: unknown,
  unit: string | null,
  source_id = "SRC-A",
): RequiredFact {
  return {
    key,
    value: value as RequiredFact["value"],
    unit,
    source_id,
    evidence: { source_id, pointer: `/${key}` },
  };
}

export function forbidden(key: string, value: unknown, unit: string | null): ForbiddenFact {
  return {
    key,
    value: value as ForbiddenFact["value"],
    unit,
    evidence: { source_id: "SRC-OLD", pointer: `/${key}` },
  };
}

/** A form field; its unit defaults to none. */
export function field(key: string, kind: AnswerField["kind"], extra: Partial<AnswerField> = {}): AnswerField {
  return { key, kind, description: `the ${key.replace(/_/g, " ")}`, unit: null, ...extra };
}

/** The field a required fact implies when a test does not care: kind from the value, the fact's unit. */
function impliedField(fact: RequiredFact): AnswerField {
  const v = fact.value;
  const kind =
    typeof v === "number"
      ? "number"
      : typeof v === "boolean"
        ? "boolean"
        : Array.isArray(v)
          ? "list"
          : "identifier";
  return field(fact.key, kind, { unit: fact.unit });
}

/**
 * A task with one required fact (youngs_modulus 144 GPa from SRC-A, ±0.01, accepting GPa and MPa)
 * unless overridden; the form is derived from the required facts unless `answer_fields` is given.
 */
export function formTask(overrides: Partial<Task> = {}): Task {
  const required_facts = overrides.required_facts ?? [required("youngs_modulus", 144, "GPa")];
  const keys = [...new Set(required_facts.map((f) => f.key))];
  return {
    semantic_task_id: "t-1",
    answer_task_stratum: "single_property_value_unit_provenance",
    language: "en",
    query: "What is the modulus?",
    answer_fields: keys.map((k) => impliedField(required_facts.find((f) => f.key === k)!)),
    required_routes: ["materials.current"],
    executor_fixture: { responses: [] },
    evidence_payloads: [],
    allowed_source_ids: ["SRC-A", "SRC-B"],
    required_facts,
    forbidden_facts: [],
    numeric_tolerances: { youngs_modulus: { absolute: 0.01 } },
    accepted_units: { youngs_modulus: ["GPa", "MPa"] },
    mandatory_answer_fields: keys,
    corrective_contract: null,
    ...overrides,
  };
}

export function envelopeText(facts: readonly Fact[], sources: readonly string[] = ["SRC-A"]): string {
  return JSON.stringify({ answer: "see facts", facts, sources });
}
