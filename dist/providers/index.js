export { createBatchProvider, createClient, isProviderKind, PROVIDER_KINDS, } from "./create.js";
export { classify, DEFAULT_RETRY, RateLimiter, realTiming, retryAfter, withRetries, } from "./reliability.js";
export { BATCH_PRICE_FACTOR, Budget, costUsd, priceSchema, priceTableSchema, usageTokens, } from "./budget.js";
export { asTextProtocol, parseTextToolCalls, textToolsPrompt } from "./text-protocol.js";
export { anthropicRequest, toAnthropicMessages } from "./anthropic.js";
export { openaiMessages, openaiRequest, readToolCall } from "./openai.js";
export { BatchCoordinator, BatchRejected, } from "./batch/coordinator.js";
export { customIdFor } from "./batch/apis.js";
