/**
 * The `probe:copy-first` reading: every field filled with the first value of its kind the tool
 * results hold, in the order received and, within a result, depth first in document order (its
 * `result`, then each source's `payload`; the envelope's `status` and `source_id` are no values,
 * and neither is an error reply). A number comes with the unit nearest it: a string member named
 * `unit` or `units` (or ending in `_unit`) of its own object, else of the closest enclosing object
 * that has one, else none; such a unit member is not a text value. Every fact cites the first
 * record received. It reads no evidence pointer, so it stands for an agent that copies without
 * reading which value the question asks for.
 */
import type { AnswerField, Task } from "../../authoring/index.ts";
import type { AnswerFact } from "./answer-form.ts";
import type { Observed } from "./observed.ts";

interface Seen {
  readonly value: unknown;
  /** The nearest unit (see the file's comment), or null. */
  readonly unit: string | null;
}

const UNIT_KEY = /^(unit|units)$|_unit$/;

/** The form filled by first values; nothing when no record was received (there is nothing to cite). */
export function copyFirstFacts(task: Task, observed: Observed): AnswerFact[] {
  const seen = observed.results.flatMap(valuesOf);
  const source = firstSource(observed.results);
  if (source === null) return [];
  return task.answer_fields.flatMap((field) => {
    const first = seen.find((s) => fits(field, s.value));
    if (first === undefined) return [];
    const unit =
      field.kind === "number" || (field.kind === "list" && field.item_kind === "number") ? first.unit : null;
    return [{ key: field.key, value: first.value, unit, source_id: source }];
  });
}

/** Whether a value is of the field's kind (a list: non-empty, every item of its item kind). */
function fits(field: AnswerField, value: unknown): boolean {
  if (field.kind === "number") return typeof value === "number" && Number.isFinite(value);
  if (field.kind === "boolean") return typeof value === "boolean";
  if (field.kind === "text" || field.kind === "identifier") return typeof value === "string";
  if (!Array.isArray(value) || value.length === 0) return false;
  const item = field.item_kind ?? "text";
  return value.every((v) =>
    item === "number" ? typeof v === "number" && Number.isFinite(v) : typeof v === "string",
  );
}

/** The values of one tool result: its `result`, then each source's payload. */
function valuesOf(result: unknown): Seen[] {
  if (!isObject(result)) return [];
  const out: Seen[] = [];
  if (result["result"] !== undefined) walk(result["result"], null, out);
  const sources = result["sources"];
  for (const source of Array.isArray(sources) ? sources : [])
    if (isObject(source) && source["payload"] !== undefined) walk(source["payload"], null, out);
  return out;
}

/** Depth first in document order; an array is seen before its items (a list field may take it). */
function walk(node: unknown, unit: string | null, out: Seen[]): void {
  if (Array.isArray(node)) {
    out.push({ value: node, unit });
    for (const item of node) walk(item, unit, out);
    return;
  }
  if (!isObject(node)) {
    out.push({ value: node, unit });
    return;
  }
  const entries = Object.entries(node);
  const own = entries.find(([k, v]) => UNIT_KEY.test(k) && typeof v === "string")?.[1] as string | undefined;
  const here = own ?? unit;
  for (const [key, value] of entries) {
    if (UNIT_KEY.test(key) && typeof value === "string") continue;
    walk(value, here, out);
  }
}

function firstSource(results: readonly unknown[]): string | null {
  for (const result of results) {
    const sources = isObject(result) ? result["sources"] : undefined;
    for (const source of Array.isArray(sources) ? sources : [])
      if (isObject(source) && typeof source["source_id"] === "string") return source["source_id"];
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
