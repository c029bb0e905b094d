/**
 * Provider clients by kind: `anthropic`, `openai`, `openai-compatible`. The one place that reads a
 * provider's API key (from the `env` it is given, never `process.env`; see connection.ts for which
 * variable goes where) and picks the SDK; every user of a model — the agent runner, the judge, the
 * discover-call adapters — builds clients here.
 */
import { usageError } from "../core/index.ts";
import { anthropicClient } from "./anthropic.ts";
import { anthropicBatches, openaiBatches } from "./batch/apis.ts";
import type { BatchProvider } from "./batch/coordinator.ts";
import { checkBaseUrl, checkKeyTransport, DEFAULT_BASE_URLS, resolveApiKey } from "./connection.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./http.ts";
import { openaiClient } from "./openai.ts";
import { openaiResponsesClient } from "./openai-responses.ts";
import type { OpenAIToolSearchExecution } from "./tool-search.ts";
import type { ProviderClient } from "./types.ts";

export const PROVIDER_KINDS = ["anthropic", "openai", "openai-compatible"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface ClientOptions {
  readonly kind: string;
  readonly model: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** OpenAI-compatible servers need one (including `/v1`); the others may point at a proxy. */
  readonly baseUrl?: string;
  /** The variable the key is read from instead of the provider's own (the only way to give an OpenAI-compatible server one). */
  readonly apiKeyEnv?: string;
  readonly openaiApi: "chat" | "responses";
  /** Who runs a native tool search on the Responses API (`--openai-tool-search`; default hosted). */
  readonly openaiToolSearch?: OpenAIToolSearchExecution;
  readonly timeoutMs: number;
  /** The largest reply read (default 1 MB); a larger one fails its request with `response_too_large`. */
  readonly maxResponseBytes?: number;
}

export function isProviderKind(kind: string): kind is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(kind);
}

/**
 * Where the requests go and with which key: a usage error (exit 2) for a missing key or base URL, a
 * base URL with credentials, or a key that would cross the network in plain HTTP. Commands call it
 * before they load anything, so such a mistake comes back at once.
 */
export function connection(options: Pick<ClientOptions, "kind" | "env" | "baseUrl" | "apiKeyEnv">): {
  baseURL: string;
  apiKey: string | null;
} {
  const { kind } = options;
  if (kind !== "anthropic" && kind !== "openai" && kind !== "openai-compatible")
    throw usageError(
      "unknown_agent",
      `unknown agent kind ${kind}; use reference, anthropic, openai, openai-compatible or command`,
    );
  if (kind === "openai-compatible" && !options.baseUrl)
    throw usageError("missing_base_url", "openai-compatible needs --base-url (including /v1)");
  const baseURL = options.baseUrl ?? DEFAULT_BASE_URLS[kind === "anthropic" ? "anthropic" : "openai"];
  const url = checkBaseUrl(baseURL);
  const apiKey = resolveApiKey(kind, options.apiKeyEnv, options.env);
  checkKeyTransport(url, apiKey !== null);
  return { baseURL, apiKey };
}

/** A client for one model; a missing key or base URL is a usage error (exit 2), before anything is sent. */
export function createClient(options: ClientOptions): ProviderClient {
  const { kind, model, timeoutMs } = options;
  const { baseURL, apiKey } = connection(options);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (kind === "anthropic")
    return anthropicClient({ model, apiKey: apiKey ?? "", timeoutMs, baseURL, maxResponseBytes });
  if (options.openaiApi === "responses")
    return openaiResponsesClient({
      model,
      apiKey,
      timeoutMs,
      baseURL,
      maxResponseBytes,
      ...(options.openaiToolSearch ? { toolSearch: options.openaiToolSearch } : {}),
    });
  const compatible = kind === "openai-compatible";
  return openaiClient({ model, apiKey, timeoutMs, compatible, baseURL, maxResponseBytes });
}

/** The batch API of a provider (Anthropic Message Batches, OpenAI Batch over Chat Completions). */
export function createBatchProvider(options: ClientOptions): BatchProvider {
  if (options.kind !== "anthropic" && !(options.kind === "openai" && options.openaiApi === "chat"))
    throw usageError(
      "unsupported_option",
      "--batch works with anthropic:MODEL and openai:MODEL (Chat Completions)",
    );
  const { baseURL, apiKey } = connection(options);
  const common = {
    model: options.model,
    timeoutMs: options.timeoutMs,
    baseURL,
    apiKey: apiKey ?? "",
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
  if (options.kind === "anthropic") return anthropicBatches(common);
  return openaiBatches({ ...common, compatible: false });
}
