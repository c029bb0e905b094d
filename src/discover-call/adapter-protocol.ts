/**
 * Adapter protocol v1 (DISCOVER-CALL.md §3): the one JSON object an adapter gets per stage, and the
 * reason codes its failures are recorded with. Pure: the subprocess shell is adapters.ts, the
 * built-in model adapters model-adapter.ts; both take these requests unchanged.
 *
 * The request is what the reference implementation's adapters (reference.mjs, codex-cli.mjs,
 * claude-cli.mjs) read, so its fields, their order and the two fixed instructions follow the
 * reference harness exactly. An adapter sees the task's id and prompt, the discovery results or the
 * inspected tool cut to listed fields, and nothing else: never discover_query, constraints or the
 * reference route, never a search or session id.
 */
import { z } from "zod";
import { FabenchError } from "../core/index.ts";
import { type JsonSchema, parameterResponseSchema } from "./parameter-schema.ts";

export const ADAPTER_PROTOCOL_VERSION = 1;

export const ADAPTER_STAGES = ["select", "parameterize"] as const;
export type AdapterStage = (typeof ADAPTER_STAGES)[number];

export const STAGE_INSTRUCTIONS: Readonly<Record<AdapterStage, string>> = {
  select: "Select one tool from the discovery results that best fulfills the user request. Return JSON only.",
  parameterize:
    "Construct valid parameters for the inspected tool that fulfill the user request. Return JSON only.",
};

/** The discovery fields an adapter may see, in the order they are copied. */
export const DISCOVERY_FIELDS = [
  "tool_id",
  "capability",
  "cost_class",
  "reliability",
  "as_of_support",
] as const;
/** The inspected-tool fields an adapter may see, in the order they are copied. */
export const TOOL_FIELDS = [
  "tool_id",
  "name",
  "description",
  "params",
  "one_of_required",
  "examples",
] as const;

const jsonObject = z.record(z.string(), z.unknown());

export const adapterRequestSchema = z.strictObject({
  adapter_protocol_version: z.literal(ADAPTER_PROTOCOL_VERSION),
  stage: z.enum(ADAPTER_STAGES),
  model: z.string().min(1),
  trial: z.number().int().min(1),
  task_set_sha256: z.string(),
  input: z.union([
    z.strictObject({
      task_id: z.string(),
      prompt: z.string(),
      discovery: z.strictObject({ results: z.array(jsonObject) }),
    }),
    z.strictObject({ task_id: z.string(), prompt: z.string(), selected_tool: jsonObject }),
  ]),
  messages: z.tuple([
    z.strictObject({ role: z.literal("system"), content: z.string() }),
    z.strictObject({ role: z.literal("user"), content: z.string() }),
  ]),
  response_schema: jsonObject,
});
export type AdapterRequest = z.infer<typeof adapterRequestSchema>;

/** One stage's adapter: the request in, the adapter's JSON answer out (read by the runner), or an AdapterFailure. */
export type Adapter = (request: AdapterRequest) => Promise<unknown>;

/**
 * The codes an adapter may report itself (`QVERIS_BENCHMARK_ADAPTER_ERROR=<code>` on stderr), the
 * reference's list; any other code is recorded as a plain `process_exit`.
 */
export const ADAPTER_REPORTED_CODES = [
  "tool_use_rejected",
  "model_failed",
  "invalid_events",
  "invalid_output",
  "cli_failed",
  "start_failed",
  "output_limit",
  "missing_reference",
  "missing_reference_candidate",
  "missing_oracle",
  "missing_oracle_candidate",
  "task_set_mismatch",
  "unsupported_stage",
] as const;

/** The codes the harness itself finds about a subprocess. */
export const ADAPTER_PROCESS_CODES = [
  "start_failed",
  "timeout",
  "stdout_limit",
  "stderr_limit",
  "process_exit",
  "invalid_json",
] as const;

