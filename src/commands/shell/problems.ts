/** Printing row-level problems (identity and content) the same way for every corpus command. */
import type { RowProblem } from "../../authoring/index.ts";
import { capJsonProblems, formatProblem, LISTED_PER_FILE, restLine, type Problem } from "../../core/index.ts";
import { EXIT, type CliIo } from "./io.ts";

/** The JSON shape of a problem: exactly code, semantic_task_id, location, message. */
export function jsonProblem(p: RowProblem) {
  return { code: p.code, semantic_task_id: p.semantic_task_id, location: p.location, message: p.message };
}

/**
 * A report's `errors` in JSON: every problem up to the cap; past it, the first ones and
 * `truncated: true` with `error_count`, the number there were.
 */
export function jsonErrors(problems: readonly RowProblem[]) {
  const { kept, truncation } = capJsonProblems(problems);
  return {
    errors: kept.map(jsonProblem),
    ...(truncation === null ? {} : { truncated: truncation.truncated, error_count: truncation.total }),
  };
}

/** A report's `warnings` in JSON, capped as errors are (`warning_count` when cut). */
export function jsonWarnings(warnings: readonly RowProblem[]) {
  const { kept, truncation } = capJsonProblems(warnings);
  return {
    warnings: kept.map(jsonProblem),
    ...(truncation === null ? {} : { warnings_truncated: true, warning_count: truncation.total }),
  };
}

/**
 * Findings that are reported, not failed, on the standard output after the verdict: each line
 * `warning: file:line: code: message`, at most 50, then the rest counted by code and the total.
 */
export function printWarnings(
  io: CliIo,
  warnings: readonly RowProblem[],
  files: { corpus: string; plan: string },
): void {
  if (warnings.length === 0) return;
  for (const line of problemLines(warnings, files)) io.out(`warning: ${line}\n`);
  io.out(`${files.corpus}: ${warnings.length} warning(s), reported and not failed\n`);
}

/**
 * `file:line: code: [id: ]message (location)`; plan-level problems point at the plan file. Every
 * problem is the checked corpus's (a slot the plan has and the corpus lacks included), so at most
 * 50 lines in all, then one line counting the rest by code — not 50 per file named.
 */
export function printProblems(
  io: CliIo,
  problems: readonly RowProblem[],
  files: { corpus: string; plan: string },
): void {
  for (const line of problemLines(problems, files)) io.err(`${line}\n`);
}

/** The lines `printProblems` prints: at most 50, then one counting the rest by code. */
function problemLines(problems: readonly RowProblem[], files: { corpus: string; plan: string }): string[] {
  const located = problems.map((p): Problem => {
    const subject =
      p.semantic_task_id !== null && !p.message.includes(p.semantic_task_id) ? `${p.semantic_task_id}: ` : "";
    const file = p.location.startsWith("plan ") ? files.plan : files.corpus;
    return {
      code: p.code,
      message: `${subject}${p.message} (${p.location})`,
      file,
      ...(p.line === null ? {} : { line: p.line }),
    };
  });
  const lines = located.slice(0, LISTED_PER_FILE).map((p) => formatProblem(p));
  if (located.length > LISTED_PER_FILE) lines.push(restLine(located.slice(LISTED_PER_FILE)));
  return lines;
}

/**
 * A row that is not an object, or has a field of the wrong type, means the file is not a corpus
 * that can be checked: that is unreadable input (2), not a failed validation (1).
 */
export function exitFor(problems: readonly RowProblem[]): number {
  if (problems.length === 0) return EXIT.ok;
  return problems.some((p) => p.code === "invalid_row") ? EXIT.input : EXIT.failed;
}
