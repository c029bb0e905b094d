/**
 * The part of Inspect AI's eval log (JSON format, log version 2) that `fabench export inspect`
 * writes, as our own zod schema: every object is strict, so a field we do not mean to write fails
 * the tests here before Inspect's own schema (scripts/check-inspect-log.ts) or its viewer sees it.
 * Inspect's schema lists every field as required, defaults included, and allows no others; the
 * fields a fabench run has nothing for are written as null (or empty), never left out.
 */
import { z } from "zod";

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
const text = z.string();
const record = z.record(z.string(), z.unknown());

/** Every generation setting a provider call can take: fabench records none of them here (null). */
export const GENERATE_CONFIG_FIELDS = [
  "max_retries",
  "timeout",
  "attempt_timeout",
  "max_connections",
  "system_message",
  "max_tokens",
  "top_p",
  "temperature",
  "stop_seqs",
  "best_of",
  "frequency_penalty",
  "presence_penalty",
  "logit_bias",
  "seed",
  "top_k",
  "num_choices",
  "logprobs",
  "top_logprobs",
  "parallel_tool_calls",
  "internal_tools",
  "max_tool_output",
  "cache_prompt",
  "verbosity",
  "effort",
  "reasoning_effort",
  "reasoning_tokens",
  "reasoning_summary",
  "reasoning_history",
  "response_schema",
  "extra_headers",
  "extra_body",
  "cache",
  "batch",
] as const;

/** The eval's run settings; fabench sets only `epochs` (the run's trials). */
export const EVAL_CONFIG_FIELDS = [
  "limit",
  "sample_id",
  "sample_shuffle",
  "epochs",
  "epochs_reducer",
  "approval",
  "fail_on_error",
  "continue_on_fail",
  "retry_on_error",
  "message_limit",
  "token_limit",
  "time_limit",
  "working_limit",
  "cost_limit",
  "max_samples",
  "max_tasks",
  "max_subprocesses",
  "max_sandboxes",
  "sandbox_cleanup",
  "log_samples",
  "log_realtime",
  "log_images",
  "log_buffer",
  "log_shared",
  "score_display",
] as const;

const allNull = <K extends string>(fields: readonly K[]) =>
  z.strictObject(Object.fromEntries(fields.map((f) => [f, z.null()])) as Record<K, z.ZodNull>);

const generateConfigSchema = allNull(GENERATE_CONFIG_FIELDS);
const evalConfigSchema = allNull(EVAL_CONFIG_FIELDS.filter((f) => f !== "epochs")).extend({
  epochs: z.number().int().positive(),
});

export const modelUsageSchema = z.strictObject({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  input_tokens_cache_write: z.null(),
  input_tokens_cache_read: z.null(),
  reasoning_tokens: z.null(),
  total_cost: z.null(),
});

const messageBase = {
  id: text,
  content: text,
  source: nullable(z.enum(["input", "generate"])),
  metadata: nullable(record),
};

export const toolCallSchema = z.strictObject({
  id: text,
  function: text,
  arguments: record,
  parse_error: z.null(),
  view: z.null(),
  type: z.literal("function"),
});

const systemMessageSchema = z.strictObject({ ...messageBase, role: z.literal("system") });
const userMessageSchema = z.strictObject({ ...messageBase, role: z.literal("user"), tool_call_id: z.null() });
export const assistantMessageSchema = z.strictObject({
  ...messageBase,
  role: z.literal("assistant"),
  tool_calls: nullable(z.array(toolCallSchema)),
  model: nullable(text),
});
const toolMessageSchema = z.strictObject({
  ...messageBase,
  role: z.literal("tool"),
  tool_call_id: text,
  function: text,
  error: nullable(z.strictObject({ type: z.literal("unknown"), message: text })),
});

