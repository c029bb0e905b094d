/**
 * Provider clients by kind: `anthropic`, `openai`, `openai-compatible`. The one place that reads a
 * provider's API key (from the `env` it is given, never `process.env`) and picks the SDK; every
 * user of a model — the agent runner, the judge, the discover-call adapters — builds clients here.
 */
import { usageError } from "../core/index.js";
import { anthropicClient } from "./anthropic.js";
import { anthropicBatches, openaiBatches } from "./batch/apis.js";
import { openaiClient } from "./openai.js";
import { openaiResponsesClient } from "./openai-responses.js";
export const PROVIDER_KINDS = ["anthropic", "openai", "openai-compatible"];
export function isProviderKind(kind) {
    return PROVIDER_KINDS.includes(kind);
}
/** A client for one model; a missing key or base URL is a usage error (exit 2), before anything is sent. */
export function createClient(options) {
    const { kind, model, timeoutMs, env } = options;
    const baseURL = options.baseUrl;
    if (kind === "anthropic") {
        const apiKey = env["ANTHROPIC_API_KEY"];
        if (!apiKey)
            throw usageError("missing_api_key", "set ANTHROPIC_API_KEY in the environment");
        return anthropicClient({ model, apiKey, timeoutMs, ...(baseURL ? { baseURL } : {}) });
    }
    if (kind === "openai" || kind === "openai-compatible") {
        const compatible = kind === "openai-compatible";
        if (compatible && !baseURL)
            throw usageError("missing_base_url", "openai-compatible needs --base-url (including /v1)");
        const apiKey = env["OPENAI_API_KEY"] ?? (compatible ? "not-needed" : undefined);
        if (!apiKey)
            throw usageError("missing_api_key", "set OPENAI_API_KEY in the environment");
        if (options.openaiApi === "responses")
            return openaiResponsesClient({ model, apiKey, timeoutMs, ...(baseURL ? { baseURL } : {}) });
        return openaiClient({ model, apiKey, timeoutMs, compatible, ...(baseURL ? { baseURL } : {}) });
    }
    throw usageError("unknown_agent", `unknown agent kind ${kind}; use reference, anthropic, openai, openai-compatible or command`);
}
/** The batch API of a provider (Anthropic Message Batches, OpenAI Batch over Chat Completions). */
export function createBatchProvider(options) {
    const common = {
        model: options.model,
        timeoutMs: options.timeoutMs,
        ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    };
    if (options.kind === "anthropic")
        return anthropicBatches({ ...common, apiKey: options.env["ANTHROPIC_API_KEY"] ?? "" });
    if (options.kind === "openai" && options.openaiApi === "chat")
        return openaiBatches({ ...common, apiKey: options.env["OPENAI_API_KEY"] ?? "", compatible: false });
    throw usageError("unsupported_option", "--batch works with anthropic:MODEL and openai:MODEL (Chat Completions)");
}
