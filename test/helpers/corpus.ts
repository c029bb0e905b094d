/** Identity rows that fill a plan exactly, for tests to break one thing at a time. */
import type { Plan } from "../../src/authoring/index.ts";

export interface Row {
  semantic_task_id?: unknown;
  answer_task_stratum?: unknown;
  language?: unknown;
  query?: unknown;
  [key: string]: unknown;
}

export function validRows(plan: Plan): Row[] {
  return plan.slots.map((slot, i) => ({
    semantic_task_id: slot.semantic_task_id,
    answer_task_stratum: slot.answer_task_stratum,
    language: slot.language,
    query: `[Q${i + 1}] What is the modulus of sample ${i + 1}?`,
  }));
}

export function toJsonl(rows: readonly unknown[]): string {
  return `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
}