export const messageSchema = z.discriminatedUnion("role", [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);

/** A per-sample score: a number (a metric's value for the episode). */
export const scoreSchema = z.strictObject({
  value: z.number(),
  answer: nullable(text),
  explanation: nullable(text),
  metadata: nullable(record),
  history: z.array(z.never()),
});

const modelOutputSchema = z.strictObject({
  model: text,
  choices: z.array(
    z.strictObject({
      message: assistantMessageSchema,
      stop_reason: z.enum(["stop", "max_tokens", "unknown"]),
      logprobs: z.null(),
    }),
  ),
  completion: text,
  usage: nullable(modelUsageSchema),
  time: nullable(z.number()),
  metadata: nullable(record),
  error: nullable(text),
});

export const sampleSchema = z.strictObject({
  id: text,
  epoch: z.number().int().positive(),
  input: text,
  choices: z.null(),
  target: z.array(text),
  sandbox: z.null(),
  files: z.null(),
  setup: z.null(),
  messages: z.array(messageSchema).min(1),
  output: modelOutputSchema,
  scores: z.record(z.string(), scoreSchema),
  metadata: record,
  store: z.strictObject({}),
  events: z.array(z.never()),
  model_usage: z.record(z.string(), modelUsageSchema),
  started_at: nullable(text),
  completed_at: nullable(text),
  total_time: nullable(z.number()),
  working_time: nullable(z.number()),
  uuid: z.null(),
  invalidation: z.null(),
  error: z.null(),
  error_retries: z.null(),
  attachments: z.strictObject({}),
  limit: z.null(),
});

const planStepSchema = z.strictObject({ solver: text, params: record, params_passed: record });

export const evalSpecSchema = z.strictObject({
  eval_set_id: z.null(),
  eval_id: text,
  run_id: text,
  created: text,
  task: text,
  task_id: text,
  task_version: z.number().int(),
  task_file: z.null(),
  task_display_name: text,
  task_registry_name: z.null(),
  task_attribs: record,
  task_args: record,
  task_args_passed: record,
  solver: text,
  solver_args: record,
  solver_args_passed: record,
  tags: z.array(text),
  dataset: z.strictObject({
    name: text,
    location: text,
    samples: z.number().int(),
    sample_ids: z.array(text),
    shuffled: z.boolean(),
  }),
  sandbox: z.null(),
  model: text,
  model_generate_config: generateConfigSchema,
  model_base_url: z.null(),
  model_args: record,
  model_roles: z.null(),
  config: evalConfigSchema,
  revision: nullable(z.strictObject({ type: z.literal("git"), origin: text, commit: text, dirty: z.null() })),
  packages: z.record(z.string(), text),
  metadata: record,
  scorers: z.null(),
  metrics: z.null(),
});

const evalMetricSchema = z.strictObject({
  name: text,
  value: z.number(),
  params: record,
  metadata: z.null(),
});

export const evalScoreSchema = z.strictObject({
  name: text,
  scorer: text,
  reducer: z.null(),
  scored_samples: z.number().int(),
  unscored_samples: z.number().int(),
  params: record,
  metrics: z.record(z.string(), evalMetricSchema),
  metadata: nullable(record),
});

export const inspectLogSchema = z.strictObject({
  version: z.literal(2),
  status: z.literal("success"),
  eval: evalSpecSchema,
  plan: z.strictObject({
    name: z.literal("plan"),
    steps: z.array(planStepSchema),
    finish: z.null(),
    config: generateConfigSchema,
  }),
  results: z.strictObject({
    total_samples: z.number().int(),
    completed_samples: z.number().int(),
    early_stopping: z.null(),
    scores: z.array(evalScoreSchema),
    metadata: record,
  }),
  stats: z.strictObject({
    started_at: text,
    completed_at: text,
    model_usage: z.record(z.string(), modelUsageSchema),
  }),
  error: z.null(),
  invalidated: z.literal(false),
  samples: z.array(sampleSchema),
  reductions: z.null(),
});

export type InspectLog = z.infer<typeof inspectLogSchema>;
export type InspectSample = z.infer<typeof sampleSchema>;
export type InspectMessage = z.infer<typeof messageSchema>;
export type InspectScore = z.infer<typeof scoreSchema>;
export type EvalScore = z.infer<typeof evalScoreSchema>;
export type ModelUsage = z.infer<typeof modelUsageSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
