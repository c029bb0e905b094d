/**
 * A model agent: one provider request per turn, through the tool protocol of choice, rate-limited,
 * budgeted and retried. It never sees the task's fixture — only the conversation and the tools.
 */
import type { TokenCounter } from "../execution/tokens.ts";
import type { BatchCoordinator } from "../../providers/index.ts";
import { customIdFor, meteredRequest } from "../../providers/index.ts";
import { Budget } from "../../providers/index.ts";
import type {
  GenerationSettings,
  ProviderClient,
  ProviderReply,
  ProviderRequest,
} from "../../providers/index.ts";
import { RateLimiter, withRetries, type RetryPolicy, type Timing } from "../../providers/index.ts";
import { asTextProtocol, parseTextToolCalls } from "../../providers/index.ts";
import { usageError } from "../../core/index.ts";
import { nativeSearchTurn } from "./model-search.ts";
import type { Agent, AgentIdentity, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export interface ModelAgentOptions {
  readonly identity: AgentIdentity;
  readonly provider: ProviderClient;
  readonly toolProtocol: "native" | "text";
  readonly settings: GenerationSettings;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
  readonly limiter: RateLimiter;
  readonly budget: Budget;
  readonly tokens: TokenCounter;
  /** Batch mode: requests go through the coordinator, one turn of every running episode per batch. */
  readonly batch?: BatchCoordinator;
}

export function modelAgent(options: ModelAgentOptions): Agent {
  return {
    identity: options.identity,
    // Batch mode too: the batch API lives at the same base URL and takes the same key.
    preflight: async () => {
      await options.provider.preflight?.();
    },
    startEpisode: (_task, key = "") => {
      options.batch?.episodeStarted();
      return {
        turn: (request) => modelTurn(options, request, key),
        finish: () => options.batch?.episodeFinished(),
      };
    },
  };
}

async function modelTurn(
  options: ModelAgentOptions,
  request: AgentTurnRequest,
  key: string,
): Promise<AgentTurnResponse> {
  const search = request.toolSearch;
  if (search && options.toolProtocol === "text")
    throw usageError("native_search_unsupported", "native tool search needs --tool-protocol native");
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  const neutral: ProviderRequest = {
    system,
    messages: request.messages.filter((m): m is Exclude<typeof m, { role: "system" }> => m.role !== "system"),
    tools: request.tools,
    settings: options.settings,
    // The provider sends `tools` deferred beside its own search tool (providers/tool-search.ts).
    ...(search ? { toolSearch: { engine: search.settings.engine, k: search.settings.k } } : {}),
  };
  const sent = options.toolProtocol === "text" ? asTextProtocol(neutral) : neutral;
  // The loop has already counted this request; count again only when called on its own.
  const inputTokens = request.inputTokens ?? options.tokens.count(JSON.stringify(sent));
  const reply = await send(options, request, key, sent, inputTokens);
  if (search)
    // A client-executed search's follow-up: the turn's request as the loop counted it (the loaded
    // tools, never a deferred one) plus the search content added since, counted here.
    return nativeSearchTurn(sent, reply, search.clientSearch, (next) =>
      send(
        options,
        request,
        key,
        next,
        inputTokens + options.tokens.count(JSON.stringify(next.messages.at(-1))),
      ),
    );
  const toolCalls =
    options.toolProtocol === "text" ? parseTextToolCalls(reply.text, request.turn) : reply.toolCalls;
  return { text: reply.text, toolCalls, usage: reply.usage, ...(reply.model ? { model: reply.model } : {}) };
}

/** One metered request: through the batch coordinator in batch mode, else retried on its own. */
function send(
  options: ModelAgentOptions,
  request: AgentTurnRequest,
  key: string,
  sent: ProviderRequest,
  inputTokens: number,
): Promise<ProviderReply> {
  const meter = {
    budget: options.budget,
    limiter: options.limiter,
    countOutput: (t: string) => options.tokens.count(t),
  };
  const batch = options.batch;
  return meteredRequest(meter, inputTokens, options.settings.max_output_tokens, () =>
    batch
      ? batch.submit(customIdFor(key, request.turn), sent, request.signal)
      : withRetries(
          () => options.provider.complete(sent, request.signal),
          options.retry,
          options.timing,
          options.provider.name,
          request.signal,
        ),
  );
}
