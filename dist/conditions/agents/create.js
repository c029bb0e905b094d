/** Agents by spec: `reference`, `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL`, `command:PATH`. */
import { usageError } from "../../core/index.js";
import { Budget } from "../../providers/index.js";
import { BatchCoordinator } from "../../providers/index.js";
import { createBatchProvider, createClient } from "../../providers/index.js";
import { commandAgent } from "./command.js";
import { modelAgent } from "./model.js";
import { DEFAULT_RETRY, RateLimiter } from "../../providers/index.js";
import { referenceAgent } from "./reference.js";
export const LANES = ["configured-model", "pinned-model", "current-model"];
/** Whether an agent spec means answer inference by a model (everything but the reference agent). */
export function isModelAgent(spec) {
    return spec !== "reference";
}
export function providerOf(spec) {
    const colon = spec.indexOf(":");
    return colon === -1
        ? { kind: spec, target: "" }
        : { kind: spec.slice(0, colon), target: spec.slice(colon + 1) };
}
export function createAgent(options) {
    if (options.spec === "reference")
        return referenceAgent(options.requestMoreTools);
    const { kind, target } = providerOf(options.spec);
    if (target === "")
        throw usageError("unknown_agent", `--agent takes reference, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH, not ${options.spec}`);
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
        throw usageError("model_revision_required", "--lane pinned-model needs --model-revision (an immutable provider revision)");
    const model = options.lane === "pinned-model" && options.modelRevision ? options.modelRevision : target;
    const client = {
        kind,
        model,
        env: options.env,
        openaiApi: options.openaiApi,
        timeoutMs: options.requestTimeoutMs,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    };
    const provider = createClient(client);
    const batch = options.batch
        ? new BatchCoordinator(createBatchProvider(client), options.batch.checkpointPath, options.timing, {
            pollMs: options.batch.pollMs,
            resubmitUnknown: options.batch.resubmitUnknown,
        })
        : undefined;
    return modelAgent({
        identity: {
            agent: kind,
            model: target,
            settings: {
                lane: options.lane,
                model_revision: options.modelRevision ?? null,
                temperature: options.generation.temperature,
                max_output_tokens: options.generation.max_output_tokens,
                seed: options.generation.seed,
                tool_protocol: options.toolProtocol,
                prompt_cache: kind === "anthropic" && options.generation.prompt_cache,
                base_url: kind === "openai-compatible" ? (options.baseUrl ?? null) : null,
                openai_api: kind === "anthropic" ? null : options.openaiApi,
                batch: options.batch !== undefined,
            },
        },
        provider,
        toolProtocol: options.toolProtocol,
        settings: options.generation,
        retry: {
            ...DEFAULT_RETRY,
            maxRetries: options.maxRetries,
            ...(options.retryBaseDelayMs !== undefined ? { baseDelayMs: options.retryBaseDelayMs } : {}),
        },
        timing: options.timing,
        limiter: new RateLimiter(options.rpm ?? null, options.tpm ?? null, options.timing),
        budget: options.budget ?? new Budget(null, null),
        tokens: options.tokens,
        ...(batch ? { batch } : {}),
    });
}
