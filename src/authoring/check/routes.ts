/**
 * Rules about routes and the fixture's responses: required routes are the required responses'
 * routes, argument rules only name what the endpoint takes and what a required response reveals,
 * every reveal resolves (to an id, or — for a name a fits_slot rule books inside, and only for
 * one — to a list of {start, end} date-time slots), and no response hides behind another.
 */
import { canonicalJson, instantOf, resolvePointer } from "../../core/index.ts";
import type { ArgumentRule, FixtureResponse, Task } from "../task.ts";
import { list, type RuleProblem, type TaskRule } from "./context.ts";

/** The state name a rule waits for, or null. */
export function stateNeeded(rule: ArgumentRule): string | null {
  if ("state" in rule) return rule.state;
  if ("contains_state" in rule) return rule.contains_state;
  return "fits_slot" in rule ? rule.fits_slot.slots : null;
}

/** The routes of the required responses, in order of first appearance. */
export function requiredResponseRoutes(task: Pick<Task, "executor_fixture">): string[] {
  const routes: string[] = [];
  for (const response of task.executor_fixture.responses)
    if (response.required && !routes.includes(response.route_id)) routes.push(response.route_id);
  return routes;
}

/** Required responses no order of calls can reach: each waits, directly or not, for state only it or a later wait reveals. */
function unreachable(responses: readonly FixtureResponse[]): FixtureResponse[] {
  const revealed = new Set<string>();
  const done = new Set<FixtureResponse>();
  for (let progress = true; progress; ) {
    progress = false;
    for (const response of responses) {
      if (done.has(response)) continue;
      const needs = Object.values(response.argument_rules).map(stateNeeded);
      if (needs.every((name) => name === null || revealed.has(name))) {
        done.add(response);
        for (const name of Object.keys(response.reveals ?? {})) revealed.add(name);
        progress = true;
      }
    }
  }
  return responses.filter((r) => !done.has(r));
}

export const routeRules: Record<string, TaskRule> = {
  requiredRoutes(task, context) {
    const problems: RuleProblem[] = [];
    const routes = task.required_routes;
    if (routes.length === 0)
      problems.push({ code: "required_routes_empty", message: "required_routes is empty" });
    const seen = new Set<string>();
    for (const route of routes) {
      if (seen.has(route))
        problems.push({ code: "required_routes_duplicate", message: `required_routes lists ${route} twice` });
      seen.add(route);
      if (context.routeIds && !context.routeIds.has(route))
        problems.push({ code: "unknown_route", message: `required route ${route} is not in the catalog` });
    }
    // Compared with the fixture only once the list itself is sound, so one mistake gets one code.
    const responseRoutes = requiredResponseRoutes(task);
    if (problems.length === 0 && responseRoutes.join("\n") !== routes.join("\n"))
      problems.push({
        code: "required_routes_fixture_mismatch",
        message: `required_routes [${routes.join(", ")}] are not the required responses' routes in order of first appearance [${responseRoutes.join(", ")}]`,
      });
    for (const response of task.executor_fixture.responses)
      if (!response.required && context.anyRouteIds && !context.anyRouteIds.has(response.route_id))
        problems.push({
          code: "unknown_route",
          message: `response ${response.id}'s route ${response.route_id} is not in the catalog`,
        });
    return problems;
  },

  responses(task) {
    const problems: RuleProblem[] = [];
    const ids = new Set<string>();
    const matchers = new Map<string, string>();
    for (const response of task.executor_fixture.responses) {
      if (ids.has(response.id))
        problems.push({ code: "response_id_duplicate", message: `two responses have the id ${response.id}` });
      ids.add(response.id);
      // The replay returns the first response whose rules hold; an identical later one is never reached.
      const matcher = canonicalJson([response.route_id, response.argument_rules]);
      const earlier = matchers.get(matcher);
      if (earlier !== undefined)
        problems.push({
          code: "response_unreachable",
          message: `response ${response.id} has the route and argument rules of ${earlier}, which the replay always returns first`,
        });
      else matchers.set(matcher, response.id);
    }
    if (!task.executor_fixture.responses.some((r) => r.required))
      problems.push({ code: "required_response_missing", message: "no response is required" });
    return problems;
  },

  argumentRules(task, context) {
    const problems: RuleProblem[] = [];
    const required = task.executor_fixture.responses.filter((r) => r.required);
    for (const response of task.executor_fixture.responses) {
      const accepted = context.routeParameters.get(response.route_id);
      const others = required.filter((r) => r !== response);
      for (const [argument, rule] of Object.entries(response.argument_rules)) {
        if (accepted && !accepted.has(argument))
          problems.push({
            code: "argument_not_in_schema",
            message: `response ${response.id} (${response.route_id}) has a rule for ${argument}, which the endpoint does not take`,
          });
        const name = stateNeeded(rule);
        if (name !== null && !others.some((r) => Object.hasOwn(r.reveals ?? {}, name)))
          problems.push({
            code: "argument_state_unavailable",
            message: `response ${response.id} (${response.route_id}) needs state ${name}, which no other required response reveals`,
          });
      }
    }
    const stuck = unreachable(required);
    if (problems.length === 0 && stuck.length > 0)
      problems.push({
        code: "argument_state_cycle",
        message: `required responses ${list(stuck.map((r) => r.id))} wait for state that only they reveal; no order of calls reaches them`,
      });
    return problems;
  },

  reveals(task) {
    const problems: RuleProblem[] = [];
    const slots = slotNames(task);
    for (const response of task.executor_fixture.responses)
      for (const [name, pointer] of Object.entries(response.reveals ?? {})) {
        const found = resolvePointer(response.observation, pointer);
        const at = `response ${response.id} reveals ${name} at ${pointer}`;
        if (!found.found)
          problems.push({
            code: "pointer_unresolved",
            message: `${at}, which does not resolve in its observation`,
          });
        else if (slots.has(name)) {
          if (!isSlotList(found.value))
            problems.push({
              code: "fits_slot_slots_invalid",
              message: `${at}, which holds ${canonicalJson(found.value)}, not a list of {start, end} date-times a fits_slot rule can book inside`,
            });
        } else if (typeof found.value !== "string" && typeof found.value !== "number")
          problems.push({
            code: "pointer_unresolved",
            message: `${at}, which holds ${canonicalJson(found.value)}, not an id${Array.isArray(found.value) ? " (a list is revealed only for a fits_slot rule's slots)" : ""}`,
          });
      }
    return problems;
  },
};

/** The names fits_slot rules book inside: the only names a response may reveal a list under. */
function slotNames(task: Task): Set<string> {
  const names = new Set<string>();
  for (const response of task.executor_fixture.responses)
    for (const rule of Object.values(response.argument_rules))
      if ("fits_slot" in rule) names.add(rule.fits_slot.slots);
  return names;
}

/** A non-empty list of objects whose `start` and `end` are date-times naming instants, start first. */
function isSlotList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every((slot) => {
    if (typeof slot !== "object" || slot === null || Array.isArray(slot)) return false;
    const start = instantOf((slot as Record<string, unknown>)["start"]);
    const end = instantOf((slot as Record<string, unknown>)["end"]);
    return start !== null && end !== null && start < end;
  });
}
