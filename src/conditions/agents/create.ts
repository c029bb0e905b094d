/** Agents by spec: `reference`, `probe:NAME`, `careful-reader`, `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL`, `command:PATH`. */
import { loadUnitConverter, usageError } from "../../core/index.ts";
import type { TokenCounter } from "../execution/tokens.ts";
import { Budget } from "../../providers/index.ts";
import { BatchCoordinator } from "../../providers/index.ts";
import { checkBaseUrl, createBatchProvider, createClient, redactUrl } from "../../providers/index.ts";
import { commandAgent } from "./command.ts";
import { modelAgent } from "./model.ts";
import type { GenerationSettings } from "../../providers/index.ts";
import { DEFAULT_RETRY, RateLimiter, type Timing } from "../../providers/index.ts";
import { CAREFUL_READER, carefulReaderAgent } from "./careful-reader.ts";
import { probeAgent } from "./probes.ts";
import { referenceAgent } from "./reference.ts";
import type { Agent } from "./types.ts";

import { LANES, PROBE_NAMES, PROBES, type Lane, type ProbeName } from "./lanes.ts";

export { LANES, PROBE_NAMES, PROBES, type Lane, type ProbeName };

export interface AgentOptions {
  readonly spec: string;
  readonly requestMoreTools: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly baseUrl?: string;
  /** The environment variable that holds the key, instead of the provider's own (OpenAI-compatible: the only way to send one). */
  readonly apiKeyEnv?: string;
  /** The largest provider reply read; a larger one is an episode error, `response_too_large` (default 1 MB). */
  readonly maxResponseBytes?: number;
  readonly toolProtocol: "native" | "text";
  readonly openaiApi: "chat" | "responses";
  /** Who runs a native search on the Responses API (`--openai-tool-search`; absent: hosted). */
  readonly openaiToolSearch?: "hosted" | "client";
  readonly lane: Lane;
  readonly modelRevision?: string;
  readonly generation: GenerationSettings;
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  /** First backoff delay; doubles per retry (Retry-After wins when the provider sends one). */
  readonly retryBaseDelayMs?: number;
  readonly rpm?: number;
  readonly tpm?: number;
  /** The run's spending ledger (prices, the cap, the batch discount); none for agents that spend nothing. */
  readonly budget?: Budget;
  readonly agentArgs: readonly string[];
  readonly passEnv: readonly string[];
  readonly agentTimeoutMs: number;
  readonly taskSetSha256: string;
  readonly tokens: TokenCounter;
  readonly timing: Timing;
  /** Batch mode: where batch ids and finished turns are checkpointed, how often to poll, and whether to resend submissions of unknown fate. */
  readonly batch?: {
    readonly checkpointPath: string;
    readonly pollMs: number;
    readonly resubmitUnknown: boolean;
  };
}

/** Whether an agent spec means answer inference by a model (everything but the reference, probe and careful-reader agents). */
export function isModelAgent(spec: string): boolean {
  return spec !== "reference" && spec !== CAREFUL_READER && probeOf(spec) === null;
}

/** The probe a `probe:NAME` spec names, or null for any other spec (an unknown probe name included). */
export function probeOf(spec: string): ProbeName | null {
  const { kind, target } = providerOf(spec);
  return kind === "probe" && (PROBE_NAMES as readonly string[]).includes(target)
    ? (target as ProbeName)
    : null;
}

const AGENT_FORMS =
  "reference, probe:NAME, careful-reader, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH";

/**
 * Refuses an agent spec that names no agent (exit 2), and a base URL that carries credentials,
 * before anything else is checked: a typo must not be answered with the prerequisite lock or an
 * estimate "for referenc".
 */
export function checkAgentSpec(spec: string, baseUrl?: string): void {
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  if (spec === "reference" || spec === CAREFUL_READER || probeOf(spec) !== null) return;
  const { kind, target } = providerOf(spec);
  if (kind === "probe")
    throw usageError("unknown_agent", `--agent probe:NAME takes ${PROBE_NAMES.join(", ")}, not ${spec}`);
  if (!["anthropic", "openai", "openai-compatible", "command"].includes(kind) || target === "")
    throw usageError("unknown_agent", `--agent takes ${AGENT_FORMS}, not ${spec}`);
}

