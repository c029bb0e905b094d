/**
 * Scoring Discover → Call records (§6): each trial's gates, then one summary line per model.
 * Pure: records and the task set in, the summary out; the clock's reading comes in as
 * `generatedAt`. Raw and public records score alike — a raw record's grounding and accuracies are
 * computed from its discovery results and parameters, a public record's are its attestations.
 */
import type { Result } from "../core/index.ts";
import { taskClusterInterval } from "./bootstrap.ts";
import { refusals } from "./comparability.ts";
import { constraintAccuracy, mean, requiredParameterAccuracy } from "./constraints.ts";
import { problemsError } from "./jsonl.ts";
import { type DiscoverCallRecord, isPublicRecord, type RecordFile } from "./records.ts";
import {
  type DiscoverCallSummary,
  type Methodology,
  type ModelSummary,
  type ScoredRecord,
  SUMMARY_SCHEMA_VERSION,
} from "./summary.ts";
import type { DiscoverCallTask, TaskSet } from "./tasks.ts";

/** Rates and accuracies are published to 4 places. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** What the parameter stage achieved, before rounding. */
interface Evidence {
  readonly selectionGrounded: boolean;
  readonly inspectionGrounded: boolean;
  readonly requiredParameterAccuracy: number;
  readonly constraintAccuracy: number;
}

function evidence(task: DiscoverCallTask, record: DiscoverCallRecord): Evidence {
  if (isPublicRecord(record))
    return {
      selectionGrounded: record.discovery.selection_grounded,
      inspectionGrounded: record.inspection.selection_grounded,
      requiredParameterAccuracy: record.parameterization.required_parameter_accuracy,
      constraintAccuracy: record.parameterization.constraint_accuracy,
    };
  const selected = record.selection.tool_id;
  const parameters = record.parameters ?? {};
  return {
    selectionGrounded: selected !== null && record.discovery.result_tool_ids.includes(selected),
    inspectionGrounded: selected !== null && record.inspection.returned_tool_ids.includes(selected),
    requiredParameterAccuracy: requiredParameterAccuracy(record.inspection.required_parameters, parameters),
    constraintAccuracy: constraintAccuracy(task, parameters),
  };
}

/** One trial's scores. `task` is the record's task (the caller has checked it exists). */
export function scoreRecord(task: DiscoverCallTask, record: DiscoverCallRecord): ScoredRecord {
  const seen = evidence(task, record);
  const completed = record.status === "completed";
  const executed = record.call.attempted;
  const callSuccess = executed ? record.call.success === true : null;
  const observed =
    record.call.result_nonempty ?? ("result_valid" in record.call ? record.call.result_valid : undefined);
  // A failed call has no result; a successful one without evidence is unknown, not empty.
  const resultNonempty = !executed ? null : callSuccess ? (observed ?? null) : false;
  // The gates compare the unrounded shares: 0.99996 is not 1 even though it prints as 1.
  const preResult =
    completed &&
    seen.selectionGrounded &&
    seen.inspectionGrounded &&
    seen.requiredParameterAccuracy === 1 &&
    seen.constraintAccuracy === 1 &&
    callSuccess === true;
  return {
    run_id: record.run_id,
    task_id: record.task_id,
    model: record.model,
    trial: record.trial,
    completed,
    executed,
    selection_grounded: seen.selectionGrounded,
    inspection_grounded: seen.inspectionGrounded,
    required_parameter_accuracy: round4(seen.requiredParameterAccuracy),
    constraint_accuracy: round4(seen.constraintAccuracy),
    call_success: callSuccess,
    result_nonempty: resultNonempty,
    pre_result_gate_workflow_success: preResult,
    // A dry run never succeeds: without a call, callSuccess is null and preResult false.
    workflow_success: preResult ? resultNonempty : false,
    error_stage: record.error?.stage ?? null,
    error_reason: record.error?.reason_code ?? null,
    metadata: record.metadata,
  };
}

/** Where a trial that did not succeed failed: the earliest gate it did not pass, or null. */
export function earliestFailedGate(scored: ScoredRecord): { stage: string; reason: string | null } | null {
  if (scored.error_stage !== null) return { stage: scored.error_stage, reason: scored.error_reason };
  if (!scored.completed) return { stage: "unknown", reason: "incomplete_trial" };
  if (!scored.selection_grounded) return { stage: "select", reason: "ungrounded_selection" };
  if (!scored.inspection_grounded) return { stage: "inspect", reason: "ungrounded_inspection" };
  if (scored.required_parameter_accuracy < 1)
    return { stage: "parameterize", reason: "incomplete_required_parameters" };
  if (scored.constraint_accuracy < 1) return { stage: "parameterize", reason: "constraint_mismatch" };
  if (scored.call_success === false) return { stage: "call", reason: "tool_returned_failure" };
  if (scored.result_nonempty === false) return { stage: "result", reason: "empty_result" };
  return null;
}

