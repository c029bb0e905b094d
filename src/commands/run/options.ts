/**
 * `fabench run`'s options: the flat object the CLI hands over (one field per flag), and the few
 * named parts the command reads them as — the inputs, the selection, the agent, the output and the
 * limits.
 */
import type { AgentOptions, Lane } from "../../conditions/agents/index.ts";
import type { ProgressiveTrigger } from "../../conditions/execution/index.ts";
import type { SelectionRequest, Shard } from "../../conditions/runner/index.ts";

export interface RunOptions {
  readonly agent: string;
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly conditionsManifest: string;
  readonly conveyor: string;
  readonly out?: string;
  readonly trials: number;
  readonly conditions?: readonly string[];
  readonly catalogSizes?: readonly number[];
  readonly tasks?: string;
  readonly shard?: Shard;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly retryErrors: boolean;
  readonly maxErrors?: number;
  /** Stop after this many infrastructure errors in a row with the same code (0: never). */
  readonly breaker: number;
  readonly tokenizer: string;
  readonly estimate: boolean;
  readonly prices?: string;
  readonly budgetUsd?: number;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly maxResponseBytes?: number;
  readonly toolProtocol: "native" | "text";
  readonly openaiApi: "chat" | "responses";
  /** Who runs a native search on the Responses API (absent: hosted). */
  readonly openaiToolSearch?: "hosted" | "client";
  readonly lane: Lane;
  readonly modelRevision?: string;
  readonly temperature: number;
  readonly maxOutputTokens: number;
  readonly seed?: number;
  readonly promptCache: boolean;
  readonly requestTimeout: number;
  readonly maxRetries: number;
  readonly retryBaseDelay: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly agentArg: readonly string[];
  readonly passEnv: readonly string[];
  readonly agentTimeout: number;
  readonly batch: boolean;
  /** `gold`: the origin harness's SR-PROGRESSIVE trigger, a labelled variant never gated. */
  readonly progressiveTrigger?: ProgressiveTrigger;
  readonly batchPollMs: number;
  readonly batchResubmit: boolean;
  readonly json: boolean;
  /** The environment the CLI hands over (API keys are read from it and never written anywhere). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The benchmark's frozen files a run reads (never its output). */
export interface RunInputs {
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly conditionsManifest: string;
  readonly conveyor: string;
}

/** What the agent factory takes straight from the flags: connection, sampling, retries, command agents. */
export type ProviderSettings = Omit<
  AgentOptions,
  "spec" | "requestMoreTools" | "budget" | "taskSetSha256" | "tokens" | "timing" | "batch"
>;

export interface AgentSettings {
  readonly spec: string;
  readonly tokenizer: string;
  readonly batch: { readonly enabled: boolean; readonly pollMs: number; readonly resubmit: boolean };
  readonly provider: ProviderSettings;
}

export interface OutputSettings {
  readonly out: string | undefined;
  readonly estimate: boolean;
  readonly resume: boolean;
  readonly retryErrors: boolean;
  readonly json: boolean;
}

export interface RunLimits {
  readonly concurrency: number;
  readonly maxErrors: number | undefined;
  readonly breaker: number;
  readonly prices: string | undefined;
  readonly budgetUsd: number | undefined;
}

export interface RunSettings {
  readonly inputs: RunInputs;
  readonly progressiveTrigger: ProgressiveTrigger;
  readonly selection: SelectionRequest;
  readonly agent: AgentSettings;
  readonly output: OutputSettings;
  readonly limits: RunLimits;
}

/** The CLI's flat options as the command reads them, part by part. */
export function groupRunOptions(o: RunOptions): RunSettings {
  return {
    progressiveTrigger: o.progressiveTrigger ?? "observable",
    inputs: {
      protocol: o.protocol,
      plan: o.plan,
      corpus: o.corpus,
      catalogs: o.catalogs,
      conditionsManifest: o.conditionsManifest,
      conveyor: o.conveyor,
    },
    selection: {
      trials: o.trials,
      ...(o.conditions !== undefined ? { conditions: o.conditions } : {}),
      ...(o.catalogSizes !== undefined ? { catalogSizes: o.catalogSizes } : {}),
      ...(o.tasks !== undefined ? { tasks: o.tasks } : {}),
      ...(o.shard !== undefined ? { shard: o.shard } : {}),
    },
    agent: {
      spec: o.agent,
      tokenizer: o.tokenizer,
      batch: { enabled: o.batch, pollMs: o.batchPollMs, resubmit: o.batchResubmit },
      provider: providerSettings(o),
    },
    output: { out: o.out, estimate: o.estimate, resume: o.resume, retryErrors: o.retryErrors, json: o.json },
    limits: {
      concurrency: o.concurrency,
      maxErrors: o.maxErrors,
      breaker: o.breaker,
      prices: o.prices,
      budgetUsd: o.budgetUsd,
    },
  };
}

function providerSettings(o: RunOptions): ProviderSettings {
  return {
    env: o.env,
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    ...(o.apiKeyEnv !== undefined ? { apiKeyEnv: o.apiKeyEnv } : {}),
    ...(o.maxResponseBytes !== undefined ? { maxResponseBytes: o.maxResponseBytes } : {}),
    toolProtocol: o.toolProtocol,
    openaiApi: o.openaiApi,
    ...(o.openaiToolSearch !== undefined ? { openaiToolSearch: o.openaiToolSearch } : {}),
    lane: o.lane,
    ...(o.modelRevision !== undefined ? { modelRevision: o.modelRevision } : {}),
    generation: {
      temperature: o.temperature,
      max_output_tokens: o.maxOutputTokens,
      seed: o.seed ?? null,
      prompt_cache: o.promptCache,
    },
    requestTimeoutMs: o.requestTimeout,
    maxRetries: o.maxRetries,
    retryBaseDelayMs: o.retryBaseDelay,
    ...(o.rpm !== undefined ? { rpm: o.rpm } : {}),
    ...(o.tpm !== undefined ? { tpm: o.tpm } : {}),
    agentArgs: o.agentArg,
    passEnv: o.passEnv,
    agentTimeoutMs: o.agentTimeout,
  };
}
