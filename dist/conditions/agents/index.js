export { createAgent, isModelAgent, LANES, providerOf } from "./create.js";
export { referenceAgent, referenceTurn, REFERENCE_AGENT_VERSION } from "./reference.js";
