/**
 * Turns a corpus file's text into rows with their locations. A corpus may be a JSON array, a
 * JSON object with `tasks` or `rows`, or JSON Lines (by extension, or when the text is not one
 * JSON value but its lines are).
 */
import {
  arrayElementStarts,
  declaredFormat,
  formatOf,
  inputError,
  KIND_PROBE_LINES,
  LineIndex,
  notOfKindMessage,
  parseJsonLines,
  parseJsonText,
  wrongKind,
} from "../core/index.ts";
import { CORPUS_FORMAT } from "./corpus-file.ts";

export type CorpusFormat = "json-array" | "json-object" | "jsonl";

export interface CorpusRow {
  readonly value: unknown;
  /** `line N` for JSONL, `index N` (0-based) for JSON. */
  readonly location: string;
  /** 1-based line where the row starts, for `file:line:` messages. */
  readonly line: number;
}

export interface CorpusRows {
  readonly format: CorpusFormat;
  readonly rows: CorpusRow[];
  /** The whole parsed document when it is one JSON value (not JSONL). */
  readonly document: unknown;
}

const STAGE = "corpus";

export function parseCorpusText(text: string, file: string): CorpusRows {
  if (/\.(jsonl|ndjson)$/i.test(file)) return fromJsonLines(text, file);
  let document: unknown;
  try {
    document = parseJsonText(text, file, STAGE);
  } catch (error) {
    if (looksLikeJsonLines(text)) return fromJsonLines(text, file);
    throw error;
  }
  if (Array.isArray(document))
    return { format: "json-array", rows: fromArray(document, text, null), document };
  if (typeof document === "object" && document !== null) {
    const record = document as Record<string, unknown>;
    const keys = (["tasks", "rows"] as const).filter((k) => Object.hasOwn(record, k));
    const key = keys[0];
    if (keys.length === 2)
      throw inputError(STAGE, "ambiguous_task_list", "the object has both tasks and rows; keep one", {
        file,
      });
    if (key === undefined)
      throw (
        wrongKind(file, formatOf(document), CORPUS_FORMAT, STAGE) ??
        inputError(STAGE, "no_task_list", "the object has neither tasks nor rows", { file })
      );
    const list = record[key];
    if (!Array.isArray(list)) throw inputError(STAGE, "no_task_list", `${key} is not a list`, { file });
    return { format: "json-object", rows: fromArray(list, text, key), document };
  }
  const kind = document === null ? "null" : typeof document;
  throw inputError(
    STAGE,
    "not_a_corpus",
    `the top-level value is ${kind}; expected a list of tasks, an object with tasks or rows, or JSON Lines`,
    { file },
  );
}

function fromArray(list: unknown[], text: string, key: string | null): CorpusRow[] {
  const starts = arrayElementStarts(text, key);
  const lines = new LineIndex(text);
  return list.map((value, index) => ({
    value,
    location: `index ${index}`,
    line: lines.lineOf(starts[index] ?? 0),
  }));
}

function fromJsonLines(text: string, file: string): CorpusRows {
  // A fabench file of another kind (a run file) says so on its first line.
  const wrong = wrongKind(
    file,
    declaredFormat(text.slice(0, text.indexOf("\n") + 1 || undefined)),
    CORPUS_FORMAT,
    STAGE,
  );
  if (wrong) throw wrong;
  const probed = rowlessLines(text);
  if (probed > 0)
    throw inputError(STAGE, "not_a_corpus_file", notOfKindMessage("corpus", "corpus row", probed), { file });
  const rows = parseJsonLines(text, file, STAGE).map(({ line, value }) => ({
    value,
    location: `line ${line}`,
    line,
  }));
  return { format: "jsonl", rows, document: null };
}

/**
 * How many non-blank lines were read without finding a JSON object (a row) among them, when that
 * is all of the file's first {@link KIND_PROBE_LINES}; 0 when a row was found (or the file is blank).
 */
function rowlessLines(text: string): number {
  let probed = 0;
  let start = 0;
  while (start <= text.length && probed < KIND_PROBE_LINES) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === "") continue;
    probed++;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return 0;
    } catch {
      /* not a row */
    }
  }
  return probed;
}

/** Two or more non-blank lines and the first one is a JSON object on its own. */
function looksLikeJsonLines(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length < 2) return false;
  try {
    const first = JSON.parse(lines[0] ?? "") as unknown;
    return typeof first === "object" && first !== null && !Array.isArray(first);
  } catch {
    return false;
  }
}
