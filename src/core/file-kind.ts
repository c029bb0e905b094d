/**
 * Every file fabench writes names its kind in `format` (`fabench-summary/v4`). A reader handed a
 * file of another kind says so in one line — what the file is, what the command wants, and which
 * command reads what it got — instead of listing every field the wrong file lacks.
 */
import { inputError, type FabenchError } from "./errors.ts";

interface Kind {
  /** "a fabench summary" */
  readonly name: string;
  /** Where a file of this kind goes, for the "did you mean" hint. */
  readonly readBy: string;
}

/** Kinds by format family (the format without its `/vN`). */
const KINDS: Readonly<Record<string, Kind>> = {
  "fabench-run-record": {
    name: "a fabench run file",
    readBy: "`fabench score`, `fabench report --runs` or `fabench runs`",
  },
  "fabench-summary": { name: "a fabench summary", readBy: "`fabench gate` or `fabench report`" },
  "fabench-judgment": {
    name: "a fabench judgments file",
    readBy: "`fabench score --judgments` or `fabench judge agreement`",
  },
  "fabench-preregistration": { name: "a fabench protocol", readBy: "`--protocol`" },
  "fabench-authoring-plan": { name: "a fabench authoring plan", readBy: "`--plan`" },
  "fabench-corpus": { name: "a fabench corpus", readBy: "`--corpus` or `fabench corpus check`" },
  "fabench-authored-tasks": {
    name: "a file of authored tasks",
    readBy: "`fabench corpus generate --authored`",
  },
  "fabench-catalog": { name: "a fabench catalog", readBy: "`--catalogs DIR` (the folder that holds it)" },
  "fabench-condition-manifest": { name: "a fabench condition manifest", readBy: "`--manifest`" },
  "fabench-conveyor": { name: "a fabench conveyor", readBy: "`--conveyor`" },
  "fabench-pilot": { name: "a fabench pilot marker", readBy: "`--pilot DIR` (the folder that holds it)" },
  "fabench-identity-freeze": {
    name: "a fabench identity freeze manifest",
    readBy: "`fabench corpus validate`",
  },
};

const family = (format: string): string => format.replace(/\/v\d+$/, "");

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The `format` of a parsed JSON object (a run record carries it in its `metadata`), if it has one. */
export function formatOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  const format = value["format"] ?? (isObject(value["metadata"]) ? value["metadata"]["format"] : undefined);
  return typeof format === "string" ? format : null;
}

/**
 * The `format` a file declares: of the whole file when it is one JSON value, else of its first line.
 * The first line is tried first: when it is a whole JSON value by itself, the whole file is either
 * that same value (the rest blank) or not JSON at all, so both readings agree — and a run file of
 * many megabytes is not handed whole to a parse that fails at its second line.
 */
export function declaredFormat(text: string): string | null {
  const newline = text.indexOf("\n");
  if (newline >= 0) {
    const first = parsed(text.slice(0, newline));
    if (first !== undefined) return formatOf(first);
  }
  const whole = parsed(text);
  return whole === undefined ? null : formatOf(whole);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * `null` when `found` is the wanted format or names no fabench kind; otherwise the one-line error:
 * another kind (with where it goes), or the same kind in a format this version does not read.
 */
export function wrongKind(
  file: string,
  found: string | null,
  wanted: string,
  stage: string,
): FabenchError | null {
  if (found === null || found === wanted) return null;
  const kind = KINDS[family(found)];
  const want = KINDS[family(wanted)];
  if (!kind || !want) return null;
  if (family(found) === family(wanted))
    return inputError(
      stage,
      "unsupported_format",
      `this is ${kind.name} in format ${found}; this fabench reads ${wanted} — make it again with this version`,
      { file },
    );
  return inputError(
    stage,
    "wrong_file_kind",
    `this is ${kind.name} (${found}), not ${want.name} (${wanted}) — did you mean ${kind.readBy}?`,
    { file },
  );
}
