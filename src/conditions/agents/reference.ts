/**
 * The deterministic `reference` agent — no model. Each turn it calls a required response of the
 * task's fixture that it has not received yet, whose route is visible and whose state (an id an
 * earlier response revealed) it has, with arguments that satisfy the response's rules; when none
 * can be called it asks for more tools. When every required response was returned, or on its last
 * turn, it answers the form: each field's value read from the observation it received, at the
 * fact's evidence pointer (never the task's gold value), converted to the field's unit, a derived
 * fact computed from its inputs, and the record's source_id cited.
 *
 * When it asks for more tools it appends the answer it has so far, so a condition that never
 * widens still scores exactly the facts the agent could reach. It is the ceiling a careful reader
 * reaches under each condition's visibility and turn budget.
 */
import type {
  AnswerField,
  DerivedEvidence,
  EvidencePointer,
  FixtureResponse,
  RequiredFact,
  Task,
} from "../../authoring/index.ts";
import { isDerived, readNumber } from "../../authoring/index.ts";
import { jsonEqual, resolvePointer, type UnitConverter } from "../../core/index.ts";
import type { ToolDefinition } from "../execution/render.ts";
import type { Agent, AgentEpisode, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export const REFERENCE_AGENT_VERSION = 2;

/** What the conversation shows: the responses received, their sources, the state they revealed. */
interface Observed {
  readonly returned: ReadonlySet<string>;
  /** source_id → payload; a required response's record wins over another with the same id. */
  readonly sources: ReadonlyMap<string, unknown>;
  readonly state: ReadonlyMap<string, unknown>;
}

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
  const missing = task.executor_fixture.responses.filter((r) => r.required && !observed.returned.has(r.id));
  if (missing.length === 0 || request.turn >= request.maxTurns)
    return answer(envelope(task, observed, units));
  for (const response of missing) {
    const name = response.route_id.replace(".", "__");
    const tool = request.tools.find((t) => t.name === name);
    if (tool === undefined || !stateAvailable(response, observed.state)) continue;
    return {
      text: "",
      toolCalls: [
        { id: `call_${request.turn}`, name, arguments: referenceArguments(response, tool, observed.state) },
      ],
    };
  }
  return answer(`${requestMoreTools}\n${envelope(task, observed, units)}`);
}

function answer(text: string): AgentTurnResponse {
  return { text, toolCalls: [] };
}

function stateAvailable(response: FixtureResponse, state: ReadonlyMap<string, unknown>): boolean {
  return Object.values(response.argument_rules).every((rule) =>
    "state" in rule
      ? state.has(rule.state)
      : "contains_state" in rule
        ? state.has(rule.contains_state)
        : true,
  );
}

/** The fixture responses among the tool results, their records and what they revealed. */
function readResults(task: Task, request: AgentTurnRequest): Observed {
  const returned = new Set<string>();
  const sources = new Map<string, unknown>();
  const others = new Map<string, unknown>();
  const state = new Map<string, unknown>();
  for (const message of request.messages) {
    if (message.role !== "tool") continue;
    let result: unknown;
    try {
      result = JSON.parse(message.content) as unknown;
    } catch {
      continue;
    }
    const response = task.executor_fixture.responses.find((r) => jsonEqual(r.observation, result));
    const records = (result as { sources?: unknown } | null)?.sources;
    for (const record of Array.isArray(records) ? records : []) {
      const { source_id, payload } = (record ?? {}) as { source_id?: unknown; payload?: unknown };
      if (typeof source_id !== "string") continue;
      const into = response?.required === true ? sources : others;
      if (!into.has(source_id)) into.set(source_id, payload);
    }
    if (response === undefined) continue;
    returned.add(response.id);
    for (const [name, pointer] of Object.entries(response.reveals ?? {})) {
      const found = resolvePointer(result, pointer);
      if (found.found) state.set(name, found.value);
    }
  }
  for (const [id, payload] of others) if (!sources.has(id)) sources.set(id, payload);
  return { returned, sources, state };
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
  const args: Record<string, unknown> = {};
  for (const name of tool.parameters.required) {
    const type = (tool.parameters.properties[name] as { type?: string } | undefined)?.type;
    args[name] = PLACEHOLDERS[type ?? "string"] ?? "n/a";
  }
  const summary = [...state.values()].map(String).join(", ");
  for (const [name, rule] of Object.entries(response.argument_rules)) {
    if ("eq" in rule) args[name] = rule.eq;
    else if ("eq_text" in rule) args[name] = rule.eq_text;
    else if ("one_of" in rule) args[name] = rule.one_of[0];
    else if ("state" in rule) args[name] = state.get(rule.state);
    else if ("contains_state" in rule) args[name] = `See ${String(state.get(rule.contains_state))}`;
    else args[name] = summary === "" ? "Done." : `Done: ${summary}`;
  }
  return args;
}

