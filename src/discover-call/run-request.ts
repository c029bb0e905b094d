/**
 * What a `discover-call run` is asked for (its command-line options, as the CLI parses them) and
 * the outside world it runs in (injected, so tests replace parts of it).
 */
import { DEFAULT_API_TIMEOUT_MS } from "./api.ts";
import type { RawMetadata } from "./records.ts";
import type { ToolkitCheckout } from "./run-options.ts";

export interface DiscoverCallRunOptions {
  readonly model: string;
  readonly lane: string;
  readonly tasks: string;
  readonly adapter: string;
  readonly adapterArg: readonly string[];
  /** Variables an adapter executable may see besides the base ones (`--pass-env`, repeatable). */
  readonly passEnv?: readonly string[];
  readonly adapterRevision: string;
  readonly modelRevision?: string;
  readonly toolkitRevision?: string;
  readonly trials: number;
  /** The discovery limit. */
  readonly limit: number;
  readonly execute: boolean;
  readonly adapterTimeoutMs: number;
  /** Time limit of one Discover → Call API request, headers and body (default 120,000 ms). */
  readonly requestTimeout?: number;
  /**
   * Consecutive trials failing at the API with one infrastructure code that stop the run, unwritten
   * (default DEFAULT_BREAKER_TRIALS).
   */
  readonly breaker?: number;
  /** The Discover → Call API's base URL (else QVERIS_BASE_URL, else the public API). */
  readonly baseUrl?: string;
  readonly output: string;
  readonly resume: boolean;
  readonly concurrency: number;
  readonly maxCalls?: number;
  /** The built-in model adapters' provider base URL and key variable. */
  readonly adapterBaseUrl?: string;
  readonly adapterApiKeyEnv?: string;
  readonly openaiApi: "chat" | "responses";
}

/** The outside world of a run; tests replace parts of it. */
export interface DiscoverCallRunDeps {
  readonly fetch: typeof fetch;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  /** Run ids and session ids: random, independent of each other. */
  readonly newId: () => string;
  /** For the progress line's rate. */
  readonly clock: () => number;
  readonly checkout: ToolkitCheckout;
  readonly runtime: RawMetadata["runtime"];
}

export const apiTimeout = (options: DiscoverCallRunOptions) =>
  options.requestTimeout ?? DEFAULT_API_TIMEOUT_MS;
