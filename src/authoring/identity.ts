/**
 * Corpus identity validation (DESIGN §6): narrow and outcome-independent. It checks that the
 * corpus fills the plan's slots exactly once, without stratum or language drift, with unique
 * non-empty queries — and never looks at content quality or outcomes.
 */
import { canonicalSha256, normalizeQuery, sortByCodePoint } from "../core/index.ts";
import type { CorpusRow } from "./corpus-rows.ts";
import type { Plan, Slot } from "./plan.ts";

export const IDENTITY_ERROR_CODES = [
  "invalid_row",
  "missing_semantic_task_id",
  "duplicate_semantic_task_id",
  "unknown_semantic_task_id",
  "missing_slot",
  "row_count_mismatch",
  "stratum_drift",
  "language_drift",
  "empty_query",
  "duplicate_normalized_query",
] as const;
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

export interface IdentityError {
  readonly code: IdentityErrorCode;
  readonly semantic_task_id: string | null;
  readonly location: string;
  readonly message: string;
  /** Line in the corpus file (null for plan-level problems); not part of the JSON report. */
  readonly line: number | null;
}

export interface IdentityReport {
  readonly ok: boolean;
  readonly row_count: number;
  readonly authoring_slot_count: number;
  readonly normalized_query_count: number;
  readonly identity_sha256: string | null;
  readonly query_content_sha256: string | null;
  readonly errors: IdentityError[];
}

interface IdentityRow {
  readonly semantic_task_id: string;
  readonly answer_task_stratum: string;
  readonly language: string;
  readonly query: string;
}

const STRING_FIELDS = ["answer_task_stratum", "language", "query"] as const;

export function validateIdentity(rows: readonly CorpusRow[], plan: Plan): IdentityReport {
  const errors: IdentityError[] = [];
  const slots = new Map<string, Slot>(plan.slots.map((s) => [s.semantic_task_id, s]));
  const firstSeen = new Map<string, CorpusRow>();
  const queries = new Map<string, string>(); // normalised query → first task id
  const accepted: IdentityRow[] = [];

  for (const row of rows) {
    const push = (code: IdentityErrorCode, id: string | null, message: string) =>
      errors.push({ code, semantic_task_id: id, location: row.location, line: row.line, message });
    const value = row.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      push("invalid_row", null, `a row must be an object, not ${describe(value)}`);
      continue;
    }
    const record = value as Record<string, unknown>;
    const rawId = record["semantic_task_id"];
    if (rawId === undefined || rawId === null || rawId === "") {
      push("missing_semantic_task_id", null, "the row has no semantic_task_id");
      continue;
    }
    if (typeof rawId !== "string") {
      push("invalid_row", null, `semantic_task_id must be a string, not ${describe(rawId)}`);
      continue;
    }
    const id = rawId;
    const badFields = STRING_FIELDS.filter((f) => typeof record[f] !== "string");
    for (const field of badFields)
      push("invalid_row", id, `${field} must be a string, not ${record[field] === undefined ? "missing" : describe(record[field])}`);
    const previous = firstSeen.get(id);
    if (previous) {
      push("duplicate_semantic_task_id", id, `${id} already appears at ${previous.location}`);
      continue;
    }
    firstSeen.set(id, row);
    const slot = slots.get(id);
    if (!slot) push("unknown_semantic_task_id", id, `${id} is not a slot of the authoring plan`);
    const stratum = record["answer_task_stratum"];
    const language = record["language"];
    if (slot && typeof stratum === "string" && stratum !== slot.answer_task_stratum)
      push("stratum_drift", id, `answer_task_stratum is ${stratum} but the plan says ${slot.answer_task_stratum}`);
    if (slot && typeof language === "string" && language !== slot.language)
      push("language_drift", id, `language is ${language} but the plan says ${slot.language}`);
    const query = record["query"];
    if (typeof query === "string") {
      const normalized = normalizeQuery(query);
      const owner = queries.get(normalized);
      if (normalized === "") push("empty_query", id, "the query is empty after normalisation");
      else if (owner !== undefined)
        push("duplicate_normalized_query", id, `the query of ${id} normalises to the same text as the query of ${owner}`);
      else queries.set(normalized, id);
    }
    if (badFields.length === 0)
      accepted.push({ semantic_task_id: id, answer_task_stratum: stratum as string, language: language as string, query: query as string });
  }

  plan.slots.forEach((slot, index) => {
    if (!firstSeen.has(slot.semantic_task_id))
      errors.push({ code: "missing_slot", semantic_task_id: slot.semantic_task_id, location: `plan slots[${index}]`, line: null, message: `no row for planned slot ${slot.semantic_task_id}` });
  });
  if (rows.length !== plan.slots.length)
    errors.push({ code: "row_count_mismatch", semantic_task_id: null, location: "corpus", line: null, message: `the corpus has ${rows.length} rows but the plan has ${plan.slots.length} slots` });

  const ok = errors.length === 0;
  return {
    ok,
    row_count: rows.length,
    authoring_slot_count: plan.slots.length,
    normalized_query_count: queries.size,
    identity_sha256: ok ? identitySha256(accepted) : null,
    query_content_sha256: ok ? queryContentSha256(accepted) : null,
    errors,
  };
}

/** sha256 of rows sorted by id (code point), each `{semantic_task_id, answer_task_stratum, language}`. */
export function identitySha256(rows: readonly IdentityRow[]): string {
  return canonicalSha256(
    sortByCodePoint(rows, (r) => r.semantic_task_id).map((r) => ({
      semantic_task_id: r.semantic_task_id,
      answer_task_stratum: r.answer_task_stratum,
      language: r.language,
    })),
  );
}

/** The same with `{semantic_task_id, query}`, the raw (un-normalised) query. */
export function queryContentSha256(rows: readonly IdentityRow[]): string {
  return canonicalSha256(sortByCodePoint(rows, (r) => r.semantic_task_id).map((r) => ({ semantic_task_id: r.semantic_task_id, query: r.query })));
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
