/**
 * Who answers the judge's requests. A model behind a provider client gets the same reliability as a
 * `fabench run` model agent — rate limits, retries with backoff, the spending budget, the reply
 * size cap (inside the client) — plus the reply schema as structured output, which the agent loop
 * has no use for. A `command:PATH` judge is the command agent itself, handed the two messages as a
 * one-turn conversation without tools.
 */
import type { Task } from "../authoring/index.ts";
import type { Agent, AgentIdentity } from "../conditions/agents/index.ts";
import {
  Budget,
  meteredRequest,
  RateLimiter,
  withRetries,
  type ProviderClient,
  type ProviderRequest,
  type ProviderUsage,
  type RetryPolicy,
  type Timing,
} from "../providers/index.ts";

export interface JudgeReply {
  readonly text: string;
  /** The model the provider says answered; null when it says nothing. */
  readonly model: string | null;
  readonly usage: ProviderUsage | null;
}

export interface Judge {
  readonly identity: AgentIdentity;
  /**
   * Sends one request. Failures throw a FabenchError with a code (`provider_server_error`,
   * `command_timeout`, `budget_exhausted` — the last meaning nothing was sent). `task` is what a
   * command agent's episode is started with; no judge is shown it.
   */
  complete(request: ProviderRequest, task: Task): Promise<JudgeReply>;
  /** A model judge: the provider's preflight (see ProviderClient); absent for a command judge. */
  preflight?(): Promise<void>;
}

export interface ProviderJudgeOptions {
  readonly identity: AgentIdentity;
  readonly provider: ProviderClient;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
  readonly limiter: RateLimiter;
  readonly budget: Budget;
  /** Counts tokens of a text (the run's tokenizer): for the budget and the tokens-per-minute limit. */
  readonly count: (text: string) => number;
}

/** A model judge: reserve the worst case, wait for the rate limit, send with retries, settle the cost. */
export function providerJudge(options: ProviderJudgeOptions): Judge {
  return {
    identity: options.identity,
    preflight: async () => {
      await options.provider.preflight?.();
    },
    complete: async (request) => {
      const meter = { budget: options.budget, limiter: options.limiter, countOutput: options.count };
      const reply = await meteredRequest(
        meter,
        options.count(JSON.stringify(request)),
        request.settings.max_output_tokens,
        () =>
          withRetries(
            () => options.provider.complete(request),
            options.retry,
            options.timing,
            options.provider.name,
          ),
      );
      return { text: reply.text, model: reply.model, usage: reply.usage };
    },
  };
}

/** A `command:PATH` judge: one turn of the command agent, the system prompt and the user message, no tools. */
export function agentJudge(agent: Agent): Judge {
  return {
    identity: agent.identity,
    complete: async (request, task) => {
      const episode = agent.startEpisode(task);
      try {
        const reply = await episode.turn({
          messages: [{ role: "system", content: request.system }, ...request.messages],
          tools: [],
          turn: 1,
          maxTurns: 1,
        });
        return { text: reply.text, model: reply.model ?? null, usage: reply.usage ?? null };
      } finally {
        episode.finish?.();
      }
    },
  };
}
