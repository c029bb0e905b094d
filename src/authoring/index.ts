/** Authoring: the protocol, the slot plan and the corpus identity validator. */
export { parseProtocol, protocolCoherenceProblems, protocolSchema, type ConditionSpec, type GateCheckSpec, type Protocol } from "./protocol.ts";
export { buildPlan, parsePlan, planSchema, planSlots, semanticTaskId, PLAN_FORMAT, type Plan, type Slot } from "./plan.ts";
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
