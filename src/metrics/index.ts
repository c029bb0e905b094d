/** Metrics: per-episode fact scoring, aggregation, the stratified bootstrap, and the coverage and power simulators. */
export {
  EPISODE_METRICS,
  episodeMetricVersions,
  scoreEpisode,
  type EpisodeMetricId,
  type EpisodeMetrics,
  type EpisodeScore,
} from "./episode/index.ts";
export type { FactVerdict } from "./episode/table.ts";
export {
  sourceOk,
  unitOk,
  valueOk,
  withinTolerance,
  type Emitted,
  type FieldRules,
  type Target,
} from "./match.ts";
export * from "./bootstrap/index.ts";
export {
  aggregate,
  breakdowns,
  type Aggregates,
  type Breakdown,
  type ConditionAggregate,
} from "./aggregate.ts";
export {
  BOOTSTRAP_METRICS,
  scoreRecord,
  SUMMED_METRICS,
  type EpisodeRow,
  type ScoredRecord,
} from "./scored-records.ts";
export {
  BUILT_IN_SCENARIOS,
  scenarioFileSchema,
  scenarioSchema,
  type Scenario,
} from "./simulate/scenarios.ts";
export { drawDataset, simulateScenario, type Design } from "./simulate/coverage.ts";
export {
  coverageStudyJsonSchema,
  coverageStudySchema,
  METHODS,
  powerReportJsonSchema,
  powerReportSchema,
  type CoverageStudy,
  type Method,
  type MethodResult,
  type PowerReport,
  type ScenarioResult,
} from "./simulate/schema.ts";
export { pilotDeltas, type PilotEpisode } from "./simulate/pilot.ts";
export {
  POWER_ASSUMPTION,
  simulatePower,
  tasksNeeded,
  trialScale,
  type PowerOptions,
  type PowerRow,
} from "./simulate/power.ts";
export {
  BOUND_MARKS,
  feasibleRange,
  formatInterval,
  intervalNotes,
  shownBound,
  shownInterval,
  type BoundNote,
  type ShownBound,
  type ShownInterval,
} from "./range.ts";
