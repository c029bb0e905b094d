/**
 * Filling the answer form from what was observed, as the reference agent does: each field's value
 * read from a record it received at the fact's evidence pointer (never the task's gold value),
 * converted to the field's unit, a derived fact computed from its inputs, the record's source_id
 * cited. `ReadingRules` name the three choices a probe agent changes (whether to convert, where in
 * the record to read, what to cite); `REFERENCE_READING` is the reference agent's.
 */
import type {
  AnswerField,
  DerivedEvidence,
  EvidencePointer,
  FactEvidence,
  Task,
} from "../../authoring/index.ts";
import { isDerived, readNumber } from "../../authoring/index.ts";
import { resolvePointer, type UnitConverter } from "../../core/index.ts";
import type { Observed } from "./observed.ts";

export interface AnswerFact {
  readonly key: string;
  readonly value: unknown;
  readonly unit: string | null;
  readonly source_id: string;
}

export interface Reading {
  readonly value: unknown;
  readonly unit: string | null;
}

export interface ReadingRules {
  /** Numbers converted to the field's unit (else given as the record holds them, in its unit). */
  readonly convert: boolean;
  /** Where in a received record a pointer's value is read (the reference: at the pointer). */
  readonly locate: (evidence: EvidencePointer, payload: unknown) => EvidencePointer;
  /** What an answer cites for a record (the reference: its source_id). */
  readonly cite: (sourceId: string, observed: Observed) => string;
}

export const REFERENCE_READING: ReadingRules = {
  convert: true,
  locate: (evidence) => evidence,
  cite: (sourceId) => sourceId,
};

/** The fact evidence an answer is read by: a required fact's, or a forbidden one's. */
export interface ReadableFact {
  readonly evidence: FactEvidence;
  /** The source a derived fact cites when it is among its inputs. */
  readonly source_id?: string | undefined;
}

/** The form filled from what was observed: a field whose evidence was not received is left out. */
export function fillForm(
  task: Task,
  observed: Observed,
  units: UnitConverter,
  rules: ReadingRules = REFERENCE_READING,
): AnswerFact[] {
  return task.answer_fields.flatMap((field) => {
    const required = task.required_facts.find((f) => f.key === field.key);
    const fact = required === undefined ? null : readField(field, required, observed, units, rules);
    return fact === null ? [] : [fact];
  });
}

/** The final-answer envelope of these facts, as JSON text. */
export function formEnvelope(facts: readonly AnswerFact[]): string {
  const sources = [...new Set(facts.map((f) => f.source_id))];
  const text =
    facts.length === 0 ? "No evidence was available to answer." : `Answer from ${sources.join(", ")}.`;
  return JSON.stringify({ answer: text, facts, sources });
}

/** One field read by one fact's evidence, or null when its records were not received. */
export function readField(
  field: AnswerField,
  fact: ReadableFact,
  observed: Observed,
  units: UnitConverter,
  rules: ReadingRules = REFERENCE_READING,
): AnswerFact | null {
  const evidence = fact.evidence;
  if (isDerived(evidence)) {
    const inputs = evidence.inputs.map((input) => readEvidence(input, observed, rules));
    if (inputs.some((i) => i === null)) return null;
    // Without conversion a derived number is computed and given in its first input's unit.
    const target = rules.convert ? field : { ...field, unit: null };
    const value = derive(evidence, inputs as Reading[], target, units);
    if (value === null) return null;
    const cited = evidence.inputs.map((i) => i.source_id);
    const source =
      fact.source_id !== undefined && cited.includes(fact.source_id) ? fact.source_id : (cited[0] as string);
    return { key: field.key, ...value, source_id: rules.cite(source, observed) };
  }
  const reading = readEvidence(evidence, observed, rules);
  if (reading === null) return null;
  const value = rules.convert ? inFieldUnit(reading, field, units) : asRecorded(reading, field);
  return { key: field.key, ...value, source_id: rules.cite(evidence.source_id, observed) };
}

/** The value at a pointer of a received record, and its unit (at `unit_pointer`, or fixed). */
export function readEvidence(
  given: EvidencePointer,
  observed: Observed,
  rules: ReadingRules = REFERENCE_READING,
): Reading | null {
  if (!observed.sources.has(given.source_id)) return null;
  const payload = observed.sources.get(given.source_id);
  const evidence = rules.locate(given, payload);
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

/** A number or list as the record holds it, in the record's unit (the form's when it states none). */
function asRecorded(reading: Reading, field: AnswerField): Reading {
  if (field.kind !== "number" && field.kind !== "list") return { value: reading.value, unit: field.unit };
  return { value: reading.value, unit: reading.unit ?? field.unit };
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
