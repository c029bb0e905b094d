/**
 * The Discover → Call summary (§6), field for field what the reference implementation's scorer
 * writes, so a fabench summary and a published `*.summary.json` compare equal except for
 * `generated_at`. Rates are rounded to 4 places; null means "not measurable from these records"
 * (no executed call, or a successful call without result evidence), never zero.
 */
import { z } from "zod";
import { publicMetadataSchema, rawMetadataSchema } from "./records.ts";

export const SUMMARY_SCHEMA_VERSION = 1;
/** `discover-call-` and the records' benchmark_version. */
export const METHODOLOGIES = ["discover-call-v1", "discover-call-v2"] as const;

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);

/** One trial's scores; a failed gate leaves the later scores at what was observed (often null). */
export const scoredRecordSchema = z.strictObject({
  run_id: z.string(),
  task_id: z.string(),
  model: z.string(),
  trial: z.number().int().positive(),
  completed: z.boolean(),
  executed: z.boolean(),
  selection_grounded: z.boolean(),
  inspection_grounded: z.boolean(),
  required_parameter_accuracy: rate,
  constraint_accuracy: rate,
  call_success: z.boolean().nullable().describe("null without a call"),
  result_nonempty: z.boolean().nullable().describe("null without a call, or without evidence"),
  pre_result_gate_workflow_success: z.boolean(),
  workflow_success: z.boolean().nullable().describe("null when the result evidence is unknown"),
  error_stage: z.string().nullable(),
  error_reason: z.string().nullable(),
  metadata: z.union([rawMetadataSchema, publicMetadataSchema]),
});

export const modelSummarySchema = z.strictObject({
  model: z.string(),
  lane: z.string(),
  tasks: count,
  trials_per_task: z.number().int().positive(),
  runs: count,
  completed: count,
  executed: count,
  selection_grounded_rate: rate,
  inspection_grounded_rate: rate,
  required_parameter_accuracy: rate,
  constraint_accuracy: rate,
  call_success_rate: rate.nullable(),
  result_nonempty_rate: rate.nullable(),
  pre_result_gate_workflow_success_rate: rate,
  workflow_success_rate: rate.nullable(),
  workflow_success_task_cluster_bootstrap_95: z.tuple([rate, rate]).nullable(),
  failures_by_stage: z.record(z.string(), count),
  failures_by_reason: z.record(z.string(), count),
});

export const discoverCallSummarySchema = z.strictObject({
  schema_version: z.literal(SUMMARY_SCHEMA_VERSION),
  methodology: z.enum(METHODOLOGIES),
  generated_at: z.iso.datetime(),
  models: z.array(modelSummarySchema),
  records: z.array(scoredRecordSchema),
});

export type ScoredRecord = z.infer<typeof scoredRecordSchema>;
export type ModelSummary = z.infer<typeof modelSummarySchema>;
export type DiscoverCallSummary = z.infer<typeof discoverCallSummarySchema>;
export type Methodology = DiscoverCallSummary["methodology"];
