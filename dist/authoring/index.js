/** Authoring: the protocol, the slot plan, the identity validator, the task contract, corpus generation and the content check. */
export { gateMargin, INTERVAL_METHODS, intervalChecks, parseProtocol, protocolCoherenceProblems, protocolSchema, } from "./protocol.js";
export { buildPlan, parsePlan, planSchema, planSlots, semanticTaskId, PLAN_FORMAT, } from "./plan.js";
export { parseCorpusText } from "./corpus-rows.js";
export { IDENTITY_ERROR_CODES, identitySha256, queryContentSha256, validateIdentity, } from "./identity.js";
export { buildIdentityFreeze, IDENTITY_FREEZE_FORMAT } from "./freeze.js";
export { isNumericValue, taskJsonSchema, taskSchema, } from "./task.js";
export { CORPUS_FORMAT, corpusHeaderSchema, freezeIdentitySha256, tasksSha256, } from "./corpus-file.js";
export { assembleTasks, AUTHORED_FORMAT, authoredFileSchema, generateCorpus, } from "./generate/corpus.js";
export { independenceProblems, maskQuery, NEAR_DUPLICATE_JACCARD } from "./check/independence.js";
export { checkCorpus, CONTENT_RULES, } from "./check/index.js";
