/** The summary: its schema (zod first, the type inferred), and building it from scored episodes. */
export {
  parseOnce,
  SUMMARY_FORMAT,
  summaryJsonSchema,
  summarySchema,
  type JudgeSection,
  type Statistics,
  type Summary,
} from "./schema.ts";
export { quickSummary } from "./quick.ts";
export { summarizeEpisodes } from "./statistics.ts";
export {
  buildSummary,
  gateFor,
  missingEpisodes,
  reportedModels,
  type SummaryInput,
  type SummaryResult,
  withJudge,
  withProtocolFile,
} from "./build.ts";
