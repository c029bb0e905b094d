/** The runner: planning and estimating a run, the episode matrix, run records and files, resuming, merging shards. */
export {
  episodeKey,
  globToRegExp,
  parseShard,
  planEpisodes,
  type EpisodeKey,
  type PlannedEpisode,
  type Selection,
  type Shard,
} from "./episodes.ts";
export {
  RECORD_FORMAT,
  runMetadataSchema,
  runRecordSchema,
  type RunMetadata,
  type RunRecord,
} from "./record.ts";
export { parseRunBytes, RunWriter, type ParsedRun, type RunWriterFs } from "./run-file.ts";
export { manifestIndex, runMatrix, type MatrixInput, type MatrixResult, type RunDeps } from "./run.ts";
export { mergeRuns, type MergeResult, type MergeSource } from "./merge.ts";
export { dedupeRuns, type DedupeResult, type DroppedDuplicate } from "./dedupe.ts";
export {
  promptTurnLimitProblems,
  referenceTurnUsage,
  turnBudgetProblems,
  type TurnUsage,
  type TurnUsageInput,
} from "./turn-budget.ts";
export {
  checkSystemPrompt,
  matrixInput,
  planRun,
  type BenchmarkValues,
  type CorpusValues,
  type RunPlan,
  type SelectionRequest,
} from "./plan.ts";
export { runMetadata } from "./metadata.ts";
export { checkSearchAgent, searchSettings, withSearch } from "./search-settings.ts";
export { estimateRun, renderEstimate, type ConditionEstimate, type Estimate } from "./estimate.ts";
export { resumeRunFile, type ResumeFlags, type ResumeState } from "./resume.ts";
