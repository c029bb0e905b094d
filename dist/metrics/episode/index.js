import { envelopeValid, mandatoryFieldCompletion, sourceListValid } from "./completion.js";
import { contradictionCount } from "./contradiction-count.js";
import { numericValueAccuracy } from "./numeric-value-accuracy.js";
import { provenanceAccuracy } from "./provenance-accuracy.js";
import { requiredFactRecall } from "./required-fact-recall.js";
import { buildTable } from "./table.js";
import { unitAccuracy } from "./unit-accuracy.js";
import { duplicateFactCount, unsupportedFactCount, unsupportedFactRate } from "./unsupported-facts.js";
export const EPISODE_METRICS = {
    required_fact_recall: requiredFactRecall,
    numeric_value_accuracy: numericValueAccuracy,
    unit_accuracy: unitAccuracy,
    provenance_accuracy: provenanceAccuracy,
    unsupported_fact_count: unsupportedFactCount,
    unsupported_fact_rate: unsupportedFactRate,
    duplicate_fact_count: duplicateFactCount,
    contradiction_count: contradictionCount,
    mandatory_field_completion: mandatoryFieldCompletion,
    envelope_valid: envelopeValid,
    source_list_valid: sourceListValid,
};
/** Scores one episode's parsed final answer against its task. */
export function scoreEpisode(task, result, units) {
    const table = buildTable(task, result, units);
    const metrics = Object.fromEntries(Object.entries(EPISODE_METRICS).map(([id, m]) => [id, m.compute(table)]));
    return {
        envelope_valid: result.ok,
        malformed_reason: result.ok ? null : result.reason,
        metrics,
        facts: table.emitted,
    };
}
/** `{id: version}` of every episode metric, for summaries. */
export function episodeMetricVersions() {
    return Object.fromEntries(Object.entries(EPISODE_METRICS).map(([id, m]) => [id, m.version]));
}
