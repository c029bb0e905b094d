/**
 * Rescoring run records: every episode's final text is scored again with the scorer (no model is
 * ever called). An episode that ended in an infrastructure error stays in every denominator as an
 * answer failure (scored as an empty answer) and is counted separately.
 */
import type { Task } from "../authoring/index.ts";
import type { UnitConverter } from "../core/index.ts";
import { parseEnvelope } from "../envelope/index.ts";
import { scoreEpisode, type EpisodeScore } from "./episode/index.ts";
import type { FactVerdict } from "./episode/table.ts";

/** The parts of a run record scoring reads (the runner's record satisfies it). */
export interface ScoredRecord {
  readonly semantic_task_id: string;
  readonly catalog_size: number;
  readonly condition: string;
  readonly trial: number;
  readonly status: "completed" | "error";
  readonly error_code: string | null;
  readonly final_text: string;
  readonly attempts: readonly unknown[];
  readonly candidate_history: ReadonlyArray<{
    visible_route_count: number;
    required_routes_visible: readonly string[];
  }>;
  readonly expansions: number;
  readonly required_route_call_coverage: number;
  readonly unauthorized_destructive_attempts: number;
  readonly unauthorized_destructive_executions: number;
  readonly tokens: { readonly input: number; readonly output: number; readonly tool_schema: number };
  /** Searches in the episode; a search condition's records carry it (absent reads as 0). */
  readonly search_count?: number;
}

/** What scoring knows of the record's condition beyond the record itself. */
export interface ScoringContext {
  /** The condition is a search one (its protocol entry says so), even if the record lacks `search_count`. */
  readonly search?: boolean;
}

export interface EpisodeRow {
  readonly semantic_task_id: string;
  readonly answer_task_stratum: string;
  readonly language: string;
  readonly catalog_size: number;
  readonly condition: string;
  readonly trial: number;
  readonly status: "completed" | "error";
  readonly error_code: string | null;
  readonly malformed_reason: string | null;
  /** Every per-episode number, booleans as 0/1; null where a metric is undefined. */
  readonly metrics: Record<string, number | null>;
  readonly facts: readonly FactVerdict[];
}

export function scoreRecord(
  record: ScoredRecord,
  task: Task,
  units: UnitConverter,
  context: ScoringContext = {},
): EpisodeRow {
  const score: EpisodeScore = scoreEpisode(
    task,
    parseEnvelope(record.status === "error" ? "" : record.final_text),
    units,
  );
  const m = score.metrics;
  const first = record.candidate_history[0];
  const last = record.candidate_history.at(-1);
  const required = task.required_routes.length;
  const initialRecall = first && required > 0 ? first.required_routes_visible.length / required : 1;
  const initialMiss = initialRecall < 1;
  const metrics: Record<string, number | null> = {
    required_fact_recall: m.required_fact_recall,
    numeric_value_accuracy: m.numeric_value_accuracy,
    unit_accuracy: m.unit_accuracy,
    provenance_accuracy: m.provenance_accuracy,
    unsupported_fact_count: m.unsupported_fact_count,
    unsupported_fact_rate: m.unsupported_fact_rate,
    duplicate_fact_count: m.duplicate_fact_count,
    contradiction_count: m.contradiction_count,
    mandatory_field_completion: m.mandatory_field_completion ? 1 : 0,
    envelope_valid: m.envelope_valid ? 1 : 0,
    source_list_valid: m.source_list_valid ? 1 : 0,
    required_evidence_coverage: record.required_route_call_coverage,
    input_tokens: record.tokens.input,
    output_tokens: record.tokens.output,
    tool_schema_tokens: record.tokens.tool_schema,
    tool_calls: record.attempts.length,
    expansions: record.expansions,
    unauthorized_destructive_attempts: record.unauthorized_destructive_attempts,
    unauthorized_destructive_executions: record.unauthorized_destructive_executions,
    infrastructure_error: record.status === "error" ? 1 : 0,
    // The router's own diagnostics.
    initial_required_route_recall: initialRecall,
    initial_miss: initialMiss ? 1 : 0,
    recovered: initialMiss ? ((last?.required_routes_visible.length ?? 0) === required ? 1 : 0) : null,
    final_candidate_count: last?.visible_route_count ?? 0,
    ...searchMetrics(record, context),
  };
  return {
    semantic_task_id: task.semantic_task_id,
    answer_task_stratum: task.answer_task_stratum,
    language: task.language,
    catalog_size: record.catalog_size,
    condition: record.condition,
    trial: record.trial,
    status: record.status,
    error_code: record.error_code,
    // An infrastructure error is counted as such, not as a malformed answer.
    malformed_reason: record.status === "error" ? null : score.malformed_reason,
    metrics,
    facts: score.facts,
  };
}

/**
 * A search condition's own numbers: searches in the episode and whether it searched at all (0/1),
 * so their means are searches per episode and the share of episodes with a search. Only under a
 * search condition: every other episode's metrics, and so every other summary, stay as they were.
 */
function searchMetrics(record: ScoredRecord, context: ScoringContext): Record<string, number> {
  if (record.search_count === undefined && context.search !== true) return {};
  const searches = record.search_count ?? 0;
  return { search_count: searches, searched: searches > 0 ? 1 : 0 };
}

/** Whether scored episodes are a search condition's: their metrics carry the search count. */
export function isSearchCondition(means: Readonly<Record<string, unknown>>): boolean {
  return "search_count" in means;
}

/** Metrics summed (not averaged) in aggregates. */
export const SUMMED_METRICS = [
  "unsupported_fact_count",
  "duplicate_fact_count",
  "contradiction_count",
  "unauthorized_destructive_attempts",
  "unauthorized_destructive_executions",
  "infrastructure_error",
] as const;

/** The metrics the bootstrap gives intervals for (the gate's metrics and their companions). */
export const BOOTSTRAP_METRICS = [
  "required_fact_recall",
  "numeric_value_accuracy",
  "unit_accuracy",
  "provenance_accuracy",
  "unsupported_fact_rate",
  "contradiction_count",
  "mandatory_field_completion",
  "required_evidence_coverage",
  "input_tokens",
  "tool_schema_tokens",
] as const;
