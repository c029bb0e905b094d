/**
 * Built-in adapters: `--adapter anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL`. The
 * request's two canonical messages go to the provider as they are (system, then user), and its
 * response schema as the provider's structured output, unchanged; the answer is the reply's JSON.
 * Keys and base URLs follow fabench's rules (providers/connection.ts): the key is read from the
 * environment the CLI hands in, and only ever sent where it was named.
 *
 * Failures get the reason codes subprocess adapters report: a provider that still fails after its
 * retries is `model_failed` (a reply over --max-response-bytes `output_limit`), a reply that is not
 * one JSON object `invalid_output`, a tool call `tool_use_rejected`.
 */
import { FabenchError, usageError } from "../core/index.ts";
import {
  createClient,
  type GenerationSettings,
  isProviderKind,
  type ProviderClient,
  type ProviderKind,
  type ProviderReply,
  type ProviderRequest,
  type RetryPolicy,
  type Timing,
  withRetries,
} from "../providers/index.ts";
import { type Adapter, type AdapterRequest, adapterFailure } from "./adapter-protocol.ts";

export interface ModelAdapterOptions {
  readonly provider: ProviderClient;
  readonly settings: GenerationSettings;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
}

/** What `--adapter` names: a built-in model adapter, or an executable to run. */
export type AdapterSpec =
  | { readonly kind: "process"; readonly command: string }
  | { readonly kind: ProviderKind; readonly model: string };

/** `anthropic:MODEL`, `openai:MODEL` and `openai-compatible:MODEL` are built in; anything else is a command. */
export function parseAdapterSpec(spec: string): AdapterSpec {
  const colon = spec.indexOf(":");
  const kind = colon === -1 ? "" : spec.slice(0, colon);
  if (!isProviderKind(kind)) return { kind: "process", command: spec };
  const model = spec.slice(colon + 1);
  if (model.trim() === "") throw usageError("unknown_adapter", `--adapter ${kind}: names no model`);
  return { kind, model };
}

/** The provider request for one adapter request: nothing added, nothing left out. */
export function providerRequest(request: AdapterRequest, settings: GenerationSettings): ProviderRequest {
  const [system, user] = request.messages;
  return {
    system: system.content,
    messages: [{ role: "user", content: user.content }],
    tools: [],
    settings,
    responseFormat: { name: `discover_call_${request.stage}`, schema: request.response_schema },
  };
}

/** The answer in a reply: exactly one JSON object in its text, and no tool calls. */
export function readModelAnswer(reply: ProviderReply): Record<string, unknown> {
  if (reply.toolCalls.length > 0) throw adapterFailure("tool_use_rejected");
  let value: unknown;
  try {
    value = JSON.parse(reply.text.trim());
  } catch {
    throw adapterFailure("invalid_output");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw adapterFailure("invalid_output");
  return value as Record<string, unknown>;
}

export function modelAdapter(options: ModelAdapterOptions): Adapter {
  return async (request) => {
    const sent = providerRequest(request, options.settings);
    let reply: ProviderReply;
    try {
      reply = await withRetries(
        () => options.provider.complete(sent),
        options.retry,
        options.timing,
        options.provider.name,
      );
    } catch (error) {
      // The provider's code stays out of the record: adapters of every kind share one code list.
      const tooLarge = error instanceof FabenchError && error.code === "response_too_large";
      throw adapterFailure(tooLarge ? "output_limit" : "model_failed");
    }
    return readModelAnswer(reply);
  };
}

export interface BuiltInAdapterOptions {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly openaiApi: "chat" | "responses";
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes?: number;
  readonly settings: GenerationSettings;
  readonly retry: RetryPolicy;
  readonly timing: Timing;
}

/** A built-in adapter; a missing key or base URL is a usage error (exit 2) before anything is sent. */
export function createModelAdapter(options: BuiltInAdapterOptions): Adapter {
  const provider = createClient({
    kind: options.kind,
    model: options.model,
    env: options.env,
    openaiApi: options.openaiApi,
    timeoutMs: options.requestTimeoutMs,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
  });
  return modelAdapter({
    provider,
    settings: options.settings,
    retry: options.retry,
    timing: options.timing,
  });
}
