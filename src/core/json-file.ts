/**
 * Reading JSON and JSONL inputs with errors that name the file and line. Everything here throws
 * a FabenchError of kind "input" (exit 2): the input could not be read, so nothing was checked.
 */
import { readFileSync, statSync } from "node:fs";
import { inputError, type Problem } from "./errors.ts";
import { depthBreach, MAX_FILE_JSON_DEPTH } from "./json-bounded.ts";
import { locateJsonError } from "./json-syntax.ts";
import { LineIndex } from "./text.ts";

const BLANK = /^[ \t]*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const MIB = 1024 * 1024;

/**
 * The largest file each stage reads, checked before reading so no input can exhaust memory.
 * Generous for real files (a 1,440-episode reference run is 7.6 MB; a model run a few hundred MB).
 */
export const READ_LIMITS: Readonly<Record<string, number>> = {
  run: 1024 * MIB,
  batch: 256 * MIB,
  summary: 512 * MIB,
  evidence: 1024 * MIB,
  corpus: 64 * MIB,
  envelope: 16 * MIB,
};
/** Every other kind (protocol, plan, catalog, manifest, conveyor, prices, scenarios…). */
export const DEFAULT_READ_LIMIT = 64 * MIB;

export function readLimit(stage: string): number {
  return READ_LIMITS[stage] ?? DEFAULT_READ_LIMIT;
}

const sizeText = (bytes: number) => (bytes >= MIB ? `${Math.round(bytes / MIB)} MiB` : `${bytes} bytes`);

/** A regular file's bytes; a folder, a device, a pipe or a file over the stage's limit is refused unread. */
export function readBytes(path: string, stage: string): Buffer {
  if (path === "") throw inputError(stage, "empty_path", "an empty path was given where a file was expected");
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (error) {
    throw inputError(stage, "unreadable_file", describeFsError(error), { file: path });
  }
  if (stats.isDirectory())
    throw inputError(stage, "unreadable_file", "is a folder, not a file", { file: path });
  if (!stats.isFile())
    throw inputError(
      stage,
      "not_a_regular_file",
      "is not a regular file (a device, pipe or socket); give a file",
      {
        file: path,
      },
    );
  const limit = readLimit(stage);
  if (stats.size > limit)
    throw inputError(
      stage,
      "file_too_large",
      `is ${stats.size.toLocaleString("en-US")} bytes, more than the ${sizeText(limit)} a ${stage} file may be`,
      { file: path },
    );
  try {
    return readFileSync(path);
  } catch (error) {
    throw inputError(stage, "unreadable_file", describeFsError(error), { file: path });
  }
}

/** Decodes UTF-8 strictly; a byte-order mark is dropped (editors add it, JSON forbids it). */
export function decodeUtf8(bytes: Uint8Array, file: string, stage: string): string {
  try {
    const text = utf8.decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const line = countNewlines(bytes, offset) + 1;
    throw inputError(stage, "invalid_utf8", `not valid UTF-8 (byte ${offset})`, { file, line });
  }
}

/** Parses a whole file as one JSON value. */
export function parseJsonText(text: string, file: string, stage: string): unknown {
  if (text.trim() === "") throw inputError(stage, "empty_file", "the file is empty", { file });
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown; // iterative in V8: deep input parses without overflow
  } catch {
    throw jsonSyntaxProblem(text, file, stage);
  }
  const deep = depthBreach(text, MAX_FILE_JSON_DEPTH);
  if (deep !== -1) {
    const lines = new LineIndex(text);
    throw inputError(stage, "json_too_deep", tooDeepMessage(lines.columnOf(deep)), {
      file,
      line: lines.lineOf(deep),
    });
  }
  return value;
}

export interface JsonLine {
  readonly line: number;
  readonly value: unknown;
}

/** Parses JSON Lines; blank lines are skipped; every bad line is reported, not only the first. */
export function parseJsonLines(text: string, file: string, stage: string): JsonLine[] {
  const rows: JsonLine[] = [];
  const problems: Problem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (BLANK.test(content)) return;
    try {
      const value = JSON.parse(content) as unknown; // iterative in V8, whatever the depth
      const deep = depthBreach(content, MAX_FILE_JSON_DEPTH);
      if (deep === -1) rows.push({ line: index + 1, value });
      else problems.push({ code: "json_too_deep", message: tooDeepMessage(deep + 1), file, line: index + 1 });
    } catch {
      // A final line without its newline that stops mid-value is what a killed writer leaves.
      const unterminatedLastLine = index === lines.length - 1;
      const found = locateJsonError(content);
      const reason = found?.reason ?? "not valid JSON";
      const endsEarly = reason === "unexpected end of input" || reason === "unterminated string";
      const hint = unterminatedLastLine && endsEarly ? " (the line is truncated)" : "";
      problems.push({
        code: "invalid_json",
        message: `not valid JSON: ${reason}${found ? ` at column ${found.offset + 1}` : ""}${hint}`,
        file,
        line: index + 1,
      });
    }
  });
  if (problems.length > 0) {
    const first = problems[0] as Problem;
    throw inputError(stage, first.code, first.message, { file, problems });
  }
  if (rows.length === 0) throw inputError(stage, "empty_file", "the file has no JSON lines", { file });
  return rows;
}

function tooDeepMessage(column: number): string {
  return `arrays and objects nest deeper than ${MAX_FILE_JSON_DEPTH} levels (at column ${column}); no fabench file needs that`;
}

function jsonSyntaxProblem(text: string, file: string, stage: string) {
  const found = locateJsonError(text);
  const offset = found?.offset ?? 0;
  const lines = new LineIndex(text);
  return inputError(
    stage,
    "invalid_json",
    `not valid JSON: ${found?.reason ?? "unreadable"} at column ${lines.columnOf(offset)}`,
    { file, line: lines.lineOf(offset) },
  );
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a folder, not a file";
  return `cannot read (${code ?? "unknown error"})`;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) count++;
  return count;
}

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return i;
}
