/**
 * Discover → Call records, one JSON line per trial, in the reference implementation's two forms:
 * - the raw record the runner writes (private: it holds discovery results and parameter values);
 * - the public record the publication step derives from it (identifiers and values replaced by
 *   counts, digests and grounding/parameterization attestations, §7 of the specification).
 * The scorer reads either. Both are strict: a field this reader does not know would be a field
 * the scorer silently ignores.
 */
import { z } from "zod";
import { issuePath, type Result } from "../core/index.ts";
import { acrossFields, type Json } from "./across-fields.ts";
import { byLine, problemsError, readJsonLines } from "./jsonl.ts";

export const RECORD_SCHEMA_VERSION = 1;
/** The methodology new runs record; `v1` records remain readable and are never mixed with `v2`. */
export const BENCHMARK_VERSION = "v2";
export const BENCHMARK_VERSIONS = ["v1", "v2"] as const;

/** Lanes the runner writes (§8); `model` and `oracle` are the names older runs used. */
export const LANES = ["reference", "configured-model", "pinned-model", "current-model"] as const;
const RAW_LANES = [...LANES, "model", "oracle"] as const;
const PUBLIC_LANES = [...LANES, "model"] as const;

/** Stage and reason codes: lower-case words joined by `_`, as the runner stores them. */
export const CODE_PATTERN = /^[a-z][a-z0-9_]{1,63}$/;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256");
const safeText = z
  .string()
  .regex(/\S/, "must not be blank")
  .max(256)
  .regex(/^[^\p{Cc}\p{Cf}]*$/u, "must not hold control or format characters");
const code = z.string().regex(CODE_PATTERN, "must be a code like missing_tool_id");
const timestamp = z.iso.datetime({
  error: (issue) => (issue.code === "invalid_format" ? "must be an ISO 8601 UTC timestamp" : undefined),
});
const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1);
const runtimeSchema = z.strictObject({ node: z.string(), platform: z.string(), arch: z.string() });

/** The comparability metadata every record of a run repeats. */
const metadataFields = {
  model_revision: z.string().min(1),
  adapter_revision: z.string().min(1),
  toolkit_revision: z.string().min(1),
  task_set_sha256: sha256,
  api_base_url: z.string().min(1),
  api_revision: z.string().min(1).describe("`pending` until the run's final write"),
  catalog_revision: z.string().min(1).describe("`pending` until the run's final write"),
  runtime: runtimeSchema,
  discovery_limit: z.number().int().min(1).max(100),
  execute: z.boolean(),
};

export const rawMetadataSchema = z.strictObject({
  lane: z.enum(RAW_LANES),
  ...metadataFields,
  catalog_observation_sha256: z.union([sha256, z.literal("pending")]),
});

export const publicMetadataSchema = z.strictObject({
  lane: z.enum(PUBLIC_LANES),
  ...metadataFields,
  catalog_observation_sha256: sha256,
  publication_policy: safeText,
});

const identity = {
  schema_version: z.literal(RECORD_SCHEMA_VERSION),
  benchmark_version: z.enum(BENCHMARK_VERSIONS),
  run_id: safeText,
  model: safeText,
  task_id: safeText,
  trial: z.number().int().min(1).max(100),
  started_at: timestamp,
  finished_at: timestamp,
  status: z.enum(["completed", "failed"]),
};

/** A failed trial names its stage and reason; only the runner's fixed messages are kept. */
const rawErrorSchema = z.strictObject({
  stage: code,
  reason_code: code.nullable(),
  message: z.string().max(500),
});

/** A required parameter by name, or a one-of group (any member supplied counts). */
const requirementSchema = z.union([z.string(), z.array(z.string())]);

const lifecycle = acrossFields(lifecycleRule);

export const rawRecordSchema = z
  .strictObject({
    ...identity,
    metadata: rawMetadataSchema,
    discovery: z.strictObject({ result_tool_ids: z.array(z.string()) }),
    selection: z.strictObject({ tool_id: z.string().min(1).nullable() }),
    inspection: z.strictObject({
      returned_tool_ids: z.array(z.string()),
      required_parameters: z.array(requirementSchema),
    }),
    parameters: z.record(z.string(), z.json()).nullable().describe("top-level nulls already removed"),
    call: z.strictObject({
      attempted: z.boolean(),
      success: z.boolean().nullable(),
      result_nonempty: z.boolean().optional(),
      /** The older runner's name for result_nonempty. */
      result_valid: z.boolean().optional(),
    }),
    error: rawErrorSchema.optional(),
  })
  .superRefine(...lifecycle);

