/** Metrics: per-episode fact scoring (aggregation and the bootstrap come later). */
export { EPISODE_METRICS, episodeMetricVersions, scoreEpisode, type EpisodeMetricId, type EpisodeMetrics, type EpisodeScore } from "./episode/index.ts";
export type { FactVerdict } from "./episode/table.ts";
export { sourceOk, unitOk, valueOk, withinTolerance, type Emitted, type Target } from "./match.ts";
export * from "./bootstrap/index.ts";
