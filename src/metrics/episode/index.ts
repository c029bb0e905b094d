/** Every per-episode metric, by id, each with its version. */
import type { Task } from "../../authoring/index.ts";
import type { UnitConverter } from "../../core/index.ts";
import type { EnvelopeResult } from "../../envelope/index.ts";
import { envelopeValid, mandatoryFieldCompletion, sourceListValid } from "./completion.ts";
import { contradictionCount } from "./contradiction-count.ts";
import type { EpisodeMetric } from "./metric.ts";
import { numericValueAccuracy } from "./numeric-value-accuracy.ts";
import { provenanceAccuracy } from "./provenance-accuracy.ts";
import { requiredFactRecall } from "./required-fact-recall.ts";
import { buildTable, type FactVerdict } from "./table.ts";
import { unitAccuracy } from "./unit-accuracy.ts";
import { duplicateFactCount, unsupportedFactCount, unsupportedFactRate } from "./unsupported-facts.ts";

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
} as const satisfies Record<string, EpisodeMetric<number | boolean | null>>;

export type EpisodeMetricId = keyof typeof EPISODE_METRICS;
export type EpisodeMetrics = { [K in EpisodeMetricId]: ReturnType<(typeof EPISODE_METRICS)[K]["compute"]> };

export interface EpisodeScore {
  readonly envelope_valid: boolean;
  readonly malformed_reason: string | null;
  readonly metrics: EpisodeMetrics;
  readonly facts: readonly FactVerdict[];
}

/** Scores one episode's parsed final answer against its task. */
export function scoreEpisode(task: Task, result: EnvelopeResult, units: UnitConverter): EpisodeScore {
  const table = buildTable(task, result, units);
  const metrics = Object.fromEntries(
    Object.entries(EPISODE_METRICS).map(([id, m]) => [id, m.compute(table)]),
  ) as EpisodeMetrics;
  return {
    envelope_valid: result.ok,
    malformed_reason: result.ok ? null : result.reason,
    metrics,
    facts: table.emitted,
  };
}

/** `{id: version}` of every episode metric, for summaries. */
export function episodeMetricVersions(): Record<EpisodeMetricId, number> {
  return Object.fromEntries(Object.entries(EPISODE_METRICS).map(([id, m]) => [id, m.version])) as Record<
    EpisodeMetricId,
    number
  >;
}