export function providerOf(spec: string): { kind: string; target: string } {
  const colon = spec.indexOf(":");
  return colon === -1
    ? { kind: spec, target: "" }
    : { kind: spec.slice(0, colon), target: spec.slice(colon + 1) };
}

/** The agent a spec names; the reference agent's unit converter is loaded here, once, before any episode. */
export async function createAgent(options: AgentOptions): Promise<Agent> {
  if (options.spec === "reference")
    return referenceAgent(options.requestMoreTools, await loadUnitConverter());
  if (options.spec === CAREFUL_READER)
    return carefulReaderAgent(options.requestMoreTools, await loadUnitConverter());
  const probe = probeOf(options.spec);
  if (probe !== null) return probeAgent(probe, options.requestMoreTools, await loadUnitConverter());
  checkAgentSpec(options.spec);
  const { kind, target } = providerOf(options.spec);
  if (kind === "command")
    return commandAgent({
      path: target,
      args: options.agentArgs,
      passEnv: options.passEnv,
      env: options.env,
      timeoutMs: options.agentTimeoutMs,
      maxStdoutBytes: 4 * 1024 * 1024,
      maxStderrBytes: 1024 * 1024,
      taskSetSha256: options.taskSetSha256,
    });
  if (options.lane === "pinned-model" && !options.modelRevision)
    throw usageError(
      "model_revision_required",
      "--lane pinned-model needs --model-revision (an immutable provider revision)",
    );
  const model = options.lane === "pinned-model" && options.modelRevision ? options.modelRevision : target;
  const client = {
    kind,
    model,
    env: options.env,
    openaiApi: options.openaiApi,
    ...(options.openaiToolSearch !== undefined ? { openaiToolSearch: options.openaiToolSearch } : {}),
    timeoutMs: options.requestTimeoutMs,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
  };
  const provider = createClient(client);
  const retry = {
    ...DEFAULT_RETRY,
    maxRetries: options.maxRetries,
    ...(options.retryBaseDelayMs !== undefined ? { baseDelayMs: options.retryBaseDelayMs } : {}),
  };
  const batch = options.batch
    ? new BatchCoordinator(createBatchProvider(client), options.batch.checkpointPath, options.timing, {
        pollMs: options.batch.pollMs,
        resubmitUnknown: options.batch.resubmitUnknown,
        retry,
      })
    : undefined;
  return modelAgent({
    identity: { agent: kind, model: target, settings: identitySettings(options, kind) },
    provider,
    toolProtocol: options.toolProtocol,
    settings: options.generation,
    retry,
    timing: options.timing,
    limiter: new RateLimiter(options.rpm ?? null, options.tpm ?? null, options.timing),
    budget: options.budget ?? new Budget(null, null),
    tokens: options.tokens,
    ...(batch ? { batch } : {}),
  });
}

/** What a model agent's identity records about how it is called. */
function identitySettings(options: AgentOptions, kind: string): Record<string, unknown> {
  return {
    lane: options.lane,
    model_revision: options.modelRevision ?? null,
    temperature: options.generation.temperature,
    max_output_tokens: options.generation.max_output_tokens,
    seed: options.generation.seed,
    tool_protocol: options.toolProtocol,
    prompt_cache: kind === "anthropic" && options.generation.prompt_cache,
    // Only scheme://host:port/path is recorded (credentials are refused, but never written either).
    base_url: kind === "openai-compatible" && options.baseUrl ? redactUrl(options.baseUrl) : null,
    openai_api: kind === "anthropic" ? null : options.openaiApi,
    batch: options.batch !== undefined,
    // Recorded only when fabench answers the searches: every other identity stays as it was.
    ...(kind === "openai" && options.openaiApi === "responses" && options.openaiToolSearch === "client"
      ? { openai_tool_search: "client" }
      : {}),
  };
}
