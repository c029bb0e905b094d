/**
 * Argument rules against the endpoint's own parameter schema (`argument_rule_violates_schema`): the
 * executor refuses, with the route's validation reply, any call its schema forbids (see
 * parameter-schema.ts), so a rule that only a forbidden argument satisfies names a response no agent
 * can reach. Every literal a rule states must be a value the parameter accepts (`eq`, each `one_of`
 * item, `instant`, `eq_text`), and so must every value a `state` rule waits for (as the response
 * that reveals it holds it). A rule's kind must fit the parameter: `instant`, `state … as: instant`
 * and `fits_slot` only on a `format: date-time` parameter (`fits_slot`'s `end` another date-time
 * parameter of the endpoint); `eq_text`, `terms`, `nonempty` and `contains_state` only on a string.
 *
 * `date_time_rule_not_instant`: a rule on a date-time parameter compares instants (`instant`,
 * `state … as: instant`, `fits_slot`), never spellings — `2026-03-03T10:00:00+00:00` is the instant
 * `2026-03-03T10:00:00Z` names, and an API that takes a date-time treats it so.
 */
import { canonicalJson, resolvePointer } from "../../core/index.ts";
import { valueProblem } from "../parameter-schema.ts";
import type { ArgumentRule, Task } from "../task.ts";
import type { RuleProblem, TaskRule } from "./context.ts";
import { ruleFamily } from "./rule-families.ts";

type Schema = Readonly<Record<string, unknown>>;

function isDateTime(schema: Schema | undefined): boolean {
  return schema?.["format"] === "date-time";
}

function isString(schema: Schema | undefined): boolean {
  const type = schema?.["type"];
  return type === "string" || (Array.isArray(type) && type.includes("string"));
}

/** The values `name` takes when revealed: what each response that reveals it holds there. */
function revealedValues(task: Task, name: string): Array<{ id: string; value: unknown }> {
  return task.executor_fixture.responses.flatMap((response) => {
    const pointer = response.reveals?.[name];
    if (pointer === undefined) return [];
    const found = resolvePointer(response.observation, pointer);
    return found.found ? [{ id: response.id, value: found.value }] : [];
  });
}

/** What is wrong with one rule on one parameter; an empty list when nothing is. */
function ruleProblems(
  task: Task,
  name: string,
  rule: ArgumentRule,
  params: Readonly<Record<string, Schema>>,
): string[] {
  const schema = params[name] as Schema;
  const refused = (what: string, value: unknown): string[] => {
    const problem = valueProblem(name, schema, value);
    return problem === null
      ? []
      : [`${what} ${canonicalJson(value)}, which the schema refuses (${problem.message})`];
  };
  if ("eq" in rule) return refused("eq", rule.eq);
  if ("one_of" in rule) return rule.one_of.flatMap((option) => refused("one_of item", option));
  if ("instant" in rule)
    return isDateTime(schema)
      ? refused("instant", rule.instant)
      : [`instant on ${name}, which is not a date-time parameter`];
  if ("eq_text" in rule)
    return isString(schema)
      ? refused("eq_text", rule.eq_text)
      : [`eq_text on ${name}, which is not a string parameter`];
  if ("terms" in rule || "nonempty" in rule || "contains_state" in rule) {
    const kind = "terms" in rule ? "terms" : "nonempty" in rule ? "nonempty" : "contains_state";
    return isString(schema) ? [] : [`${kind} on ${name}, which is not a string parameter`];
  }
  if ("fits_slot" in rule) {
    const end = rule.fits_slot.end;
    if (!isDateTime(schema)) return [`fits_slot on ${name}, which is not a date-time parameter`];
    return end !== name && isDateTime(params[end])
      ? []
      : [`fits_slot on ${name} names end ${end}, which is not another date-time parameter of the endpoint`];
  }
  if (rule.as === "instant" && !isDateTime(schema))
    return [`state … as: instant on ${name}, which is not a date-time parameter`];
  return revealedValues(task, rule.state).flatMap(({ id, value }) =>
    refused(`state ${rule.state} (as response ${id} reveals it)`, value),
  );
}

/** A rule on a date-time parameter that compares text, not instants (`nonempty` accepts any: it compares nothing). */
function comparesSpelling(rule: ArgumentRule, schema: Schema | undefined): boolean {
  return isDateTime(schema) && ruleFamily(rule) !== "instant" && !("nonempty" in rule);
}

export const argumentSchemaRules: Record<string, TaskRule> = {
  argumentRulesInSchema(task, context) {
    const problems: RuleProblem[] = [];
    for (const response of task.executor_fixture.responses) {
      const params = context.parameterSchemas.get(response.route_id);
      if (params === undefined) continue; // an unknown route: requiredRoutes reports it
      for (const [name, rule] of Object.entries(response.argument_rules)) {
        if (!Object.hasOwn(params, name)) continue; // argument_not_in_schema reports it
        const at = `response ${response.id} (${response.route_id}) rules ${name}`;
        for (const message of ruleProblems(task, name, rule, params))
          problems.push({
            code: "argument_rule_violates_schema",
            message: `${at}: ${message}; no valid call matches it`,
          });
        if (comparesSpelling(rule, params[name]))
          problems.push({
            code: "date_time_rule_not_instant",
            message: `${at}, a date-time, by its spelling (${Object.keys(rule)[0]}): another spelling of the same instant would miss; use instant, state … as: instant or fits_slot`,
          });
      }
    }
    return problems;
  },
};
