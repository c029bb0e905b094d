/** Agents: the deterministic reference agent and its probes, model agents over a provider client, command adapters. */
export type { Agent, AgentEpisode, AgentIdentity, AgentTurnRequest, AgentTurnResponse } from "./types.ts";
export {
  checkAgentSpec,
  createAgent,
  isModelAgent,
  LANES,
  probeOf,
  PROBE_NAMES,
  PROBES,
  providerOf,
  type AgentOptions,
  type Lane,
  type ProbeName,
} from "./create.ts";
export {
  referenceAgent,
  referenceArguments,
  referenceTurn,
  REFERENCE_AGENT_VERSION,
} from "./reference.ts";
export { firstRow, probeAgent, PROBE_AGENT_VERSION } from "./probes.ts";
export { copyFirstFacts } from "./copy-first.ts";
export { destructiveObject, eagerArguments, mentions } from "./eager-destructive.ts";
export {
  CAREFUL_READER,
  carefulReaderAgent,
  carefulReaderEpisode,
  CAREFUL_READER_VERSION,
} from "./careful-reader.ts";
export { checkAgentNativeSearch, nativeSearchToolFor } from "./native-search.ts";
export { MAX_SEARCH_ROUNDS } from "./model-search.ts";