const PLACEHOLDERS: Readonly<Record<string, unknown>> = {
  string: "n/a",
  integer: 1,
  number: 1,
  boolean: false,
  array: [],
  object: {},
};

interface AnswerFact {
  readonly key: string;
  readonly value: unknown;
  readonly unit: string | null;
  readonly source_id: string;
}

/** The answer form filled from what was observed: a field whose evidence was not received is left out. */
function envelope(task: Task, observed: Observed, units: UnitConverter): string {
  const facts = task.answer_fields.flatMap((field) => {
    const required = task.required_facts.find((f) => f.key === field.key);
    const fact = required === undefined ? null : readFact(field, required, observed, units);
    return fact === null ? [] : [fact];
  });
  const sources = [...new Set(facts.map((f) => f.source_id))];
  const text =
    facts.length === 0 ? "No evidence was available to answer." : `Answer from ${sources.join(", ")}.`;
  return JSON.stringify({ answer: text, facts, sources });
}

interface Reading {
  readonly value: unknown;
  readonly unit: string | null;
}

function readFact(
  field: AnswerField,
  required: RequiredFact,
  observed: Observed,
  units: UnitConverter,
): AnswerFact | null {
  const evidence = required.evidence;
  if (isDerived(evidence)) {
    const inputs = evidence.inputs.map((input) => read(input, observed));
    if (inputs.some((i) => i === null)) return null;
    const value = derive(evidence, inputs as Reading[], field, units);
    if (value === null) return null;
    const cited = evidence.inputs.map((i) => i.source_id);
    const source = cited.includes(required.source_id) ? required.source_id : (cited[0] as string);
    return { key: field.key, ...value, source_id: source };
  }
  const reading = read(evidence, observed);
  if (reading === null) return null;
  return { key: field.key, ...inFieldUnit(reading, field, units), source_id: evidence.source_id };
}

/** The value at a pointer of a received record, and its unit (at `unit_pointer`, or fixed). */
function read(evidence: EvidencePointer, observed: Observed): Reading | null {
  if (!observed.sources.has(evidence.source_id)) return null;
  const payload = observed.sources.get(evidence.source_id);
  const found = resolvePointer(payload, evidence.pointer);
  if (!found.found) return null;
  let value = found.value;
  // A quote names the passage of the string there: a text's words, or a number as the text spells
  // it ("187.4", "11,4"), read as that number.
  if (evidence.quote !== undefined && typeof value === "string" && value.includes(evidence.quote))
    value = readNumber(evidence.quote) ?? evidence.quote;
  // A list spread over rows: each row's item at `item_pointer`.
  if (evidence.item_pointer !== undefined && Array.isArray(value)) {
    const itemPointer = evidence.item_pointer;
    const items = value.map((row) => resolvePointer(row, itemPointer));
    if (items.some((item) => !item.found)) return null;
    value = items.map((item) => (item.found ? item.value : null));
  }
  let unit: string | null = evidence.unit ?? null;
  if (evidence.unit_pointer !== undefined) {
    const at = resolvePointer(payload, evidence.unit_pointer);
    unit = at.found && typeof at.value === "string" ? at.value : unit;
  }
  return { value, unit };
}