export type AdapterFailureCode =
  | (typeof ADAPTER_REPORTED_CODES)[number]
  | (typeof ADAPTER_PROCESS_CODES)[number];

/**
 * The one message every adapter failure carries. Records keep it as it is, so it is fixed: an
 * adapter's own words (its stderr, a provider's error body) can hold prompts or keys.
 */
export const ADAPTER_FAILURE_MESSAGE = "Adapter invocation failed";

export function adapterFailure(code: AdapterFailureCode): FabenchError {
  return new FabenchError({ kind: "input", stage: "adapter", code, message: ADAPTER_FAILURE_MESSAGE });
}

/** What every request names besides its stage and input. */
export interface RequestContext {
  /** The run's model label, as recorded. */
  readonly model: string;
  readonly trial: number;
  readonly taskSetSha256: string;
}

/** The task as an adapter may see it; the rest of a task never reaches this module. */
export interface AdapterTask {
  readonly id: string;
  readonly prompt: string;
}

/** Copies of the fields that are present (not undefined), in the listed order. */
function pick(value: unknown, fields: readonly string[]): Record<string, unknown> {
  const source = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(
    fields.filter((f) => source[f] !== undefined).map((f) => [f, structuredClone(source[f])]),
  );
}

function request(
  stage: AdapterStage,
  context: RequestContext,
  input: AdapterRequest["input"],
  responseSchema: JsonSchema,
): AdapterRequest {
  return {
    adapter_protocol_version: ADAPTER_PROTOCOL_VERSION,
    stage,
    model: context.model,
    trial: context.trial,
    task_set_sha256: context.taskSetSha256,
    input,
    messages: [
      { role: "system", content: STAGE_INSTRUCTIONS[stage] },
      { role: "user", content: JSON.stringify(input) },
    ],
    response_schema: responseSchema,
  };
}

/** The select request: the discover answer's results, each cut to DISCOVERY_FIELDS. */
export function selectRequest(
  task: AdapterTask,
  discovered: unknown,
  context: RequestContext,
): AdapterRequest {
  const results = (discovered as { results?: unknown } | null)?.results;
  const input = {
    task_id: task.id,
    prompt: task.prompt,
    discovery: { results: (Array.isArray(results) ? results : []).map((r) => pick(r, DISCOVERY_FIELDS)) },
  };
  return request("select", context, input, {
    type: "object",
    additionalProperties: false,
    required: ["tool_id"],
    properties: { tool_id: { type: "string" } },
  });
}

/**
 * The parameterize request: a deep copy of the inspected tool cut to TOOL_FIELDS, so an adapter
 * that changes it cannot change the tool its answer is checked against. Throws
 * `unsupported_parameter_schema` when no strict schema can be built: the adapter is never asked.
 * The reference reads `requiredParameters(tool)` before this, so a bad `one_of_required` is the
 * failure a record shows when both are bad.
 */
export function parameterizeRequest(
  task: AdapterTask,
  inspectedTool: unknown,
  context: RequestContext,
): AdapterRequest {
  const selectedTool = pick(inspectedTool, TOOL_FIELDS);
  const schema = parameterResponseSchema(selectedTool);
  return request(
    "parameterize",
    context,
    { task_id: task.id, prompt: task.prompt, selected_tool: selectedTool },
    schema,
  );
}

/**
 * The tool id in a select answer, trimmed as the reference harness trims it; a missing, empty or
 * non-string id fails select with `missing_tool_id`. Whether the id was discovered is the runner's
 * check (`ungrounded_tool_id`), made after the id is recorded.
 */
export function readSelectAnswer(answer: unknown): string {
  const id =
    answer !== null && typeof answer === "object" ? (answer as { tool_id?: unknown }).tool_id : undefined;
  if (typeof id !== "string" || id.trim() === "")
    throw new FabenchError({
      kind: "input",
      stage: "select",
      code: "missing_tool_id",
      message: "Adapter did not return a non-empty tool_id",
    });
  return id.trim();
}
