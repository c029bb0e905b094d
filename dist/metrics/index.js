/** Metrics: per-episode fact scoring, aggregation, the stratified bootstrap, and the coverage and power simulators. */
export { EPISODE_METRICS, episodeMetricVersions, scoreEpisode, } from "./episode/index.js";
export { sourceOk, unitOk, valueOk, withinTolerance } from "./match.js";
export * from "./bootstrap/index.js";
export { aggregate, breakdowns, } from "./aggregate.js";
export { BOOTSTRAP_METRICS, scoreRecord, SUMMED_METRICS, } from "./scored-records.js";
export { BUILT_IN_SCENARIOS, scenarioFileSchema, scenarioSchema, } from "./simulate/scenarios.js";
export { drawDataset, simulateScenario } from "./simulate/coverage.js";
export { coverageStudyJsonSchema, coverageStudySchema, METHODS, powerReportJsonSchema, powerReportSchema, } from "./simulate/schema.js";
export { pilotDeltas } from "./simulate/pilot.js";
export { POWER_ASSUMPTION, simulatePower, tasksNeeded, trialScale, } from "./simulate/power.js";