export const publicRecordSchema = z
  .strictObject({
    ...identity,
    metadata: publicMetadataSchema,
    discovery: z.strictObject({
      result_count: count,
      snapshot_sha256: sha256,
      selection_grounded: z.boolean(),
    }),
    selection: z.strictObject({
      /** Null when the selected tool is not on the policy's approved list (then its digest is given). */
      tool_id: z.string().min(1).nullable(),
      tool_id_sha256: sha256.optional(),
    }),
    inspection: z.strictObject({ selection_grounded: z.boolean() }),
    parameterization: z.strictObject({ required_parameter_accuracy: share, constraint_accuracy: share }),
    call: z.strictObject({
      attempted: z.boolean(),
      success: z.boolean().nullable(),
      result_nonempty: z.boolean().optional(),
    }),
    error: z.strictObject({ stage: code, reason_code: code.nullable() }).optional(),
    source_record_sha256: sha256,
  })
  .superRefine(...lifecycle);

/** A failed trial, and only a failed one, says where it failed. */
function lifecycleRule(record: Json, report: (path: PropertyKey[], message: string) => void): void {
  const status = record["status"];
  if (status !== "failed" && status !== "completed") return;
  if ((status === "failed") !== (record["error"] !== undefined))
    report(
      ["error"],
      status === "failed" ? "a failed trial needs an error" : "a completed trial has no error",
    );
}

export type RawMetadata = z.infer<typeof rawMetadataSchema>;
export type PublicMetadata = z.infer<typeof publicMetadataSchema>;
export type RawRecord = z.infer<typeof rawRecordSchema>;
export type PublicRecord = z.infer<typeof publicRecordSchema>;
export type DiscoverCallRecord = RawRecord | PublicRecord;
export type RecordKind = "raw" | "public";

/** Which form a record is in: the public form is the one with attestations and a source digest. */
export function recordKind(value: unknown): RecordKind {
  const object = typeof value === "object" && value !== null ? value : {};
  return Object.hasOwn(object, "source_record_sha256") || Object.hasOwn(object, "parameterization")
    ? "public"
    : "raw";
}

export function isPublicRecord(record: DiscoverCallRecord): record is PublicRecord {
  return Object.hasOwn(record, "parameterization");
}

export const RECORD_SCHEMAS = { raw: rawRecordSchema, public: publicRecordSchema } as const;

export interface RecordFile {
  readonly file: string;
  readonly kind: RecordKind;
  /** In file order, which is plan order. */
  readonly records: DiscoverCallRecord[];
  /** 1-based line of each record. */
  readonly lines: number[];
}

/**
 * Every problem of a record file, or its records. A file holds one form, raw or public; a line
 * cut off by a stopped writer is a problem like any other, since a summary of part of a run
 * would silently drop trials from its denominators.
 */
export function checkRecords(bytes: Uint8Array, file: string): Result<RecordFile> {
  const { rows, problems } = readJsonLines(bytes, file);
  const records: DiscoverCallRecord[] = [];
  const lines: number[] = [];
  const firstOfKind: Partial<Record<RecordKind, number>> = {};
  for (const { line, value } of rows) {
    const kind = recordKind(value);
    firstOfKind[kind] ??= line;
    const parsed = RECORD_SCHEMAS[kind].safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({
          code: "invalid_record",
          file,
          line,
          message: `${kind} record: ${issuePath(issue.path)}: ${issue.message}`,
        });
      continue;
    }
    // The value as written, not zod's copy: the same content (the schema transforms nothing) in
    // the writer's key order, which the summary repeats for each record's metadata, and with an
    // own `__proto__` parameter, which zod's copy would drop.
    records.push(value as DiscoverCallRecord);
    lines.push(line);
  }
  const { raw, public: published } = firstOfKind;
  if (raw !== undefined && published !== undefined)
    problems.push({
      code: "mixed_record_kinds",
      file,
      line: Math.max(raw, published),
      message: `raw records (from line ${raw}) and public records (from line ${published}) in one file; score each form on its own`,
    });
  if (rows.length === 0 && problems.length === 0)
    problems.push({ code: "no_records", file, message: "the file holds no records" });
  if (problems.length > 0) return { ok: false, problems: problems.sort(byLine) };
  return { ok: true, value: { file, kind: raw === undefined ? "public" : "raw", records, lines } };
}

/** The records in `bytes`, or a FabenchError (input, exit 2) listing every problem with its line. */
export function parseRecords(bytes: Uint8Array, file: string): RecordFile {
  const checked = checkRecords(bytes, file);
  if (!checked.ok) throw problemsError(file, checked.problems);
  return checked.value;
}
