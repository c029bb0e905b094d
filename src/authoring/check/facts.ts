/** Rules about how facts are scored: tolerances, units, mandatory fields, corrective contracts. */
import { isNumericValue, type RequiredFact, type Task } from "../task.ts";
import { list, sameSet, type RuleProblem, type TaskRule } from "./context.ts";

export const factRules: Record<string, TaskRule> = {
  /**
   * Every numeric required fact has a tolerance, and only those: a number, or a list of numbers (its
   * field's `item_kind` is number, or every gold item is a number) — the scorer applies a list's
   * tolerance to each item, as `corpus check` does when it resolves the list's evidence.
   */
  tolerances(task) {
    const numeric = task.required_facts.filter((f) => isNumericFact(task, f)).map((f) => f.key);
    const keys = Object.keys(task.numeric_tolerances);
    return sameSet(numeric, keys)
      ? []
      : [
          {
            code: "tolerance_keys_mismatch",
            message: `numeric_tolerances has keys [${list(keys)}] but the numeric required facts are [${list(numeric)}]`,
          },
        ];
  },

  acceptedUnits(task, context) {
    const problems: RuleProblem[] = [];
    const withUnit = task.required_facts.filter((f) => f.unit !== null);
    const keys = Object.keys(task.accepted_units);
    if (
      !sameSet(
        withUnit.map((f) => f.key),
        keys,
      )
    )
      problems.push({
        code: "accepted_units_keys_mismatch",
        message: `accepted_units has keys [${list(keys)}] but the unit-bearing required facts are [${list(withUnit.map((f) => f.key))}]`,
      });
    for (const fact of withUnit) {
      const labels = task.accepted_units[fact.key];
      if (labels === undefined || fact.unit === null) continue;
      if (!labels.includes(fact.unit))
        problems.push({
          code: "accepted_units_missing_canonical",
          message: `accepted_units.${fact.key} does not include the canonical unit ${fact.unit}`,
        });
      for (const label of labels)
        if (label !== fact.unit && !context.units.convertible(label, fact.unit))
          problems.push({
            code: "accepted_unit_not_convertible",
            message: `accepted unit ${label} of ${fact.key} cannot be converted to ${fact.unit}`,
          });
    }
    return problems;
  },

  mandatoryFields(task) {
    const required = new Set(task.required_facts.map((f) => f.key));
    return task.mandatory_answer_fields
      .filter((field) => !required.has(field))
      .map((field) => ({
        code: "mandatory_field_not_required",
        message: `mandatory field ${field} is not a required fact key`,
      }));
  },

  correctiveContract(task, context) {
    const contract = task.corrective_contract;
    if (!context.correctiveStrata.has(task.answer_task_stratum))
      return contract === null
        ? []
        : [
            {
              code: "corrective_contract_unexpected",
              message: `only ${list(context.correctiveStrata)} tasks carry a corrective contract`,
            },
          ];
    if (contract === null)
      return [
        { code: "corrective_contract_missing", message: "a corrective task needs a corrective_contract" },
      ];
    const problems: RuleProblem[] = [];
    if (!contract.initial_candidate_miss || contract.ground_truth_trigger_visible)
      problems.push({
        code: "corrective_contract_invalid",
        message:
          "a corrective contract needs initial_candidate_miss true and ground_truth_trigger_visible false",
      });
    const stage = context.firstStageSize;
    if (stage !== null && task.required_routes.length <= stage)
      problems.push({
        code: "corrective_miss_not_guaranteed",
        message: `the task needs ${task.required_routes.length} routes, which can all fit in the first stage of ${stage}; the initial miss is not guaranteed`,
      });
    return problems;
  },
};

/** A number, or a non-empty list of numbers (by its field's item_kind, else by every gold item). */
function isNumericFact(task: Task, fact: RequiredFact): boolean {
  if (isNumericValue(fact.value)) return true;
  if (!Array.isArray(fact.value) || fact.value.length === 0) return false;
  const field = task.answer_fields.find((f) => f.key === fact.key);
  if (field?.item_kind !== undefined) return field.item_kind === "number";
  return fact.value.every(isNumericValue);
}
