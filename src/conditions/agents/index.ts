/** Agents: the deterministic reference agent, model agents over a provider client, command adapters. */
export type { Agent, AgentEpisode, AgentIdentity, AgentTurnRequest, AgentTurnResponse } from "./types.ts";
export {
  checkAgentSpec,
  createAgent,
  isModelAgent,
  LANES,
  providerOf,
  type AgentOptions,
  type Lane,
} from "./create.ts";
export {
  referenceAgent,
  referenceArguments,
  referenceTurn,
  REFERENCE_AGENT_VERSION,
} from "./reference.ts";
