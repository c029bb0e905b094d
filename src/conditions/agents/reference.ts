/**
 * The deterministic `reference` agent — no model. Each turn it calls a required response of the
 * task's fixture that it has not received yet, whose route is visible and whose state (an id an
 * earlier response revealed) it has, with arguments that satisfy the response's rules; when none
 * can be called it asks for more tools (a staged condition then shows its next stage; told that no
 * more tools are available, it answers). When every required response was returned, or on its last
 * turn, it answers the form: each field's value read from the observation it received, at the
 * fact's evidence pointer (never the task's gold value), converted to the field's unit, a derived
 * fact computed from its inputs, and the record's source_id cited.
 *
 * It asks by the protocol's token alone, so the loop's reply (more tools, or none) is all that
 * follows: it never learns whether its answer would be complete. It is the ceiling a careful reader
 * reaches under each condition's visibility and turn budget.
 */
import type { FixtureResponse, Task } from "../../authoring/index.ts";
import type { UnitConverter } from "../../core/index.ts";
import type { ToolDefinition } from "../execution/render.ts";
import { instantOf } from "../execution/arguments.ts";
import { NO_MORE_TOOLS } from "../execution/widening.ts";
import { fillForm, formEnvelope } from "./answer-form.ts";
import {
  askedFor,
  nameQuery,
  requestSearch,
  searchCall,
  searchEngineOf,
  searchesMade,
} from "./search-calls.ts";
import { functionOfRoute, readResults, stateAvailable, type Observed } from "./observed.ts";
import type { Agent, AgentEpisode, AgentTurnRequest, AgentTurnResponse } from "./types.ts";
import type { ToolCall } from "../../providers/index.ts";

export const REFERENCE_AGENT_VERSION = 4;

/** `units` is loaded once by the caller (`loadUnitConverter`), before any episode. */
export function referenceAgent(requestMoreTools: string, units: UnitConverter): Agent {
  return {
    identity: { agent: "reference", model: null, settings: { version: REFERENCE_AGENT_VERSION } },
    startEpisode: (task) => referenceEpisode(task, requestMoreTools, units),
  };
}

function referenceEpisode(task: Task, requestMoreTools: string, units: UnitConverter): AgentEpisode {
  return { turn: async (request) => referenceTurn(task, requestMoreTools, request, units) };
}

/**
 * One turn, derived from the conversation alone (so a fake model server can play it too): a tool
 * result equal to a fixture response's observation means that response was returned.
 */
export function referenceTurn(
  task: Task,
  requestMoreTools: string,
  request: AgentTurnRequest,
  units: UnitConverter,
): AgentTurnResponse {
  const observed = readResults(task, request);
  return fixtureTurn(task, requestMoreTools, request, observed, () =>
    formEnvelope(fillForm(task, observed, units)),
  );
}

/**
 * The reference agent's policy, with its answer (`answer`, the envelope text) and the calls it
 * makes before its own (`before`) given — what the probe agents vary. On the last turn, or once
 * every required response was returned, it answers; else it calls `before`, then the first
 * required response not yet returned whose tool is visible and whose state it has; when none can
 * be called it asks for more tools — or answers what it has when the loop just said there are none.
 */
export function fixtureTurn(
  task: Task,
  requestMoreTools: string,
  request: AgentTurnRequest,
  observed: Observed,
  answer: () => string,
  before: ToolCall | null = null,
): AgentTurnResponse {
  if (request.turn >= request.maxTurns) return answerWith(answer());
  const missing = task.executor_fixture.responses.filter((r) => r.required && !observed.returned.has(r.id));
  const first = missing.length === 0 ? null : requestSearch(request, task);
  if (first !== null) return { text: "", toolCalls: [first] };
  if (before !== null) return { text: "", toolCalls: [{ ...before, id: `call_${request.turn}` }] };
  if (missing.length === 0) return answerWith(answer());
  const call = nextCall(missing, request, observed) ?? searchForMissing(missing, request);
  if (call !== null) return { text: "", toolCalls: [call] };
  return answerWith(toldNoMoreTools(request) ? answer() : requestMoreTools);
}

/**
 * Under a search condition, when no required response can be called: one search, by name, for
 * the required routes not loaded yet that no earlier name search asked for (up to five at once,
 * the search conditions' k). A route a name search did not return is not searched for again: the
 * reference needs at most two searches (the request's, then this one) and fits the turn budget.
 */
function searchForMissing(missing: readonly FixtureResponse[], request: AgentTurnRequest): ToolCall | null {
  const engine = searchEngineOf(request);
  if (engine === null) return null;
  // The first search is the request's; later ones asked for names.
  const asked = searchesMade(request.messages).slice(1);
  const unloaded = [...new Set(missing.map((r) => functionOfRoute(r.route_id)))].filter(
    (name) => !request.tools.some((t) => t.name === name),
  );
  const fresh = unloaded.filter((name) => !asked.some((q) => askedFor(engine, q, name)));
  if (fresh.length > 0) return searchCall(request, (e) => nameQuery(e, fresh.slice(0, SEARCH_NAMES_AT_ONCE)));
  // One retry, the next route it needs alone: a search for several names can rank each lower.
  const next = unloaded[0];
  // Only while the turns after this one hold every call still to make, the answer and the spare turns.
  const affordable = request.maxTurns - request.turn >= missing.length + 1 + RETRY_SPARE_TURNS;
  return next === undefined || asked.length >= NAME_SEARCHES || !affordable
    ? null
    : searchCall(request, (e) => nameQuery(e, [next]));
}

