/**
 * How often a required fact sits in a record field named exactly as its form key — the corpus-wide
 * measure of how much an agent could answer by matching names instead of reading the evidence.
 * A derived fact has no one field, so it never counts as named.
 */
import { pointerTokens } from "../../core/index.ts";
import { isDerived, type Task } from "../task.ts";

export interface FieldNameShare {
  readonly required_facts: number;
  /** Required facts whose field (the pointer's last token that is not an array index) is the form key. */
  readonly named_as_form_key: number;
  /** named_as_form_key / required_facts, rounded to 4 places; null for no required facts. */
  readonly share: number | null;
}

/** The record field a pointer names: its last token that is not an array index, or null. */
export function fieldName(pointer: string): string | null {
  const tokens = pointerTokens(pointer) ?? [];
  for (let i = tokens.length - 1; i >= 0; i--)
    if (!/^(0|[1-9]\d*)$/.test(tokens[i] as string)) return tokens[i] ?? null;
  return null;
}

export function fieldNameShare(tasks: readonly Task[]): FieldNameShare {
  let total = 0;
  let named = 0;
  for (const task of tasks)
    for (const fact of task.required_facts) {
      total += 1;
      if (!isDerived(fact.evidence) && fieldName(fact.evidence.pointer) === fact.key) named += 1;
    }
  return {
    required_facts: total,
    named_as_form_key: named,
    share: total === 0 ? null : Math.round((named / total) * 10_000) / 10_000,
  };
}
