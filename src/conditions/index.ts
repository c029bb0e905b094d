/** Conditions: catalogs now; routers, the condition manifest, the executor and agents later. */
export { buildCatalog, catalogFileName, catalogSha256, nestingProblems, parseCatalog } from "./catalog/build.ts";
export { ACTIONS, RESOURCES } from "./catalog/distractors.ts";
export { CATALOG_FORMAT, catalogSchema, type Catalog, type Endpoint, type EndpointOutput } from "./catalog/schema.ts";
export { conditionManifestSchema, CONDITION_MANIFEST_FORMAT, type ConditionManifest, type ManifestEntry, type Stage } from "./manifest/schema.ts";
export { conditionStages, freezeConditions, manifestEntry, parseConditionManifest, type FreezeInput } from "./manifest/freeze.ts";
export { createRouter, keywordRanking, routerConfigSha256, tokenize, type RankRequest, type Router, type RouterOptions } from "./routers/index.ts";
export { ReplayExecutor } from "./executor/replay.ts";
export { EXECUTOR_ERROR_CODES, type Attempt, type ToolCall, type Visible } from "./executor/types.ts";
export { renderTool, renderTools, type Message, type ToolDefinition } from "./render.ts";
export { DEFAULT_TOKENIZER, loadTokenCounter, TurnTokenCounter, type TokenCounter } from "./tokens.ts";
export { referenceAgent, REFERENCE_AGENT_VERSION } from "./agents/reference.ts";
export type { Agent, AgentEpisode, AgentIdentity, AgentTurnRequest, AgentTurnResponse, ProviderUsage } from "./agents/types.ts";
export { runEpisode, type EpisodeInput, type EpisodeOutcome, type LoopSettings, type TurnRecord } from "./loop.ts";
export { episodeKey, globToRegExp, parseShard, planEpisodes, type EpisodeKey, type PlannedEpisode, type Selection, type Shard } from "./runner/episodes.ts";
export { RECORD_FORMAT, runMetadataSchema, runRecordSchema, type RunMetadata, type RunRecord } from "./runner/record.ts";
export { parseRunBytes, RunWriter, type ParsedRun } from "./runner/run-file.ts";
export { manifestIndex, runMatrix, type MatrixInput, type MatrixResult, type RunDeps } from "./runner/run.ts";
export { mergeRuns, type MergeResult, type MergeSource } from "./runner/merge.ts";