/** The most names one search asks for: the search conditions' k (5). */
const SEARCH_NAMES_AT_ONCE = 5;
/** The most name searches an episode makes (after the request's): all names at once, then one alone. */
const NAME_SEARCHES = 2;
/**
 * The turns a retry leaves untouched: the protocol's `min_spare_turns` (2). Spare turns are not the
 * reference's to spend — a retry that would eat into them is not made (the route stays unloaded).
 */
const RETRY_SPARE_TURNS = 2;

/** Whether the last message is the loop's reply that no more tools are available. */
function toldNoMoreTools(request: AgentTurnRequest): boolean {
  const last = request.messages.at(-1);
  return last?.role === "user" && last.content === NO_MORE_TOOLS;
}

/** A call of the first of `responses` whose tool is visible and whose state is known, or null. */
export function nextCall(
  responses: readonly FixtureResponse[],
  request: AgentTurnRequest,
  observed: Observed,
): ToolCall | null {
  for (const response of responses) {
    const name = functionOfRoute(response.route_id);
    const tool = request.tools.find((t) => t.name === name);
    if (tool === undefined || !stateAvailable(response, observed.state)) continue;
    return {
      id: `call_${request.turn}`,
      name,
      arguments: referenceArguments(response, tool, observed.state),
    };
  }
  return null;
}

function answerWith(text: string): AgentTurnResponse {
  return { text, toolCalls: [] };
}

/**
 * Arguments that satisfy a response's rules: each required parameter a placeholder of its type,
 * then each rule's value (`eq`/`eq_text`: its value; `one_of`: the first; `state`: the revealed
 * value; `contains_state`: a text containing it; `nonempty`: a text).
 */
export function referenceArguments(
  response: Pick<FixtureResponse, "argument_rules">,
  tool: ToolDefinition,
  state: ReadonlyMap<string, unknown>,
): Record<string, unknown> {
  const args = placeholderArguments(tool);
  const summary = [...state.values()].map(String).join(", ");
  for (const [name, rule] of Object.entries(response.argument_rules)) {
    if ("eq" in rule) args[name] = rule.eq;
    else if ("eq_text" in rule) args[name] = rule.eq_text;
    else if ("one_of" in rule) args[name] = rule.one_of[0];
    else if ("state" in rule) args[name] = state.get(rule.state);
    else if ("contains_state" in rule) args[name] = `See ${String(state.get(rule.contains_state))}`;
    else if ("instant" in rule) args[name] = rule.instant;
    else if ("terms" in rule) args[name] = rule.terms[0];
    else if ("fits_slot" in rule) Object.assign(args, slotArguments(name, rule.fits_slot, state));
    else args[name] = summary === "" ? "Done." : `Done: ${summary}`;
  }
  return args;
}

/**
 * A booking inside the first revealed slot long enough for the rule: from the slot's start, for
 * the rule's shortest duration (or the whole slot); nothing when no slot fits.
 */
function slotArguments(
  startName: string,
  rule: { slots: string; end: string; min_minutes?: number | undefined; max_minutes?: number | undefined },
  state: ReadonlyMap<string, unknown>,
): Record<string, unknown> {
  const slots = state.get(rule.slots);
  for (const slot of Array.isArray(slots) ? slots : []) {
    const { start, end } = (slot ?? {}) as { start?: unknown; end?: unknown };
    const from = instantOf(start);
    const to = instantOf(end);
    if (from === null || to === null) continue;
    const minutes =
      rule.min_minutes ?? Math.min((to - from) / 60_000, rule.max_minutes ?? Number.POSITIVE_INFINITY);
    const until = from + minutes * 60_000;
    if (minutes <= 0 || until > to) continue;
    return { [startName]: start, [rule.end]: new Date(until).toISOString().replace(".000Z", "Z") };
  }
  return {};
}

/**
 * Each required parameter of a tool, a placeholder its schema accepts (the executor validates every
 * call as the API would): the first enum value, a date-time or date for a formatted string, a
 * number within its bounds, else one of its type (`"n/a"`, 1, false, [], {}).
 */
export function placeholderArguments(tool: ToolDefinition): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of tool.parameters.required)
    args[name] = placeholderOf((tool.parameters.properties[name] ?? {}) as Record<string, unknown>);
  return args;
}

function placeholderOf(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"][0];
  if (schema["format"] === "date-time") return "2026-01-01T00:00:00Z";
  if (schema["format"] === "date") return "2026-01-01";
  const type = typeof schema["type"] === "string" ? schema["type"] : "string";
  const value = PLACEHOLDERS[type] ?? "n/a";
  if (typeof value !== "number") return value;
  const { minimum, maximum, exclusiveMinimum } = schema;
  if (typeof minimum === "number" && value < minimum) return minimum;
  if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) return exclusiveMinimum + 1;
  return typeof maximum === "number" && value > maximum ? maximum : value;
}

const PLACEHOLDERS: Readonly<Record<string, unknown>> = {
  string: "n/a",
  integer: 1,
  number: 1,
  boolean: false,
  array: [],
  object: {},
};
