/**
 * Metrics: per-episode fact scoring, aggregation, the stratified bootstrap, and the coverage and
 * power simulators. The front door lists only what other stages, the commands and the scripts use;
 * tests reach the internal files directly.
 */
export { episodeMetricVersions, scoreEpisode, type EpisodeScore } from "./episode/index.ts";
export {
  bootstrap,
  buildStatistics,
  equallyWeighted,
  perTaskValue,
  POOLED,
  statisticKey,
  type BootstrapOptions,
  type BootstrapResult,
  type BootstrapTask,
  type Interval,
  type RngName,
  type StatisticsSpec,
  type TrialValues,
} from "./bootstrap/index.ts";
export { aggregate, breakdowns, type Breakdown } from "./aggregate.ts";
export {
  BOOTSTRAP_METRICS,
  isSearchCondition,
  scoreRecord,
  type EpisodeRow,
  type ScoringContext,
} from "./scored-records.ts";
export {
  coverageStudyJsonSchema,
  coverageStudySchema,
  METHODS,
  powerReportJsonSchema,
  type CoverageStudy,
  type Method,
  type PowerReport,
} from "./simulate/schema.ts";
export { pilotDeltas, type PilotEpisode } from "./simulate/pilot.ts";
export { POWER_ASSUMPTION, simulatePower, tasksNeeded } from "./simulate/power.ts";
export { powerReport } from "./simulate/power-report.ts";
export {
  BOUND_MARKS,
  formatInterval,
  intervalNotes,
  shownBound,
  shownInterval,
  type ShownInterval,
} from "./range.ts";
