/** The Anthropic Message Batches and OpenAI Batch APIs behind one small interface. */
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { canonicalSha256, FabenchError } from "../../core/index.ts";
import { anthropicRequest, anthropicSdk, readAnthropicMessage, type AnthropicMessage } from "../anthropic.ts";
import { openaiRequest, openaiSdk, readChatCompletion, type ChatCompletion } from "../openai.ts";
import { boundedFetch } from "../http.ts";
import { classify } from "../reliability.ts";
import { BatchRejected, type BatchOutcome, type BatchProvider } from "./coordinator.ts";

/**
 * A create that failed with an answer saying nothing was made (client errors, rate limits,
 * overload) is a rejection; a lost connection, a time-out or a server error leaves it unknown.
 */
async function createOnce<T>(
  create: () => Promise<T>,
  status: (error: unknown) => number | undefined,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const code = status(error);
    if (code !== undefined && (code < 500 || code === 503 || code === 529))
      throw new BatchRejected(`batch creation refused with HTTP ${code}`);
    throw error;
  }
}

/** Provider custom ids allow only [A-Za-z0-9_-] and 64 characters: episode keys are hashed into one. */
export function customIdFor(episodeKey: string, turn: number): string {
  return `t${turn}-${canonicalSha256(episodeKey).slice(0, 48)}`;
}

/** A poll answer without the field it must have: unreadable, so polled again (never a failed episode). */
function badPoll(provider: string): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: "provider",
    code: "provider_bad_response",
    message: `${provider}: a batch status reply without a status`,
  });
}

/** One batch result too large to take (over --max-response-bytes, as a synchronous reply would be). */
const tooLarge = (bytes: number, max: number): BatchOutcome | null =>
  bytes > max ? { ok: false, code: "response_too_large" } : null;

/** One result of a batch as an outcome: a reply that cannot be read fails that request alone. */
function outcomeOf(read: () => BatchOutcome): BatchOutcome {
  try {
    return read();
  } catch (error) {
    return { ok: false, code: classify(error).code };
  }
}

export function anthropicBatches(options: {
  model: string;
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  maxResponseBytes: number;
}): BatchProvider {
  const sdk = anthropicSdk({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 2,
    timeout: options.timeoutMs,
    // Results are capped per line; the time limit covers each download whole, body included.
    fetch: boundedFetch({ maxBytes: null, timeoutMs: options.timeoutMs }),
  });
  return {
    name: "anthropic-batches",
    // Message Batches keep no client metadata, so a submission of unknown fate cannot be looked up (no `find`).
    async create(items) {
      const client = await sdk();
      const { APIError } = await import("@anthropic-ai/sdk");
      const batch = await createOnce(
        () =>
          client.messages.batches.create(
            {
              requests: items.map((i) => ({
                custom_id: i.customId,
                params: anthropicRequest(options.model, i.request),
              })),
            } as never,
            { maxRetries: 0 },
          ),
        (error) => (error instanceof APIError ? error.status : undefined),
      );
      return (batch as { id: string }).id;
    },
    async status(id) {
      const client = await sdk();
      const batch = (await client.messages.batches.retrieve(id)) as { processing_status?: unknown } | null;
      if (typeof batch?.processing_status !== "string") throw badPoll("anthropic-batches");
      return batch.processing_status === "ended" ? "ended" : "in_progress";
    },
    async results(id) {
      const client = await sdk();
      const out = new Map<string, BatchOutcome>();
      for await (const line of await client.messages.batches.results(id)) {
        const entry = line as unknown as {
          custom_id: string;
          result: { type: string; message?: AnthropicMessage; error?: { type?: string } };
        };
        const message = entry.result.type === "succeeded" ? entry.result.message : undefined;
        out.set(
          entry.custom_id,
          message
            ? (tooLarge(Buffer.byteLength(JSON.stringify(message)), options.maxResponseBytes) ??
                outcomeOf(() => ({ ok: true, reply: readAnthropicMessage(message) })))
            : { ok: false, code: `provider_batch_${entry.result.type}` },
        );
      }
      return out;
    },
  };
}

/** The batch metadata key that carries fabench's submission fingerprint, and how far back `find` looks. */
const SUBMISSION_KEY = "fabench_submission";
const FIND_LIMIT = 2000;

export function openaiBatches(options: {
  model: string;
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  compatible: boolean;
  maxResponseBytes: number;
}): BatchProvider {
  // Result files hold every request's reply, so the cap applies per result line, not per download.
  const sdk = openaiSdk({ ...options, maxRetries: 2, maxResponseBytes: null });
  return {
    name: "openai-batches",
    async create(items, submission) {
      const lines = items.map((i) =>
        JSON.stringify({
          custom_id: i.customId,
          method: "POST",
          url: "/v1/chat/completions",
          body: openaiRequest(options.model, i.request, options.compatible),
        }),
      );
      const client = await sdk();
      const { APIError, toFile } = await import("openai");
      // Uploading the same file twice costs nothing; creating the batch twice would.
      const file = await client.files.create({
        file: await toFile(Buffer.from(`${lines.join("\n")}\n`), "fabench-batch.jsonl"),
        purpose: "batch",
      });
      const batch = await createOnce(
        () =>
          client.batches.create(
            {
              input_file_id: file.id,
              endpoint: "/v1/chat/completions",
              completion_window: "24h",
              metadata: { [SUBMISSION_KEY]: submission },
            },
            { maxRetries: 0 },
          ),
        (error) => (error instanceof APIError ? error.status : undefined),
      );
      return batch.id;
    },
    async find(submission) {
      let seen = 0;
      for await (const batch of (await sdk()).batches.list({ limit: 100 })) {
        if (batch.metadata?.[SUBMISSION_KEY] === submission) return batch.id;
        if (++seen >= FIND_LIMIT) break;
      }
      return null;
    },
    async status(id) {
      const batch = (await (await sdk()).batches.retrieve(id)) as { status?: unknown } | null;
      if (typeof batch?.status !== "string") throw badPoll("openai-batches");
      if (batch.status === "completed") return "ended";
      return ["failed", "expired", "cancelled"].includes(batch.status) ? "failed" : "in_progress";
    },
    async results(id) {
      const client = await sdk();
      const batch = await client.batches.retrieve(id);
      const out = new Map<string, BatchOutcome>();
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue;
        const text = await (await client.files.content(fileId)).text();
        for (const line of text.split("\n")) {
          const result = openaiResultLine(line, options);
          if (result !== null) out.set(result[0], result[1]);
        }
      }
      return out;
    },
  };
}

/** One line of an OpenAI batch result file as its custom id and outcome; null: no result for anyone. */
function openaiResultLine(
  line: string,
  options: { model: string; maxResponseBytes: number },
): [string, BatchOutcome] | null {
  if (line.trim() === "") return null;
  // A line that cannot be read leaves its request without a result (that request alone fails).
  let entry: {
    custom_id?: unknown;
    response?: { status_code: number; body: ChatCompletion };
    error?: unknown;
  };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return null;
  }
  if (typeof entry?.custom_id !== "string") return null;
  const response = entry.response;
  if (response && response.status_code === 200)
    return [
      entry.custom_id,
      tooLarge(Buffer.byteLength(line), options.maxResponseBytes) ??
        outcomeOf(() => ({ ok: true, reply: readChatCompletion(response.body, options.model) })),
    ];
  return [entry.custom_id, { ok: false, code: classify({ status: response?.status_code ?? 500 }).code }];
}
