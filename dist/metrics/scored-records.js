import { parseEnvelope } from "../envelope/index.js";
import { scoreEpisode } from "./episode/index.js";
export function scoreRecord(record, task, units) {
    const score = scoreEpisode(task, parseEnvelope(record.status === "error" ? "" : record.final_text), units);
    const m = score.metrics;
    const first = record.candidate_history[0];
    const last = record.candidate_history.at(-1);
    const required = task.required_routes.length;
    const initialRecall = first && required > 0 ? first.required_routes_visible.length / required : 1;
    const initialMiss = initialRecall < 1;
    const metrics = {
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
/** Metrics summed (not averaged) in aggregates. */
export const SUMMED_METRICS = [
    "unsupported_fact_count",
    "duplicate_fact_count",
    "contradiction_count",
    "unauthorized_destructive_attempts",
    "unauthorized_destructive_executions",
    "infrastructure_error",
];
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
];
