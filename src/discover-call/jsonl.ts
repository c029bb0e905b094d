/**
 * Reading the benchmark's JSON Lines (task sets and record files) without stopping at the first
 * bad line: every unparseable line becomes a problem with its line number, so one pass over a
 * file reports everything wrong with it together with the schema problems found afterwards.
 */
import {
  decodeUtf8,
  depthBreach,
  FabenchError,
  locateJsonError,
  MAX_FILE_JSON_DEPTH,
  type Problem,
} from "../core/index.ts";

export const STAGE = "discover-call";

export interface JsonLine {
  /** 1-based line in the file. */
  readonly line: number;
  readonly value: unknown;
}

export interface JsonLines {
  readonly rows: JsonLine[];
  readonly problems: Problem[];
}

/**
 * The parsed lines of `bytes` and the problems of the lines that are not JSON. Blank lines and
 * lines starting with `#` are skipped: the reference implementation's reader skips both, and a
 * file it accepts must read the same here.
 */
export function readJsonLines(bytes: Uint8Array, file: string): JsonLines {
  let text: string;
  try {
    text = decodeUtf8(bytes, file, STAGE);
  } catch (error) {
    if (error instanceof FabenchError) return { rows: [], problems: [...error.problems] };
    throw error;
  }
  const rows: JsonLine[] = [];
  const problems: Problem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const trimmed = content.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    // Checked before parsing: nothing recursive (schemas, hashing, writing) ever sees deeper input.
    const deep = depthBreach(content, MAX_FILE_JSON_DEPTH);
    if (deep !== -1) {
      problems.push({
        code: "json_too_deep",
        file,
        line: index + 1,
        message: `arrays and objects nest deeper than ${MAX_FILE_JSON_DEPTH} levels (at column ${deep + 1})`,
      });
      return;
    }
    try {
      rows.push({ line: index + 1, value: JSON.parse(content) as unknown });
    } catch {
      problems.push({
        code: "invalid_json",
        file,
        line: index + 1,
        message: jsonMessage(content, index, lines),
      });
    }
  });
  return { rows, problems };
}

function jsonMessage(content: string, index: number, lines: readonly string[]): string {
  const found = locateJsonError(content);
  const reason = found?.reason ?? "unreadable";
  // Only the last line can lack its newline; cut off mid-value, it is what a stopped writer leaves.
  // It is reported like any other bad line: a record file is scored whole or not at all.
  const endsEarly = reason === "unexpected end of input" || reason === "unterminated string";
  const torn = index === lines.length - 1 && endsEarly ? " (the line is cut off: a torn last line)" : "";
  return `not valid JSON: ${reason}${found ? ` at column ${found.offset + 1}` : ""}${torn}`;
}

/** The FabenchError (input, exit 2) that carries every problem; its code and message are the first one's. */
export function problemsError(file: string, problems: readonly Problem[]): FabenchError {
  const first = problems[0];
  return new FabenchError({
    kind: "input",
    stage: STAGE,
    code: first?.code ?? "invalid_input",
    message: first?.message ?? "invalid input",
    file,
    problems,
  });
}

/** Problems in file order; problems of the whole file (no line) first. Stable within a line. */
export function byLine(a: Problem, b: Problem): number {
  return (a.line ?? 0) - (b.line ?? 0);
}
