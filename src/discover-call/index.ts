/**
 * The Discover → Call benchmark (issue #17): task sets, runs, records, the scorer and publication.
 * The front door lists only what the commands and scripts use; tests reach the internal files
 * directly.
 */
export { discoverCallTaskJsonSchema, parseTaskSet } from "./tasks.ts";
export { parseRecords } from "./records.ts";
export { scoreDiscoverCall } from "./score.ts";
export { scoreLines } from "./score-text.ts";
export { exportTasks, firstResponse, formatTaskSet, type SkippedTask } from "./export.ts";
export { defaultPolicyPath, parsePolicy } from "./policy.ts";
export { preparePublication, readPublicRuns, validatePublication } from "./publication.ts";
export { RecordAppender, rewriteRecords } from "./record-writer.ts";
export { pendingRecords, type RunOutcome, runTrials } from "./run.ts";
export type { PlannedTrial } from "./trial.ts";
export type { DiscoverCallRunDeps, DiscoverCallRunOptions } from "./run-request.ts";
export { type PreparedRun, prepareRun } from "./run-setup.ts";
export { checkReachable } from "./run-adapter.ts";
export { finalRecords, NOTHING_KEPT, pendingTrials, readResume } from "./run-plan.ts";
export { stopMessage } from "./run-text.ts";
