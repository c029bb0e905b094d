/**
 * Findings in a task set that are reported, not refused: a bidirectional override or isolate in
 * what the adapter reads (the prompt and the discover query). U+202A–U+202E and U+2066–U+2069
 * make text display in an order other than the one sent ("Trojan Source"), so a reviewer reading
 * the task set may not see the query the API gets. The marks U+200E, U+200F and U+061C are left
 * alone: Arabic and Hebrew text uses them honestly, and they reorder nothing around them.
 */
import type { Problem } from "../core/index.ts";

const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/** `query_bidi_control` for each queried field of a task that holds a bidi control (the first one named). */
export function queryWarnings(task: Record<string, unknown>, file: string, line: number): Problem[] {
  const warnings: Problem[] = [];
  for (const field of ["prompt", "discover_query"]) {
    const value = task[field];
    if (typeof value !== "string") continue;
    const found = BIDI_CONTROL.exec(value);
    if (found === null) continue;
    const codePoint = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase();
    warnings.push({
      code: "query_bidi_control",
      file,
      line,
      message: `task ${String(task["id"])}: ${field} holds the bidi control U+${codePoint} at character ${[...value.slice(0, found.index)].length + 1}: it can display in another order than the one sent`,
    });
  }
  return warnings;
}