/** A number converted to the field's unit (a difference without the offset); other kinds as read. */
function inFieldUnit(reading: Reading, field: AnswerField, units: UnitConverter): Reading {
  if (field.kind === "list" && Array.isArray(reading.value) && field.unit !== null && reading.unit !== null) {
    const from = reading.unit;
    const to = field.unit;
    const items = reading.value.map((item) =>
      typeof item === "number" ? units.convert(item, from, to) : null,
    );
    // A list converts only when every item does; otherwise it is given as the record has it.
    if (items.every((item) => item !== null)) return { value: items.map((i) => tidy(i as number)), unit: to };
    return reading;
  }
  if (field.kind !== "number" || typeof reading.value !== "number")
    return { value: reading.value, unit: field.unit };
  if (field.unit === null || reading.unit === null)
    return { value: reading.value, unit: field.unit ?? reading.unit };
  const converted =
    field.difference === true
      ? convertDifference(units, reading.value, reading.unit, field.unit)
      : units.convert(reading.value, reading.unit, field.unit);
  // A unit the converter does not know: the value as the record gives it, in the record's unit.
  return converted === null ? reading : { value: tidy(converted), unit: field.unit };
}

/** A difference converts by the linear part of the map only (10 °C of difference is 10 K). */
function convertDifference(units: UnitConverter, value: number, from: string, to: string): number | null {
  const at = units.convert(value, from, to);
  const zero = units.convert(0, from, to);
  return at === null || zero === null ? null : at - zero;
}

/** Each input in `unit` (when both are known and convert), else as read. */
function numbersIn(inputs: readonly Reading[], unit: string | null, units: UnitConverter): number[] | null {
  const numbers: number[] = [];
  for (const input of inputs) {
    if (typeof input.value !== "number") return null;
    const converted =
      unit === null || input.unit === null ? input.value : units.convert(input.value, input.unit, unit);
    if (converted === null) return null;
    numbers.push(converted);
  }
  return numbers;
}

/** A derived fact computed from its inputs as `corpus check` defines the operations. */
function derive(
  evidence: DerivedEvidence,
  inputs: readonly Reading[],
  field: AnswerField,
  units: UnitConverter,
): Reading | null {
  const first = inputs[0] as Reading;
  if (evidence.derived === "difference" || evidence.derived === "sum") {
    // Absolute values converted first, then combined: an offset (°C ↔ K) cancels in a difference.
    const numbers = numbersIn(inputs, field.unit ?? first.unit, units);
    if (numbers === null) return null;
    const [a = 0, ...rest] = numbers;
    const value =
      evidence.derived === "sum" ? numbers.reduce((s, n) => s + n, 0) : a - rest.reduce((s, n) => s + n, 0);
    return { value: tidy(value), unit: field.unit ?? first.unit };
  }
  if (evidence.derived === "ratio") {
    const numbers = numbersIn(inputs, first.unit, units);
    if (numbers === null || numbers.length < 2 || numbers[1] === 0) return null;
    const ratio = (numbers[0] as number) / (numbers[1] as number);
    return { value: tidy(field.unit === "%" ? ratio * 100 : ratio), unit: field.unit };
  }
  if (evidence.derived === "higher" || evidence.derived === "lower") {
    const numbers = numbersIn(inputs, first.unit, units);
    if (numbers === null || evidence.labels === undefined) return null;
    const pick = evidence.derived === "higher" ? Math.max(...numbers) : Math.min(...numbers);
    const label = evidence.labels[numbers.indexOf(pick)];
    return label === undefined ? null : { value: label, unit: null };
  }
  const spec = evidence.spec ?? {};
  const [value] = numbersIn([first], spec.unit ?? first.unit, units) ?? [];
  if (value === undefined) return null;
  const within =
    (spec.min === undefined || value >= spec.min) && (spec.max === undefined || value <= spec.max);
  return { value: within, unit: null };
}

/** Twelve significant digits: a conversion's binary noise (0.30000000000000004) never reaches the answer. */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}
