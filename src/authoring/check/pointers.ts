/**
 * Rules about where facts live: no answer slot in anything the agent can receive, and every
 * required and forbidden fact's evidence resolves to its value (converted, within tolerance) or,
 * for a derived fact, recomputes to it.
 */
import { canonicalJson, pointerOf } from "../../core/index.ts";
import { isNumericValue, type Task } from "../task.ts";
import type { RuleProblem, TaskRule } from "./context.ts";
import { observedPayloads } from "./evidence.ts";
import { EvidenceReader, withinTolerance } from "./resolve.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Every place in `value` that hands the agent an answer: a member named `facts`, or a member
 * named by a form key whose value is a `{value, unit}` object. Pointers, in document order.
 */
export function answerSlots(value: unknown, formKeys: ReadonlySet<string>): string[] {
  const slots: string[] = [];
  const walk = (node: unknown, path: Array<string | number>) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
    else if (isObject(node))
      for (const [key, child] of Object.entries(node)) {
        const here = [...path, key];
        if (key === "facts" || (formKeys.has(key) && isObject(child) && "value" in child && "unit" in child))
          slots.push(pointerOf(here));
        walk(child, here);
      }
  };
  walk(value, []);
  return slots;
}

/** The form's keys and every fact key: what an answer slot would be keyed by. */
function formKeys(task: Task): Set<string> {
  return new Set([
    ...task.answer_fields.map((f) => f.key),
    ...task.required_facts.map((f) => f.key),
    ...task.forbidden_facts.map((f) => f.key),
  ]);
}

export const pointerRules: Record<string, TaskRule> = {
  answerSlots(task) {
    const keys = formKeys(task);
    const problems: RuleProblem[] = [];
    const observed = new Set<string>();
    for (const response of task.executor_fixture.responses) {
      for (const source of response.observation.sources) observed.add(source.source_id);
      for (const slot of answerSlots(response.observation, keys))
        problems.push({
          code: "answer_slot_in_evidence",
          message: `response ${response.id}'s observation hands over an answer slot at ${slot}`,
        });
    }
    // A payload no response shows is checked too, so the slot cannot hide there until it is shown.
    for (const evidence of task.evidence_payloads)
      if (!observed.has(evidence.source_id))
        for (const slot of answerSlots(evidence.payload, keys))
          problems.push({
            code: "answer_slot_in_evidence",
            message: `evidence payload ${evidence.source_id} holds an answer slot at ${slot}`,
          });
    return problems;
  },

  factEvidence(task, context) {
    const reader = new EvidenceReader(observedPayloads(task), context.units);
    const problems: RuleProblem[] = [];
    const facts = [
      ...task.required_facts.map((f, i) => ({ fact: f, at: `required_facts[${i}] (${f.key})` })),
      ...task.forbidden_facts.map((f, i) => ({ fact: f, at: `forbidden_facts[${i}] (${f.key})` })),
    ];
    for (const { fact, at } of facts) {
      const verdict = reader.check(fact.evidence, {
        key: fact.key,
        value: fact.value,
        unit: fact.unit ?? null,
        tolerance: task.numeric_tolerances[fact.key],
      });
      if (!verdict.ok) problems.push({ code: verdict.code, message: `${at}: ${verdict.message}` });
    }
    return problems;
  },

  /** A forbidden value that the required one's tolerance accepts would mark a right answer as contradicting. */
  forbiddenFactsDistinct(task, context) {
    const problems: RuleProblem[] = [];
    for (const [index, forbidden] of task.forbidden_facts.entries())
      for (const required of task.required_facts) {
        if (required.key !== forbidden.key) continue;
        const unit = forbidden.unit ?? null;
        const same =
          isNumericValue(forbidden.value) && isNumericValue(required.value)
            ? (() => {
                const value =
                  unit === null || required.unit === null
                    ? forbidden.value
                    : context.units.convert(forbidden.value, unit, required.unit);
                return (
                  value !== null &&
                  withinTolerance(value, required.value, task.numeric_tolerances[required.key])
                );
              })()
            : canonicalJson(forbidden.value) === canonicalJson(required.value);
        if (same)
          problems.push({
            code: "forbidden_fact_matches_required",
            message: `forbidden_facts[${index}] (${forbidden.key}) is the required value within its tolerance`,
          });
      }
    return problems;
  },
};
