/** Authoring: the protocol, the slot plan, the identity validator, the task contract, corpus generation and the content check. */
export {
  GATE_RULES,
  gateMargin,
  requireMargin,
  INTERVAL_METHODS,
  intervalChecks,
  metricNamed,
  parseProtocol,
  PROTOCOL_FORMAT,
  protocolCoherenceProblems,
  protocolSchema,
  type CalibratedMethod,
  type ConditionSpec,
  type GateCheckSpec,
  type IntervalCheck,
  type IntervalMethod,
  type Protocol,
} from "./protocol.ts";
export {
  buildPlan,
  parsePlan,
  planSchema,
  planSlots,
  semanticTaskId,
  PLAN_FORMAT,
  type Plan,
  type Slot,
} from "./plan.ts";
export { parseCorpusText, type CorpusFormat, type CorpusRow, type CorpusRows } from "./corpus-rows.ts";
export {
  IDENTITY_ERROR_CODES,
  identitySha256,
  queryContentSha256,
  validateIdentity,
  type IdentityError,
  type IdentityErrorCode,
  type IdentityReport,
} from "./identity.ts";
export { buildIdentityFreeze, IDENTITY_FREEZE_FORMAT, type IdentityFreeze } from "./freeze.ts";
export {
  ANSWER_KINDS,
  DERIVED_OPERATIONS,
  isDerived,
  isNumericValue,
  taskJsonSchema,
  taskSchema,
  type AnswerField,
  type AnswerKind,
  type ArgumentRule,
  type DerivedEvidence,
  type Evidence,
  type EvidencePointer,
  type FactEvidence,
  type FixtureResponse,
  type ForbiddenFact,
  type Observation,
  type RequiredFact,
  type Task,
  type Tolerance,
} from "./task.ts";
export { acceptedSources } from "./provenance.ts";
export {
  CORPUS_FORMAT,
  corpusHeaderSchema,
  freezeIdentitySha256,
  tasksSha256,
  type CorpusHeader,
} from "./corpus-file.ts";
export {
  assembleTasks,
  AUTHORED_FORMAT,
  authoredFileSchema,
  generateCorpus,
  type AuthoredFile,
  type GenerateInput,
} from "./generate/corpus.ts";
export { independenceProblems, maskQuery, NEAR_DUPLICATE_JACCARD } from "./check/independence.ts";
export {
  checkCorpus,
  CONTENT_RULES,
  WARNING_RULES,
  type CheckContext,
  type CorpusCheckInput,
  type CorpusCheckReport,
  type FieldNameShare,
} from "./check/index.ts";
export { answerSlots } from "./check/pointers.ts";
export { EvidenceReader, readNumber, withinTolerance as evidenceWithinTolerance } from "./check/resolve.ts";
export { fieldName, fieldNameShare } from "./check/field-names.ts";
export { requiredResponseRoutes, stateNeeded } from "./check/routes.ts";
export {
  argumentsProblem,
  valueProblem,
  type ArgumentProblem,
  type ArgumentProblemCode,
  type ParameterSchema,
} from "./parameter-schema.ts";
export type { RowProblem } from "./row-problem.ts";
export {
  isPilotProtocol,
  PILOT_FILES,
  PILOT_FORMAT,
  PILOT_NOTE,
  pilotMarkerSchema,
  pilotProtocol,
} from "./pilot.ts";
export { SEARCH_CONDITIONS, SEARCH_K, searchVisibility, withSearchConditions } from "./search-conditions.ts";
export { PILOT_HINT, pilotCommands, shellWord, type PilotCommandsOptions } from "./pilot-hint.ts";
