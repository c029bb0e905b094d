/**
 * The secondary judge (#19): the frozen prompt, condition-blinded requests, strict reply parsing,
 * the seeded order, the judging loop, the judgments file format, agreement between two judges, and
 * the summary's judge section. Nothing here is read by the gate.
 */
export {
  episodeKeySchema,
  JUDGMENT_FORMAT,
  JUDGMENT_STATUSES,
  judgmentSchema,
  type EpisodeKey,
  type Judgment,
} from "./record.ts";
export {
  crossFileDuplicates,
  judgmentsError,
  JUDGMENTS_STAGE,
  parseJudgmentsText,
  readJudgmentsFiles,
  statusProblems,
  type JudgeProtocol,
  type JudgmentsFile,
  type ParsedJudgments,
} from "./judgments-file.ts";
export {
  judgePromptPath,
  loadJudgePrompt,
  parseJudgePrompt,
  PLACEHOLDERS,
  USER_MESSAGE_MARKER,
  type JudgePrompt,
} from "./prompt.ts";
export {
  buildJudgeRequest,
  CONDITION_MARK,
  forbiddenTerms,
  makeBlinder,
  RESPONSE_FORMAT_NAME,
  TOOL_MARK,
  type Blinder,
  type ForbiddenTerms,
  type JudgeRequest,
  type JudgeRequestInput,
} from "./request.ts";
export {
  keptReply,
  parseJudgeReply,
  RAW_REPLY_MAX_CHARS,
  REPLY_REASONS,
  type ReplyReason,
  type ReplyResult,
} from "./reply.ts";
export { inJudgeOrder, judgeOrder } from "./order.ts";
export {
  agentJudge,
  providerJudge,
  type Judge,
  type JudgeReply,
  type ProviderJudgeOptions,
} from "./client.ts";
export {
  episodeAnswer,
  judgeEpisodes,
  judgmentLine,
  prepareEpisode,
  type JudgeContext,
  type JudgeEpisode,
  type JudgeRunDeps,
  type JudgeRunInput,
  type JudgeRunResult,
  type Prepared,
} from "./run.ts";
export { finishedEpisodes, identityOf, type JudgingIdentity } from "./resume.ts";
export { JudgmentWriter } from "./writer.ts";
export {
  averageRanks,
  compareJudgments,
  dimensionAgreement,
  exactAgreement,
  KAPPA_READING,
  meanRating,
  pearson,
  spearman,
  weightedKappa,
  type DimensionAgreement,
  type JudgmentComparison,
  type JudgmentSide,
  type RatingPair,
} from "./agreement.ts";
export {
  answerSha256,
  buildJudgeSection,
  factualClass,
  highRatingAtLeast,
  joinJudgments,
  type JoinedJudgments,
  type JudgeSectionInput,
} from "./summary.ts";
export { estimateJudging, estimateJudgingFor, renderEstimate, type JudgeEstimate } from "./estimate.ts";
export { checkJudgeSpec } from "./spec.ts";
export { createJudge, type JudgeClientOptions, type JudgeMaking } from "./create.ts";
export {
  checkRunInputs,
  planJudging,
  type JudgedBenchmark,
  type JudgingBase,
  type JudgingChoices,
  type JudgingPlanInput,
  type SizedCatalog,
} from "./plan.ts";
export {
  layDownInOrder,
  resumeJudgments,
  type ResumeChoice,
  type ResumedJudgments,
} from "./resume-file.ts";
export {
  finishJudgments,
  judgeIntoFile,
  judgingSummary,
  renderJudgingSummary,
  type JudgingLimits,
  type JudgingSummary,
} from "./into-file.ts";
