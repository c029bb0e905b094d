/**
 * Run files are JSON Lines, appended one record at a time. A process killed mid-write leaves at
 * most one torn last line (no newline); readers drop it and report how many bytes it had. A last
 * line that only lacks its newline but is whole JSON is not torn — cutting a JSON object anywhere
 * else cannot leave valid JSON — and is read like any other line, as in a judgments file. The
 * text is UTF-8, read strictly (`invalid_utf8` with its line); a byte-order mark is dropped, as
 * every fabench reader drops it.
 */
import {
  type AppendFs,
  decodeUtf8,
  declaredFormat,
  depthBreach,
  FabenchError,
  formatOf,
  inputError,
  issuePath,
  JsonlAppender,
  KIND_PROBE_LINES,
  MAX_FILE_JSON_DEPTH,
  notOfKindMessage,
  type Problem,
  wrongKind,
} from "../../core/index.ts";
import { RECORD_FORMAT, runRecordSchema, type RunRecord } from "./record.ts";
import { quickRunRecord } from "./record-fast.ts";

export interface ParsedRun {
  readonly records: RunRecord[];
  /** 1-based line of each record. */
  readonly lines: number[];
  /** Bytes of complete lines; a torn tail starts here. */
  readonly completeBytes: number;
  readonly tornBytes: number;
  /** The complete lines, decoded (without a byte-order mark): `lines` index into its `\n`-split. */
  readonly text: string;
  /** Whether the last complete line lacks its newline (an appending writer must add it first). */
  readonly unterminated: boolean;
}

const TOO_DEEP = `arrays and objects nest deeper than ${MAX_FILE_JSON_DEPTH} levels; no run record does`;

export function parseRunBytes(bytes: Buffer, file: string): ParsedRun {
  const afterNewline = bytes.lastIndexOf(0x0a) + 1;
  const end = wholeJson(bytes.subarray(afterNewline)) ? bytes.length : afterNewline;
  const text = decodeUtf8(bytes.subarray(0, end), file, "run");
  const wrong = wrongKind(file, declaredFormat(text), RECORD_FORMAT, "run");
  if (wrong) throw wrong;
  const records: RunRecord[] = [];
  const lines: number[] = [];
  const problems: Problem[] = [];
  const all = text.split("\n");
  let seen = 0;
  // Whether any line so far is a run record, or claims a fabench format (a broken record, or
  // another kind of fabench file): then every bad line is reported on its own.
  let runLike = false;
  for (let index = 0; index < all.length; index++) {
    const line = all[index] as string;
    if (line.trim() === "") continue;
    if (!runLike && ++seen > KIND_PROBE_LINES) throw notARunFile(file, seen - 1);
    // Before parsing: the schema's JSON values are checked recursively.
    if (depthBreach(line, MAX_FILE_JSON_DEPTH) !== -1) {
      problems.push({ code: "json_too_deep", file, line: index + 1, message: TOO_DEEP });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push({ code: "invalid_run_record", file, line: index + 1, message: "not valid JSON" });
      continue;
    }
    // The common record passes the quick check; anything else goes through zod, which words refusals.
    const quick = quickRunRecord(value);
    if (quick !== null) {
      runLike = true;
      records.push(quick);
      lines.push(index + 1);
      continue;
    }
    const parsed = runRecordSchema.safeParse(value);
    if (!parsed.success) {
      runLike ||= hasFormat(value);
      const issue = parsed.error.issues[0];
      problems.push({
        code: "invalid_run_record",
        file,
        line: index + 1,
        message: `${issue ? `${issuePath(issue.path)}: ${issue.message}` : "not a run record"}`,
      });
      continue;
    }
    runLike = true;
    records.push(parsed.data);
    lines.push(index + 1);
  }
  if (!runLike && seen > 0) throw notARunFile(file, seen);
  if (problems.length > 0)
    throw inputError("run", problems[0]?.code ?? "invalid_run_record", problems[0]?.message ?? "", {
      file,
      problems,
    });
  return {
    records,
    lines,
    completeBytes: end,
    tornBytes: bytes.length - end,
    text,
    unterminated: end > afterNewline,
  };
}

/** Whether the part after the last newline is a whole line: JSON (or blank) in valid UTF-8. */
function wholeJson(tail: Buffer): boolean {
  if (tail.length === 0) return false;
  let text: string;
  try {
    text = decodeUtf8(tail, "", "run");
  } catch {
    return false; // cut inside a character
  }
  if (text.trim() === "") return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One problem for a file none of whose first lines is a run record, instead of one per line. */
function notARunFile(file: string, probed: number): FabenchError {
  return inputError("run", "not_a_run_file", notOfKindMessage("run", "run record", probed), { file });
}

function hasFormat(value: unknown): boolean {
  return formatOf(value) !== null;
}

/** The file operations a run writer uses: node's, or a test's that fails on cue (a full disk). */
export type RunWriterFs = AppendFs;

/** The run file's appender: whole records, cut back on a failed write (see core/jsonl-appender.ts). */
export class RunWriter extends JsonlAppender<RunRecord> {}
