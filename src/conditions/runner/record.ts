/** One JSON line per episode: what happened, and the provenance that says what it may be compared with. */
import { z } from "zod";
import { PROGRESSIVE_TRIGGERS } from "../execution/widening.ts";

export const RECORD_FORMAT = "fabench-run-record/v1";

const sha = z.string().regex(/^[0-9a-f]{64}$/);

export const runMetadataSchema = z.strictObject({
  format: z.literal(RECORD_FORMAT),
  tool: z.literal("fabench"),
  tool_version: z.string(),
  git_revision: z.string().nullable(),
  agent: z.string(),
  model: z.string().nullable(),
  agent_settings: z.record(z.string(), z.json()),
  tokenizer: z.string(),
  protocol_id: z.string(),
  protocol_sha256: sha,
  plan_slots_sha256: sha,
  corpus_tasks_sha256: sha,
  corpus_file_sha256: sha,
  catalogs: z.array(z.strictObject({ size: z.number().int(), sha256: sha })),
  condition_manifest_sha256: sha,
  router_id: z.string(),
  router_config_sha256: sha,
  system_prompt_sha256: sha,
  max_turns: z.number().int().positive(),
  trials: z.number().int().positive(),
  selection: z.strictObject({
    conditions: z.array(z.string()),
    catalog_sizes: z.array(z.number().int()),
    tasks: z.string().nullable(),
    /** Every selected task before sharding, so a merge can tell a missing shard. */
    task_count: z.number().int().nonnegative(),
    task_ids_sha256: sha,
  }),
  /**
   * What opened the prerequisite lock for a model agent: the gate stage and the conveyor file (path
   * and hash) that satisfied it; all null under a protocol without a gate stage (a pilot); null for
   * the reference agent, which no lock governs. Absent in records written before it existed.
   */
  unlocked_by: z
    .strictObject({
      gate_stage: z.string().nullable(),
      conveyor_path: z.string().nullable(),
      conveyor_sha256: sha.nullable(),
    })
    .nullable()
    .exactOptional(),
  /**
   * `gold`: SR-PROGRESSIVE widened on the origin harness's gold-based trigger
   * (`--progressive-trigger gold`), a labelled variant no gate judges. Absent: the default,
   * widening only on what a deployed system observes.
   */
  progressive_trigger: z.enum(PROGRESSIVE_TRIGGERS).exactOptional(),
});

export type RunMetadata = z.infer<typeof runMetadataSchema>;

const tokens = z.strictObject({ input: z.number(), output: z.number(), tool_schema: z.number() });

export const runRecordSchema = z.strictObject({
  semantic_task_id: z.string(),
  answer_task_stratum: z.string(),
  language: z.string(),
  catalog_size: z.number().int(),
  condition: z.string(),
  trial: z.number().int().positive(),
  status: z.enum(["completed", "error"]),
  error_code: z.string().nullable(),
  final_text: z.string(),
  end_reason: z.enum(["final_answer", "turn_limit", "infrastructure_error"]),
  turns: z.array(z.record(z.string(), z.unknown())),
  attempts: z.array(z.record(z.string(), z.unknown())),
  candidate_history: z.array(
    z.strictObject({
      turn: z.number(),
      stage: z.number(),
      visible_route_count: z.number(),
      required_routes_visible: z.array(z.string()),
    }),
  ),
  expansions: z.number().int().nonnegative(),
  required_routes_advanced: z.array(z.string()),
  required_route_call_coverage: z.number(),
  unauthorized_destructive_attempts: z.number().int().nonnegative(),
  unauthorized_destructive_executions: z.number().int().nonnegative(),
  tokens,
  /**
   * Search conditions only (#34): searches in the episode, and route ids in the order first loaded.
   * Absent under every other condition (its records are as they were); a reader treats an absent
   * `search_count` as 0.
   */
  search_count: z.number().int().nonnegative().exactOptional(),
  routes_loaded: z.array(z.string()).exactOptional(),
  timings: z.strictObject({ started_at: z.string(), duration_ms: z.number() }),
  shard: z.string().nullable(),
  metadata: runMetadataSchema,
});

export type RunRecord = z.infer<typeof runRecordSchema>;
