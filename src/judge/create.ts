/**
 * Making the judge: a provider client with `fabench run`'s keys, retries, rate limits, budget and
 * reply cap and with structured output, or a command agent.
 */
import { createAgent, providerOf } from "../conditions/agents/index.ts";
import type { TokenCounter } from "../conditions/execution/index.ts";
import {
  type Budget,
  createClient,
  DEFAULT_RETRY,
  type GenerationSettings,
  RateLimiter,
  realTiming,
  redactUrl,
} from "../providers/index.ts";
import { agentJudge, type Judge, providerJudge } from "./client.ts";
import { RESPONSE_FORMAT_NAME } from "./request.ts";

/** The `judge run` options that say which judge and how it is reached. */
export interface JudgeClientOptions {
  /** `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL` or `command:PATH`. */
  readonly judge: string;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly maxResponseBytes?: number;
  readonly openaiApi: "chat" | "responses";
  readonly requestTimeout: number;
  readonly maxRetries: number;
  readonly retryBaseDelay: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly agentArg: readonly string[];
  readonly passEnv: readonly string[];
  readonly agentTimeout: number;
  /** The environment the CLI hands over (API keys are read from it and never written anywhere). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What the judge is made with besides its options. */
export interface JudgeMaking {
  readonly settings: GenerationSettings;
  readonly budget: Budget;
  readonly counter: TokenCounter;
  /** The corpus's tasks SHA-256 (a command agent is told it). */
  readonly taskSetSha256: string;
  /** The protocol's agent_loop.request_more_tools_token. */
  readonly requestMoreTools: string;
}

/** The judge: a provider client with run's reliability and structured output, or a command agent. */
export async function createJudge(options: JudgeClientOptions, making: JudgeMaking): Promise<Judge> {
  const { settings, budget, counter } = making;
  const { kind, target } = providerOf(options.judge);
  if (kind === "command")
    return agentJudge(
      await createAgent({
        spec: options.judge,
        requestMoreTools: making.requestMoreTools,
        env: options.env,
        toolProtocol: "native",
        openaiApi: options.openaiApi,
        lane: "configured-model",
        generation: settings,
        requestTimeoutMs: options.requestTimeout,
        maxRetries: options.maxRetries,
        agentArgs: options.agentArg,
        passEnv: options.passEnv,
        agentTimeoutMs: options.agentTimeout,
        taskSetSha256: making.taskSetSha256,
        tokens: counter,
        timing: realTiming,
      }),
    );
  // createClient reads the key (only from the variable named for it) and refuses a missing key,
  // a base URL with credentials or a key over plain HTTP to another host (exit 2), as for `run`.
  const provider = createClient({
    kind,
    model: target,
    env: options.env,
    openaiApi: options.openaiApi,
    timeoutMs: options.requestTimeout,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
  });
  return providerJudge({
    identity: {
      agent: kind,
      model: target,
      settings: {
        temperature: settings.temperature,
        max_output_tokens: settings.max_output_tokens,
        // Only scheme://host:port/path is recorded, as for run.
        base_url: kind === "openai-compatible" && options.baseUrl ? redactUrl(options.baseUrl) : null,
        openai_api: kind === "anthropic" ? null : options.openaiApi,
        response_format: RESPONSE_FORMAT_NAME,
      },
    },
    provider,
    retry: { ...DEFAULT_RETRY, maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelay },
    timing: realTiming,
    limiter: new RateLimiter(options.rpm ?? null, options.tpm ?? null, realTiming),
    budget,
    count: (text) => counter.count(text),
  });
}
