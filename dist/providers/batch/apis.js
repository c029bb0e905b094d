/** The Anthropic Message Batches and OpenAI Batch APIs behind one small interface. */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { toFile } from "openai";
import { canonicalSha256 } from "../../core/index.js";
import { anthropicRequest, readAnthropicMessage } from "../anthropic.js";
import { openaiRequest, readChatCompletion } from "../openai.js";
import { classify } from "../reliability.js";
import { BatchRejected } from "./coordinator.js";
/**
 * A create that failed with an answer saying nothing was made (client errors, rate limits,
 * overload) is a rejection; a lost connection, a time-out or a server error leaves it unknown.
 */
async function createOnce(create, status) {
    try {
        return await create();
    }
    catch (error) {
        const code = status(error);
        if (code !== undefined && (code < 500 || code === 503 || code === 529))
            throw new BatchRejected(`batch creation refused with HTTP ${code}`);
        throw error;
    }
}
/** Provider custom ids allow only [A-Za-z0-9_-] and 64 characters: episode keys are hashed into one. */
export function customIdFor(episodeKey, turn) {
    return `t${turn}-${canonicalSha256(episodeKey).slice(0, 48)}`;
}
export function anthropicBatches(options) {
    const client = new Anthropic({
        apiKey: options.apiKey,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        maxRetries: 2,
        timeout: options.timeoutMs,
    });
    return {
        name: "anthropic-batches",
        // Message Batches keep no client metadata, so a submission of unknown fate cannot be looked up (no `find`).
        async create(items) {
            const batch = await createOnce(() => client.messages.batches.create({
                requests: items.map((i) => ({
                    custom_id: i.customId,
                    params: anthropicRequest(options.model, i.request),
                })),
            }, { maxRetries: 0 }), (error) => (error instanceof Anthropic.APIError ? error.status : undefined));
            return batch.id;
        },
        async status(id) {
            const batch = (await client.messages.batches.retrieve(id));
            return batch.processing_status === "ended" ? "ended" : "in_progress";
        },
        async results(id) {
            const out = new Map();
            for await (const line of await client.messages.batches.results(id)) {
                const entry = line;
                out.set(entry.custom_id, entry.result.type === "succeeded" && entry.result.message
                    ? { ok: true, reply: readAnthropicMessage(entry.result.message) }
                    : { ok: false, code: `provider_batch_${entry.result.type}` });
            }
            return out;
        },
    };
}
/** The batch metadata key that carries fabench's submission fingerprint, and how far back `find` looks. */
const SUBMISSION_KEY = "fabench_submission";
const FIND_LIMIT = 2000;
export function openaiBatches(options) {
    const client = new OpenAI({
        apiKey: options.apiKey,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        maxRetries: 2,
        timeout: options.timeoutMs,
    });
    return {
        name: "openai-batches",
        async create(items, submission) {
            const lines = items.map((i) => JSON.stringify({
                custom_id: i.customId,
                method: "POST",
                url: "/v1/chat/completions",
                body: openaiRequest(options.model, i.request, options.compatible),
            }));
            // Uploading the same file twice costs nothing; creating the batch twice would.
            const file = await client.files.create({
                file: await toFile(Buffer.from(`${lines.join("\n")}\n`), "fabench-batch.jsonl"),
                purpose: "batch",
            });
            const batch = await createOnce(() => client.batches.create({
                input_file_id: file.id,
                endpoint: "/v1/chat/completions",
                completion_window: "24h",
                metadata: { [SUBMISSION_KEY]: submission },
            }, { maxRetries: 0 }), (error) => (error instanceof OpenAI.APIError ? error.status : undefined));
            return batch.id;
        },
        async find(submission) {
            let seen = 0;
            for await (const batch of client.batches.list({ limit: 100 })) {
                if (batch.metadata?.[SUBMISSION_KEY] === submission)
                    return batch.id;
                if (++seen >= FIND_LIMIT)
                    break;
            }
            return null;
        },
        async status(id) {
            const batch = await client.batches.retrieve(id);
            if (batch.status === "completed")
                return "ended";
            return ["failed", "expired", "cancelled"].includes(batch.status) ? "failed" : "in_progress";
        },
        async results(id) {
            const batch = await client.batches.retrieve(id);
            const out = new Map();
            for (const fileId of [batch.output_file_id, batch.error_file_id]) {
                if (!fileId)
                    continue;
                const text = await (await client.files.content(fileId)).text();
                for (const line of text.split("\n")) {
                    if (line.trim() === "")
                        continue;
                    const entry = JSON.parse(line);
                    const response = entry.response;
                    if (response && response.status_code === 200)
                        out.set(entry.custom_id, { ok: true, reply: readChatCompletion(response.body, options.model) });
                    else
                        out.set(entry.custom_id, {
                            ok: false,
                            code: classify({ status: response?.status_code ?? 500 }).code,
                        });
                }
            }
            return out;
        },
    };
}
