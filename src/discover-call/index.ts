/** The Discover → Call benchmark (issue #17): task sets, records, the scorer and its summary. */
export {
  checkTaskSet,
  type Constraint,
  constraintSchema,
  type DiscoverCallTask,
  discoverCallTaskJsonSchema,
  discoverCallTaskSchema,
  parseTaskSet,
  referenceSchema,
  type TaskReference,
  taskReference,
  type TaskSet,
} from "./tasks.ts";
export {
  BENCHMARK_VERSION,
  BENCHMARK_VERSIONS,
  CODE_PATTERN,
  checkRecords,
  type DiscoverCallRecord,
  isPublicRecord,
  LANES,
  parseRecords,
  type PublicMetadata,
  type PublicRecord,
  publicMetadataSchema,
  publicRecordSchema,
  RECORD_SCHEMA_VERSION,
  type RawMetadata,
  type RawRecord,
  rawMetadataSchema,
  rawRecordSchema,
  type RecordFile,
  type RecordKind,
  recordKind,
} from "./records.ts";
export {
  type DiscoverCallSummary,
  discoverCallSummarySchema,
  METHODOLOGIES,
  type Methodology,
  type ModelSummary,
  modelSummarySchema,
  type ScoredRecord,
  scoredRecordSchema,
  SUMMARY_SCHEMA_VERSION,
} from "./summary.ts";
export {
  earliestFailedGate,
  round4,
  type ScoreInput,
  scoreDiscoverCall,
  scoreRecord,
  summarizeModel,
  summarizeRecords,
} from "./score.ts";
export { failuresByStage, scoreLines } from "./score-text.ts";
export { constraintAccuracy, constraintMet, requiredParameterAccuracy } from "./constraints.ts";
export { TASK_CLUSTER_BOOTSTRAP, taskClusterInterval } from "./bootstrap.ts";
export { COMPARABLE_METADATA } from "./comparability.ts";
export {
  createDiscoverCallApi,
  DEFAULT_API_TIMEOUT_MS,
  PREFLIGHT_QUERY,
  type DiscoverCallApi,
  type DiscoverCallApiOptions,
  type DiscoverRequest,
  type ExecuteRequest,
  type InspectRequest,
} from "./api.ts";
export {
  API_FAILURE_MESSAGE,
  API_REASONS,
  type ApiFailure,
  type ApiOutcome,
  type ApiReasonCode,
  MISSING_SEARCH_ID_MESSAGE,
  type TransportFailure,
} from "./api-answers.ts";
export { unwrapEnvelope } from "./api-envelope.ts";
export { MAX_ATTEMPTS, MAX_RETRY_DELAY_MS, retryDelayMs } from "./api-retry.ts";
export { aggregateRevision, type SeenRevisions, summarizeRevisions } from "./api-revisions.ts";
export { DEFAULT_BASE_URL, normalizeBaseUrl, resolveBaseUrl } from "./base-url.ts";
export { API_KEY_VARIABLE, checkApiKey, resolveApiKey } from "./api-key.ts";
export {
  OPTIONAL_PARAMETER_HINT,
  parameterResponseSchema,
  readParameterAnswer,
  requiredParameters,
  validateParameters,
} from "./parameter-schema.ts";
export {
  ADAPTER_FAILURE_MESSAGE,
  ADAPTER_PROTOCOL_VERSION,
  type Adapter,
  type AdapterRequest,
  adapterRequestSchema,
  parameterizeRequest,
  readSelectAnswer,
  selectRequest,
} from "./adapter-protocol.ts";
export { adapterEnvironment, processAdapter } from "./adapters.ts";
export { type AdapterCheck, checkProcessAdapter } from "./adapter-check.ts";
export { isInfrastructureCode, preflightApi, preflightCause } from "./api-health.ts";
export { createModelAdapter, parseAdapterSpec } from "./model-adapter.ts";
export {
  constraintFor,
  type ExportedTasks,
  exportTasks,
  exportTaskSet,
  type FirstStepParameters,
  firstResponse,
  formatTaskSet,
  type SkippedTask,
  type SkipReason,
  type SourceResponse,
  type SourceRule,
  type SourceTask,
} from "./export.ts";
export {
  checkPolicy,
  DEFAULT_POLICY_FILE,
  defaultPolicyPath,
  PUBLIC_API_HOSTS,
  PUBLIC_LANES,
  parsePolicy,
  type PublicationPolicy,
  publicationPolicySchema,
  REQUIRED_FORBIDDEN_FIELDS,
} from "./policy.ts";
export {
  catalogObservationSha256,
  formatPublicRuns,
  type Publication,
  type PublicationInput,
  preparePublication,
  publishRecords,
  readPublicRuns,
  validatePublication,
} from "./publication.ts";
export { RecordAppender, recordLines, rewriteRecords } from "./record-writer.ts";
export { readResumeState, type ResumeState } from "./resume.ts";
export {
  type BreakerTrip,
  DEFAULT_BREAKER_TRIALS,
  finalizeRecords,
  infrastructureFailure,
  OBSERVED_FIELDS,
  PENDING,
  pendingRecords,
  planTrials,
  type RunDeps,
  type RunOutcome,
  type RunSettings,
  runTrials,
  type StopReason,
  trialKey,
} from "./run.ts";
export {
  checkBound,
  checkLane,
  checkProvenance,
  MAX_DISCOVERY_LIMIT,
  MAX_TRIALS,
  resolveToolkitRevision,
  type ToolkitCheckout,
  UNREPORTED,
} from "./run-options.ts";
export { type PlannedTrial, recordedError, runTrial, type TrialContext, type TrialDeps } from "./trial.ts";
export { nonEmptyResult } from "./result-evidence.ts";
