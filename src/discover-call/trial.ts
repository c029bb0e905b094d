/**
 * One Discover → Call trial (DISCOVER-CALL.md §1) and the raw record it ends in (§5). Everything
 * outside comes in through `deps` — the API client, the adapter, the clock — so a trial is the same
 * state machine in a test and in a billed run.
 *
 * discover → select → inspect → parameterize → (with --execute) call. Two grounding checks are hard
 * gates: a selection outside the discovery results is never inspected, and a tool inspect did not
 * return is never parameterized or called. A failure anywhere ends the trial with a stage, a reason
 * code and a fixed message; what the trial had seen until then stays in the record. The record's
 * fields, their order and the messages follow the reference harness, so records of both runners
 * compare field by field.
 *
 * The session id is the trial's own: sent with discover, inspect and execute, never stored, never
 * given to the adapter (adapter requests have no field for it).
 */
import { FabenchError } from "../core/index.ts";
import {
  ADAPTER_FAILURE_MESSAGE,
  type Adapter,
  parameterizeRequest,
  readSelectAnswer,
  selectRequest,
} from "./adapter-protocol.ts";
import { API_FAILURE_MESSAGE, type ApiFailure } from "./api-answers.ts";
import type { DiscoverCallApi } from "./api.ts";
import { readParameterAnswer, requiredParameters, validateParameters } from "./parameter-schema.ts";
import {
  BENCHMARK_VERSION,
  CODE_PATTERN,
  type RawMetadata,
  type RawRecord,
  RECORD_SCHEMA_VERSION,
} from "./records.ts";
import { nonEmptyResult } from "./result-evidence.ts";
import type { DiscoverCallTask } from "./tasks.ts";

/** One entry of the plan: a task and a trial number (1-based). */
export interface PlannedTrial {
  readonly task: DiscoverCallTask;
  readonly trial: number;
}

/** What every trial of a run shares. */
export interface TrialContext {
  /** The run's model label: recorded, sent to the adapter and with execute. */
  readonly model: string;
  /** Repeated in every record; the observed-revision fields hold `pending` during a run. */
  readonly metadata: RawMetadata;
}

export interface TrialIds {
  /** Stored as the record's `run_id`. */
  readonly runId: string;
  /** Sent to the API only. */
  readonly sessionId: string;
}

export interface TrialDeps {
  readonly api: Pick<DiscoverCallApi, "discover" | "inspect" | "execute">;
  readonly adapter: Adapter;
  readonly now: () => Date;
}

type RecordedError = NonNullable<RawRecord["error"]>;

/** The message of a failure found by the trial itself (its stage and code are the record's). */
class TrialFailure extends Error {
  constructor(readonly failure: RecordedError) {
    super(failure.message);
  }
}

function fail(stage: string, reason_code: string, message: string): TrialFailure {
  return new TrialFailure({ stage, reason_code, message });
}

function apiFailure(failure: ApiFailure): TrialFailure {
  return new TrialFailure({
    stage: failure.stage,
    reason_code: failure.reason_code,
    message: failure.message,
  });
}

/** Fixed messages for API and adapter failures; others are this runner's own words, cut to 500. */
function messageOf(stage: string, message: string): string {
  if (stage === "api") return API_FAILURE_MESSAGE;
  if (stage === "adapter") return ADAPTER_FAILURE_MESSAGE;
  return message.slice(0, 500);
}

/**
 * What a record keeps of a failure. An error that is not one of the benchmark's own (a bug, or an
 * adapter that broke its contract in a way nobody coded) is stage `unknown` with a fixed message:
 * its text could hold anything, a key included.
 */
export function recordedError(error: unknown): RecordedError {
  if (error instanceof TrialFailure) return error.failure;
  if (error instanceof FabenchError && CODE_PATTERN.test(error.stage))
    return {
      stage: error.stage,
      reason_code: CODE_PATTERN.test(error.code) ? error.code : null,
      message: messageOf(error.stage, error.message),
    };
  return { stage: "unknown", reason_code: null, message: "Benchmark trial failed" };
}

