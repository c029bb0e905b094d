/**
 * The I/O shell's loaders: read a file, parse it with a stage's pure parser, and turn problems
 * into one input error (exit 2) that lists every one of them.
 */
import {
  PLAN_FORMAT,
  parseCorpusText,
  parsePlan,
  parseProtocol,
  PROTOCOL_FORMAT,
  type Plan,
  type Protocol,
} from "../authoring/index.ts";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  CATALOG_FORMAT,
  catalogFileName,
  nestingProblems,
  parseCatalog,
  type Catalog,
} from "../conditions/catalog/index.ts";
import {
  CONDITION_MANIFEST_FORMAT,
  parseConditionManifest,
  type ConditionManifest,
} from "../conditions/routing/index.ts";
import type { z } from "zod";
import { priceTableSchema, type Price } from "../providers/index.ts";
import {
  bundledPath,
  canonicalSha256,
  declaredFormat,
  decodeUtf8,
  formatOf,
  inputError,
  normalizeQuery,
  parseJsonText,
  readBytes,
  type Result,
  sha256Hex,
  withJsonLines,
  usageError,
  wrongKind,
  zodProblems,
} from "../core/index.ts";
import { coverageStudySchema, type CoverageStudy } from "../metrics/index.ts";
import { SUMMARY_FORMAT, summarySchema, type Summary } from "../summary/index.ts";

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
function loadJson<T>(
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

/** A JSON file checked against a schema; every problem gets `code` and the line of its JSON path. */
export function loadWithSchema<S extends z.ZodType>(
  path: string,
  stage: string,
  schema: S,
  code: string,
  format: string | null = null,
): z.infer<S> {
  return loadJson(path, stage, format, (value, file) => {
    const parsed = schema.safeParse(value);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, problems: zodProblems(parsed.error, code, file) };
  }).value;
}

/** The price of the model an agent spec names (`kind:MODEL`), from a `--prices` table; null without one. */
export function loadPrice(path: string | undefined, spec: string): Price | null {
  if (path === undefined) return null;
  const table = loadWithSchema(path, "prices", priceTableSchema, "invalid_prices");
  const model = spec.slice(spec.indexOf(":") + 1);
  const price = table.models[model];
  if (!price) throw usageError("no_price", `${path} has no price for model ${model}`);
  return price;
}

export function loadProtocol(path: string): Loaded<Protocol> {
  return loadJson(path, "protocol", PROTOCOL_FORMAT, parseProtocol);
}

export function loadPlan(path: string): Loaded<Plan> {
  return loadJson(path, "plan", PLAN_FORMAT, parsePlan);
}

export interface LoadedCatalog {
  readonly size: number;
  readonly catalog: Catalog;
  readonly file: string;
  readonly fileSha256: string;
}

/** The protocol's catalogs from a folder (`{size}.json`), each checked, and checked to nest. */
export function loadCatalogs(dir: string, sizes: readonly number[]): LoadedCatalog[] {
  const loaded = sizes.map((size) => {
    const found = loadJson(join(dir, catalogFileName(size)), "catalog", CATALOG_FORMAT, parseCatalog);
    return { size, catalog: found.value, file: found.path, fileSha256: found.fileSha256 };
  });
  const problems = nestingProblems(loaded);
  if (problems.length > 0)
    throw inputError("catalog", problems[0]?.code ?? "catalog_not_nested", problems[0]?.message ?? "", {
      problems,
    });
  return loaded;
}

/** Normalised queries of earlier benchmark surfaces (any corpus format) → the file they come from. */
export function loadPriorQueries(paths: readonly string[]): Map<string, string> {
  const queries = new Map<string, string>();
  for (const path of paths) {
    const { rows } = parseCorpusText(readTextFile(path, "corpus").text, path);
    for (const { value } of rows) {
      const query =
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)["query"] : undefined;
      if (typeof query === "string" && !queries.has(normalizeQuery(query)))
        queries.set(normalizeQuery(query), path);
    }
  }
  return queries;
}

export function loadConditionManifest(path: string): Loaded<ConditionManifest> {
  return loadJson(path, "conditions", CONDITION_MANIFEST_FORMAT, parseConditionManifest);
}

/** A `fabench simulate coverage --json` output (its published schema), for the report's coverage footnote. */
export function readCoverageStudy(path: string): CoverageStudy {
  return loadWithSchema(path, "report", coverageStudySchema, "not_a_coverage_study");
}

/** A summary file, checked field by field against its published schema. */
export function readSummary(path: string): Summary {
  return loadWithSchema(path, "summary", summarySchema, "invalid_summary", SUMMARY_FORMAT);
}

/** The protocol a summary was scored under: refused (exit 2) when its hash is not the summary's. */
export function loadSummaryProtocol(
  summary: Summary,
  summaryPath: string,
  protocolPath: string,
  stage: string,
): Protocol {
  const protocol = loadProtocol(protocolPath).value;
  if (summary.protocol_sha256 !== canonicalSha256(protocol))
    throw inputError(
      stage,
      "protocol_mismatch",
      `the summary was scored under protocol ${summary.protocol_id} (${summary.protocol_sha256.slice(0, 12)}…), not ${protocolPath}; give that protocol with --protocol${summary.protocol_id.endsWith("-pilot") ? ", or the pilot's folder with --pilot DIR" : ""}`,
      { file: summaryPath },
    );
  return protocol;
}

/** Whether a protocol, by its canonical hash, is the bundled preregistration. */
export function isPreregistered(protocolSha256: string): boolean {
  return (
    canonicalSha256(loadProtocol(bundledPath("manifests/preregistration.json")).value) === protocolSha256
  );
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
