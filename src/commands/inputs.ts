/**
 * The I/O shell's loaders: read a file, parse it with a stage's pure parser, and turn problems
 * into one input error (exit 2) that lists every one of them.
 */
import { parsePlan, parseProtocol, type Plan, type Protocol } from "../authoring/index.ts";
import { decodeUtf8, inputError, parseJsonText, readBytes, type Result, sha256Hex } from "../core/index.ts";

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

function loadJson<T>(path: string, stage: string, parse: (value: unknown, file: string) => Result<T>): Loaded<T> {
  const file = readTextFile(path, stage);
  const result = parse(parseJsonText(file.text, path, stage), path);
  if (!result.ok) {
    const first = result.problems[0];
    throw inputError(stage, first?.code ?? "invalid_input", first?.message ?? "invalid input", { file: path, problems: result.problems });
  }
  return { value: result.value, path, fileSha256: file.fileSha256 };
}

export function loadProtocol(path: string): Loaded<Protocol> {
  return loadJson(path, "protocol", parseProtocol);
}

export function loadPlan(path: string): Loaded<Plan> {
  return loadJson(path, "plan", parsePlan);
}
