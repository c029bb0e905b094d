/**
 * Listing problems without flooding: one place decides how many a person or a JSON report sees.
 * Text shows at most {@link LISTED_PER_FILE} problems per input file, then one line that counts
 * the rest by code; JSON keeps at most {@link JSON_PROBLEM_LIMIT} and says when it cut the list.
 */
import { formatProblem, type Problem } from "./errors.ts";
import { compareCodePoints } from "./text.ts";

/** How many problems of one input file are printed before the rest are counted. */
export const LISTED_PER_FILE = 50;

/** How many problems a JSON report keeps. */
export const JSON_PROBLEM_LIMIT = 10_000;

/** `617950` → `617,950`: digits in groups of three, the same in every locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The lines to print for a list of problems (no newlines): grouped by file in the order each file
 * first appears (problems without a file form one group of their own), each group in its given
 * order, at most `perFile` lines per group and then one line for the rest of that group:
 * `… and 617,950 more: invalid_run_record ×617,950, invalid_json ×3` (most frequent code first,
 * ties by code).
 */
export function problemLines(
  problems: readonly Problem[],
  format: (problem: Problem) => string = formatProblem,
  perFile: number = LISTED_PER_FILE,
): string[] {
  const groups = new Map<string | undefined, Problem[]>();
  for (const problem of problems) {
    const group = groups.get(problem.file);
    if (group) group.push(problem);
    else groups.set(problem.file, [problem]);
  }
  const lines: string[] = [];
  for (const group of groups.values()) {
    for (const problem of group.slice(0, perFile)) lines.push(format(problem));
    const rest = group.slice(perFile);
    if (rest.length > 0) lines.push(restLine(rest));
  }
  return lines;
}

/** `… and N more: code_a ×n, code_b ×m` for problems that were not listed. */
export function restLine(rest: readonly Problem[]): string {
  const counts = new Map<string, number>();
  for (const { code } of rest) counts.set(code, (counts.get(code) ?? 0) + 1);
  const byCode = [...counts].sort(([a, m], [b, n]) => n - m || compareCodePoints(a, b));
  return `… and ${formatCount(rest.length)} more: ${byCode.map(([code, n]) => `${code} ×${formatCount(n)}`).join(", ")}`;
}

/** A problem list cut for a JSON report: `truncation` is null when nothing was cut. */
export interface JsonProblemList<T> {
  readonly kept: T[];
  readonly truncation: { readonly truncated: true; readonly total: number } | null;
}

/** Keeps the first `limit` problems; when it cuts, says so and how many there were. */
export function capJsonProblems<T>(
  problems: readonly T[],
  limit: number = JSON_PROBLEM_LIMIT,
): JsonProblemList<T> {
  if (problems.length <= limit) return { kept: [...problems], truncation: null };
  return { kept: problems.slice(0, limit), truncation: { truncated: true, total: problems.length } };
}

/**
 * How many non-blank lines of a line-based file may hold nothing of its kind before the whole
 * file is reported as not that kind of file, in one problem instead of one per line.
 */
export const KIND_PROBE_LINES = 1_000;

/**
 * `not a fabench run file: none of its first 1,000 lines is a run record` (`probed` lines were
 * read; fewer than {@link KIND_PROBE_LINES} means the file has no more).
 */
export function notOfKindMessage(kind: string, item: string, probed: number): string {
  const which =
    probed === 1
      ? `its only line is not a ${item}`
      : `none of its ${probed < KIND_PROBE_LINES ? "" : "first "}${formatCount(probed)} lines is a ${item}`;
  return `not a fabench ${kind} file: ${which}`;
}