const share = (records: readonly ScoredRecord[], pick: (r: ScoredRecord) => number | boolean | null) =>
  round4(mean(records.map((r) => Number(pick(r)))));

/** One model's line of the summary, from its scored records in record order. */
export function summarizeModel(model: string, records: readonly ScoredRecord[]): ModelSummary {
  const executed = records.filter((r) => r.executed);
  const resultsKnown = executed.every((r) => r.result_nonempty !== null);
  const workflowKnown = records.every((r) => r.workflow_success !== null);
  const tasks = new Set(records.map((r) => r.task_id)).size;
  const byStage: Record<string, number> = {};
  const byReason: Record<string, number> = {};
  for (const record of records) {
    const failure = earliestFailedGate(record);
    if (failure === null) continue;
    byStage[failure.stage] = (byStage[failure.stage] ?? 0) + 1;
    // A failure recorded without a reason code counts by stage only.
    if (failure.reason !== null) byReason[failure.reason] = (byReason[failure.reason] ?? 0) + 1;
  }
  const interval = workflowKnown
    ? taskClusterInterval(records.map((r) => [r.task_id, r.workflow_success === true] as const))
    : null;
  return {
    model,
    lane: records[0]?.metadata.lane ?? "model",
    tasks,
    trials_per_task: records.length / tasks,
    runs: records.length,
    completed: records.filter((r) => r.completed).length,
    executed: executed.length,
    selection_grounded_rate: share(records, (r) => r.selection_grounded),
    inspection_grounded_rate: share(records, (r) => r.inspection_grounded),
    required_parameter_accuracy: share(records, (r) => r.required_parameter_accuracy),
    constraint_accuracy: share(records, (r) => r.constraint_accuracy),
    call_success_rate: executed.length > 0 ? share(executed, (r) => r.call_success) : null,
    result_nonempty_rate:
      executed.length > 0 && resultsKnown ? share(executed, (r) => r.result_nonempty) : null,
    pre_result_gate_workflow_success_rate: share(records, (r) => r.pre_result_gate_workflow_success),
    workflow_success_rate: workflowKnown
      ? round4(records.filter((r) => r.workflow_success === true).length / records.length)
      : null,
    workflow_success_task_cluster_bootstrap_95:
      interval === null ? null : [round4(interval[0]), round4(interval[1])],
    failures_by_stage: byStage,
    failures_by_reason: byReason,
  };
}

export interface ScoreInput {
  readonly taskSet: TaskSet;
  readonly records: RecordFile;
  /** ISO 8601 time of scoring, from the caller's clock. */
  readonly generatedAt: string;
}

/** The summary of a record file, or every reason it cannot be summarised. */
export function summarizeRecords(input: ScoreInput): Result<DiscoverCallSummary> {
  const problems = refusals(input.taskSet, input.records);
  if (problems.length > 0) return { ok: false, problems };
  const tasks = new Map(input.taskSet.tasks.map((task) => [task.id, task]));
  const scored = input.records.records.map((record) =>
    scoreRecord(tasks.get(record.task_id) as DiscoverCallTask, record),
  );
  const byModel = new Map<string, ScoredRecord[]>();
  for (const record of scored) {
    const group = byModel.get(record.model);
    if (group) group.push(record);
    else byModel.set(record.model, [record]);
  }
  const version = input.records.records[0]?.benchmark_version ?? "v2";
  return {
    ok: true,
    value: {
      schema_version: SUMMARY_SCHEMA_VERSION,
      methodology: `discover-call-${version}` satisfies Methodology,
      generated_at: input.generatedAt,
      models: [...byModel].map(([model, records]) => summarizeModel(model, records)),
      records: scored,
    },
  };
}

/** The summary, or a FabenchError (input, exit 2) listing every refusal with its line. */
export function scoreDiscoverCall(input: ScoreInput): DiscoverCallSummary {
  const summary = summarizeRecords(input);
  if (!summary.ok) throw problemsError(input.records.file, summary.problems);
  return summary.value;
}