/** A result's trimmed `tool_id`, or null when it has none. */
function toolIdOf(item: unknown): string | null {
  const id = item !== null && typeof item === "object" ? (item as { tool_id?: unknown }).tool_id : undefined;
  return typeof id === "string" && id.trim() !== "" ? id.trim() : null;
}

function toolIds(items: readonly unknown[]): string[] {
  return items.map(toolIdOf).filter((id): id is string => id !== null);
}

/** The record while the trial runs: its keys are set in the reference's order and only ever updated. */
type Draft = Omit<RawRecord, "error" | "finished_at" | "parameters"> & {
  parameters: Record<string, unknown> | null;
  error?: RecordedError;
  finished_at?: string;
};

/** Runs one trial to its record; never throws for anything the trial meets. */
export async function runTrial(
  planned: PlannedTrial,
  ids: TrialIds,
  context: TrialContext,
  deps: TrialDeps,
): Promise<RawRecord> {
  const record: Draft = {
    schema_version: RECORD_SCHEMA_VERSION,
    benchmark_version: BENCHMARK_VERSION,
    run_id: ids.runId,
    model: context.model,
    metadata: context.metadata,
    task_id: planned.task.id,
    trial: planned.trial,
    started_at: deps.now().toISOString(),
    status: "failed",
    discovery: { result_tool_ids: [] },
    selection: { tool_id: null },
    inspection: { returned_tool_ids: [], required_parameters: [] },
    parameters: null,
    call: { attempted: false, success: null },
  };
  try {
    await stages(record, planned, ids, context, deps);
    record.status = "completed";
  } catch (error) {
    record.error = recordedError(error);
  }
  record.finished_at = deps.now().toISOString();
  return record as RawRecord;
}

async function stages(
  record: Draft,
  { task, trial }: PlannedTrial,
  { sessionId }: TrialIds,
  { model, metadata }: TrialContext,
  { api, adapter }: TrialDeps,
): Promise<void> {
  const request = { model, trial, taskSetSha256: metadata.task_set_sha256 };
  const query = task.discover_query ?? task.prompt;
  const discovered = await api.discover({ query, limit: metadata.discovery_limit, sessionId });
  if (!discovered.ok) throw apiFailure(discovered.failure);
  const { search_id: searchId } = discovered.value;
  record.discovery.result_tool_ids = toolIds(discovered.value.results);

  const toolId = readSelectAnswer(await adapter(selectRequest(task, discovered.value, request)));
  record.selection.tool_id = toolId;
  if (!record.discovery.result_tool_ids.includes(toolId))
    throw fail("select", "ungrounded_tool_id", "Adapter selected a tool outside the discovery results");

  const inspected = await api.inspect({ toolIds: [toolId], searchId, sessionId });
  if (!inspected.ok) throw apiFailure(inspected.failure);
  record.inspection.returned_tool_ids = toolIds(inspected.value.results);
  const tool = inspected.value.results.find((item) => toolIdOf(item) === toolId);
  if (tool === undefined)
    throw fail("inspect", "selected_tool_not_returned", "Inspect did not return the selected tool");

  // The order the reference checks in: the required names (a bad one_of_required fails here), the
  // strict schema (before the adapter is asked), the answer, then the values against the tool as
  // inspect returned it — never the copy the adapter saw.
  record.inspection.required_parameters = requiredParameters(tool);
  const answer = await adapter(parameterizeRequest(task, tool, request));
  const parameters = readParameterAnswer(answer);
  record.parameters = parameters;
  validateParameters(tool, parameters);

  if (!metadata.execute) return;
  record.call.attempted = true;
  const called = await api.execute({ toolId, parameters, searchId, sessionId, model });
  if (!called.ok) throw apiFailure(called.failure);
  record.call.success = called.value.success;
  record.call.result_nonempty = called.value.success ? nonEmptyResult(called.value.result) : false;
}
