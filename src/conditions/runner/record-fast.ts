/**
 * A hand-written check of the common run record, in front of the zod schema (record.ts): parsing
 * 1,440 records through zod is a large part of `score` and `report --runs` (#35). It accepts only
 * what the schema accepts AND what the schema would hand back unchanged — every key in the
 * schema's own order, nothing the schema would drop or copy differently — and says "not sure"
 * otherwise; the caller then parses with zod, which accepts the rest and words every refusal. So
 * a record read through here is the very value zod would give, and a bad one is refused as before.
 */
import type { z } from "zod";
import { runMetadataSchema, runRecordSchema, type RunRecord } from "./record.ts";

type Check = (value: unknown) => boolean;

const SHA = /^[0-9a-f]{64}$/;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === "string";
const num: Check = (v) => typeof v === "number" && Number.isFinite(v);
const int: Check = (v) => Number.isSafeInteger(v);
const positive: Check = (v) => int(v) && (v as number) > 0;
const nonnegative: Check = (v) => int(v) && (v as number) >= 0;
const sha: Check = (v) => typeof v === "string" && SHA.test(v);
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const oneOf =
  (...values: readonly unknown[]): Check =>
  (v) =>
    values.includes(v);
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
/** A z.record's object: zod copies its own keys and drops a `__proto__` one, so that one is "not sure". */
const plainRecord =
  (check: Check): Check =>
  (v) =>
    isObject(v) && !Object.hasOwn(v, "__proto__") && Object.values(v).every(check);
const anything: Check = () => true;

/** The object shape inside a schema (through its optional, nullable and array wrappers). */
function shapeOf(schema: unknown): z.ZodRawShape {
  let at = schema as { shape?: z.ZodRawShape; _zod: { def: { innerType?: unknown; element?: unknown } } };
  while (at.shape === undefined) at = (at._zod.def.innerType ?? at._zod.def.element) as typeof at;
  return at.shape;
}

/**
 * A strict object's check: its keys exactly the shape's, in the shape's order (optional ones may be
 * absent), each value passing its check.
 */
function strict(schema: unknown, checks: Record<string, Check>, optional: readonly string[] = []): Check {
  const keys = Object.keys(shapeOf(schema));
  // The checks must name the schema's keys exactly: a field added to the schema and not here fails loudly.
  if (keys.join() !== Object.keys(checks).join())
    throw new Error(`record-fast: checks ${Object.keys(checks).join()} are not the schema's ${keys.join()}`);
  return (v) => {
    if (!isObject(v)) return false;
    let at = 0;
    for (const key in v) {
      while (at < keys.length && keys[at] !== key) {
        if (!optional.includes(keys[at] as string)) return false;
        at++;
      }
      if (at === keys.length || !(checks[key] as Check)(v[key])) return false;
      at++;
    }
    for (; at < keys.length; at++) if (!optional.includes(keys[at] as string)) return false;
    return true;
  };
}

const metadata = strict(
  runMetadataSchema,
  {
    format: oneOf(runMetadataSchema.shape.format.value),
    tool: oneOf("fabench"),
    tool_version: str,
    git_revision: nullable(str),
    agent: str,
    model: nullable(str),
    // z.json(): any JSON value, and a value JSON.parse made is one; only the record's own keys matter.
    agent_settings: plainRecord(anything),
    tokenizer: str,
    protocol_id: str,
    protocol_sha256: sha,
    plan_slots_sha256: sha,
    corpus_tasks_sha256: sha,
    corpus_file_sha256: sha,
    catalogs: arrayOf(strict(runMetadataSchema.shape.catalogs, { size: int, sha256: sha })),
    condition_manifest_sha256: sha,
    router_id: str,
    router_config_sha256: sha,
    system_prompt_sha256: sha,
    max_turns: positive,
    trials: positive,
    selection: strict(runMetadataSchema.shape.selection, {
      conditions: arrayOf(str),
      catalog_sizes: arrayOf(int),
      tasks: nullable(str),
      task_count: nonnegative,
      task_ids_sha256: sha,
    }),
    unlocked_by: nullable(
      strict(runMetadataSchema.shape.unlocked_by, {
        gate_stage: nullable(str),
        conveyor_path: nullable(str),
        conveyor_sha256: nullable(sha),
      }),
    ),
    progressive_trigger: oneOf(...runMetadataSchema.shape.progressive_trigger.unwrap().options),
  },
  ["unlocked_by", "progressive_trigger"],
);

const record = strict(
  runRecordSchema,
  {
    semantic_task_id: str,
    answer_task_stratum: str,
    language: str,
    catalog_size: int,
    condition: str,
    trial: positive,
    status: oneOf("completed", "error"),
    error_code: nullable(str),
    final_text: str,
    end_reason: oneOf("final_answer", "turn_limit", "infrastructure_error"),
    turns: arrayOf(plainRecord(anything)),
    attempts: arrayOf(plainRecord(anything)),
    candidate_history: arrayOf(
      strict(runRecordSchema.shape.candidate_history, {
        turn: num,
        stage: num,
        visible_route_count: num,
        required_routes_visible: arrayOf(str),
      }),
    ),
    expansions: nonnegative,
    required_routes_advanced: arrayOf(str),
    required_route_call_coverage: num,
    unauthorized_destructive_attempts: nonnegative,
    unauthorized_destructive_executions: nonnegative,
    tokens: strict(runRecordSchema.shape.tokens, { input: num, output: num, tool_schema: num }),
    search_count: nonnegative,
    routes_loaded: arrayOf(str),
    timings: strict(runRecordSchema.shape.timings, { started_at: str, duration_ms: num }),
    shard: nullable(str),
    metadata,
  },
  ["search_count", "routes_loaded"],
);

/** The record itself when it is surely valid and zod would return it unchanged; null: ask zod. */
export function quickRunRecord(value: unknown): RunRecord | null {
  return record(value) ? (value as RunRecord) : null;
}
