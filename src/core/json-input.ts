/**
 * Reading one fabench JSON file of a known kind: the bytes (size-limited), the text (strict UTF-8),
 * the format check (a file of another kind is named in one line), then a stage's parser or schema.
 * Every problem becomes one input error (exit 2) that lists all of them with their lines.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { sha256Hex } from "./canonical-json.ts";
import { inputError, type Result } from "./errors.ts";
import { declaredFormat, formatOf, wrongKind } from "./file-kind.ts";
import { decodeUtf8, parseJsonText, readBytes } from "./json-file.ts";
import { withJsonLines, zodProblems } from "./schema.ts";

export interface Loaded<T> {
  readonly value: T;
  readonly path: string;
  /** SHA-256 of the file's raw bytes. */
  readonly fileSha256: string;
}

export interface TextFile {
  readonly path: string;
  readonly bytes: Buffer;
  readonly text: string;
  readonly fileSha256: string;
}

export function readTextFile(path: string, stage: string): TextFile {
  const bytes = readBytes(path, stage);
  return { path, bytes, text: decodeUtf8(bytes, path, stage), fileSha256: sha256Hex(bytes) };
}

/** A JSON file of one fabench kind (`format`), parsed; a file of another kind is named in one line. */
export function loadJson<T>(
  path: string,
  stage: string,
  format: string | null,
  parse: (value: unknown, file: string) => Result<T>,
): Loaded<T> {
  const file = readTextFile(path, stage);
  let value: unknown;
  try {
    value = parseJsonText(file.text, path, stage);
  } catch (error) {
    // A JSON Lines file of another kind (a run file) is not JSON; its first line says what it is.
    throw (format === null ? null : wrongKind(path, declaredFormat(file.text), format, stage)) ?? error;
  }
  const wrong = format === null ? null : wrongKind(path, formatOf(value), format, stage);
  if (wrong) throw wrong;
  const result = parse(value, path);
  if (!result.ok) {
    const first = result.problems[0];
    throw inputError(stage, first?.code ?? "invalid_input", first?.message ?? "invalid input", {
      file: path,
      problems: withJsonLines(result.problems, file.text),
    });
  }
  return { value: result.value, path, fileSha256: file.fileSha256 };
}

/**
 * A JSON file checked against a schema; every problem gets `code` and the line of its JSON path.
 * `quick`, a faster check of the common shape, gives the value zod would give or null (not sure:
 * then zod parses it and words any refusal).
 */
export function loadWithSchema<S extends z.ZodType>(
  path: string,
  stage: string,
  schema: S,
  code: string,
  format: string | null = null,
  quick?: (value: unknown) => z.infer<S> | null,
): z.infer<S> {
  return loadJson(path, stage, format, (value, file) => {
    const fast = quick?.(value) ?? null;
    if (fast !== null) return { ok: true, value: fast };
    const parsed = schema.safeParse(value);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, problems: zodProblems(parsed.error, code, file) };
  }).value;
}

/** The `.json` files directly in a folder (the catalogs, the authored tasks), for output checks; none if it is not a folder. */
export function jsonFilesIn(dir: string): string[] {
  try {
    if (!statSync(dir).isDirectory()) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}
