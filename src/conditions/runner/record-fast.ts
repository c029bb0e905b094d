/**
 * A hand-written check of the common run record, in front of the zod schema (record.ts): parsing
 * 1,440 records through zod is a large part of `score` and `report --runs` (#35). It accepts only
 * what the schema accepts AND what the schema would hand back unchanged — every key in the
 * schema's own order, nothing the schema would drop or copy differently — and says "not sure"
 * otherwise; the caller then parses with zod, which accepts the rest and words every refusal. So
 * a record read through here is the very value zod would give, and a bad one is refused as before.
 */
import {
  quickAnything as anything,
  quickArrayOf as arrayOf,
  quickInt as int,
  quickNonnegative as nonnegative,
  quickNullable as nullable,
  quickNum as num,
  quickOneOf as oneOf,
  quickPlainRecord as plainRecord,
  quickPositive as positive,
  quickSha as sha,
  quickStr as str,
  quickStrict as strict,
} from "../../core/index.ts";
import { runMetadataSchema, runRecordSchema, type RunRecord } from "./record.ts";

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
