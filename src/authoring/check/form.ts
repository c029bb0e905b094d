/**
 * Rules about the answer form: one field per required fact key (the form's keys are the scorer's
 * fact keys), of the kind the gold value has, numbers in a unit the task accepts — and, when the
 * user asked for a unit other than the record's, in that unit only (up to spelling).
 */
import { canonicalUnit, resolvePointer } from "../../core/index.ts";
import {
  isDerived,
  isNumericValue,
  type AnswerField,
  type AnswerKind,
  type FactEvidence,
  type Task,
} from "../task.ts";
import type { RuleProblem, TaskRule } from "./context.ts";

/** The kinds a gold value can be scored as. */
function kindsOf(value: unknown): readonly AnswerKind[] {
  if (isNumericValue(value)) return ["number"];
  if (typeof value === "string") return ["text", "identifier"];
  if (typeof value === "boolean") return ["boolean"];
  if (Array.isArray(value)) return ["list"];
  return [];
}

/** What a list's items are, for `item_kind`. */
function itemKindOk(field: AnswerField, value: unknown[]): boolean {
  if (field.item_kind === undefined) return true;
  return value.every((item) =>
    field.item_kind === "number" ? isNumericValue(item) : typeof item === "string",
  );
}

export const formRules: Record<string, TaskRule> = {
  answerFields(task) {
    const problems: RuleProblem[] = [];
    const fields = new Map<string, AnswerField>();
    for (const field of task.answer_fields) {
      if (fields.has(field.key))
        problems.push({ code: "answer_field_duplicate", message: `answer_fields lists ${field.key} twice` });
      fields.set(field.key, field);
    }
    const required = new Set(task.required_facts.map((f) => f.key));
    for (const key of fields.keys())
      if (!required.has(key))
        problems.push({
          code: "answer_field_unscored",
          message: `answer field ${key} is not a required fact key, so nothing scores it`,
        });
    for (const fact of task.required_facts) {
      const field = fields.get(fact.key);
      if (field === undefined) {
        problems.push({
          code: "answer_field_missing",
          message: `required fact ${fact.key} has no answer field, so the form never asks for it`,
        });
        continue;
      }
      const kinds = kindsOf(fact.value);
      const listOk = !Array.isArray(fact.value) || itemKindOk(field, fact.value);
      const extrasOk =
        (field.kind === "list" || (field.ordered === undefined && field.item_kind === undefined)) &&
        (field.kind === "number" || field.kind === "list" || field.difference === undefined);
      if (!kinds.includes(field.kind) || !listOk || !extrasOk)
        problems.push({
          code: "answer_field_kind_mismatch",
          message: `answer field ${field.key} is a ${field.kind}${field.item_kind ? ` of ${field.item_kind}` : ""} but the gold value is ${JSON.stringify(fact.value)}`,
        });
      const accepted = task.accepted_units[fact.key] ?? [];
      if (fact.unit === null ? field.unit !== null : field.unit === null || !accepted.includes(field.unit))
        problems.push({
          code: "answer_field_unit_not_accepted",
          message:
            fact.unit === null
              ? `answer field ${field.key} asks for unit ${field.unit} but the fact has none`
              : `answer field ${field.key} asks for ${field.unit ?? "no unit"}, which is not among its accepted units [${accepted.join(", ")}]`,
        });
      const recordUnit = recordUnitOf(task, fact.evidence);
      if (
        field.kind === "number" &&
        field.unit !== null &&
        recordUnit !== null &&
        canonicalUnit(recordUnit) !== canonicalUnit(field.unit)
      ) {
        const beyond = accepted.filter((u) => canonicalUnit(u) !== canonicalUnit(field.unit as string));
        if (beyond.length > 0)
          problems.push({
            code: "accepted_units_beyond_request",
            message: `answer field ${field.key} asks for ${field.unit}, a unit other than the record's ${recordUnit}, so only spellings of ${field.unit} may be accepted; also accepted: [${beyond.join(", ")}]`,
          });
      }
    }
    return problems;
  },
};

/**
 * The unit the record holds a fact's value in (at `unit_pointer`, or fixed in `unit`), or null for a
 * derived fact or a unit the evidence does not name. When the user asked for another unit, the
 * answer must be converted: a form that also accepts the record's unit would let an agent that
 * never converts pass unit accuracy.
 */
function recordUnitOf(task: Task, evidence: FactEvidence): string | null {
  if (isDerived(evidence)) return null;
  if (evidence.unit_pointer !== undefined) {
    const payload = task.evidence_payloads.find((e) => e.source_id === evidence.source_id)?.payload;
    const found = resolvePointer(payload, evidence.unit_pointer);
    return found.found && typeof found.value === "string" ? found.value : null;
  }
  return evidence.unit ?? null;
}
