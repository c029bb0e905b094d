/** Providers: model clients (Anthropic, OpenAI, OpenAI-compatible), retries, rate limits, usage, prices, the budget and batch APIs. */
export type {
  GenerationSettings,
  Message,
  ProviderClient,
  ProviderReply,
  PendingClientSearch,
  ProviderRequest,
  ProviderSearch,
  ProviderToolSearch,
  ProviderUsage,
  ResponseFormat,
  ToolCall,
  ToolDefinition,
} from "./types.ts";
export {
  connection as checkConnection,
  createBatchProvider,
  createClient,
  isProviderKind,
  PROVIDER_KINDS,
  type ClientOptions,
  type ProviderKind,
} from "./create.ts";
export {
  classify,
  DEFAULT_RETRY,
  RateLimiter,
  realTiming,
  retryAfter,
  withRetries,
  type Failure,
  type RetryPolicy,
  type Timing,
} from "./reliability.ts";
export {
  BATCH_PRICE_FACTOR,
  Budget,
  costUsd,
  priceSchema,
  priceTableSchema,
  usageTokens,
  type Price,
  type PriceTable,
} from "./budget.ts";
export {
  checkBaseUrl,
  DEFAULT_BASE_URLS,
  DEFAULT_KEY_VARIABLES,
  isLoopback,
  redactUrl,
  resolveApiKey,
} from "./connection.ts";
export { meteredRequest, type Meter } from "./metered.ts";
export {
  boundedFetch,
  cappedFetch,
  DEFAULT_MAX_RESPONSE_BYTES,
  realTimer,
  requestTimedOut,
  responseTooLarge,
  type FetchLimits,
  type StartTimer,
} from "./http.ts";
export { preflight, preflightCause } from "./preflight.ts";
export { asTextProtocol, parseTextToolCalls, textToolsPrompt } from "./text-protocol.ts";
export { anthropicRequest, toAnthropicMessages } from "./anthropic.ts";
export { openaiMessages, openaiRequest, readToolCall } from "./openai.ts";
export {
  BatchCoordinator,
  BatchRejected,
  type BatchOutcome,
  type BatchProvider,
  type BatchStatus,
} from "./batch/coordinator.ts";
export { customIdFor } from "./batch/apis.ts";
export {
  checkNativeSearch,
  checkResponsesSearch,
  nativeSearchToolDefinition,
  OPENAI_TOOL_SEARCH_EXECUTIONS,
  type NativeSearchTarget,
  type OpenAIToolSearchExecution,
} from "./tool-search.ts";
export { clientSearchOutput } from "./responses-tool-search.ts";
