import { customIdFor } from "../../providers/index.js";
import { Budget } from "../../providers/index.js";
import { RateLimiter, withRetries } from "../../providers/index.js";
import { asTextProtocol, parseTextToolCalls } from "../../providers/index.js";
export function modelAgent(options) {
    return {
        identity: options.identity,
        startEpisode: (_task, key = "") => {
            options.batch?.episodeStarted();
            return {
                turn: (request) => modelTurn(options, request, key),
                finish: () => options.batch?.episodeFinished(),
            };
        },
    };
}
async function modelTurn(options, request, key) {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    const neutral = {
        system,
        messages: request.messages.filter((m) => m.role !== "system"),
        tools: request.tools,
        settings: options.settings,
    };
    const sent = options.toolProtocol === "text" ? asTextProtocol(neutral) : neutral;
    // The loop has already counted this request; count again only when called on its own.
    const inputTokens = request.inputTokens ?? options.tokens.count(JSON.stringify(sent));
    const reservation = options.budget.reserve(inputTokens, options.settings.max_output_tokens);
    let reply;
    try {
        await options.limiter.acquire(inputTokens + options.settings.max_output_tokens);
        const batch = options.batch;
        reply = batch
            ? await batch.submit(customIdFor(key, request.turn), sent)
            : await withRetries(() => options.provider.complete(sent), options.retry, options.timing, options.provider.name);
    }
    catch (error) {
        options.budget.release(reservation);
        throw error;
    }
    const outputTokens = options.tokens.count(reply.text);
    options.budget.settle(reservation, reply.usage, inputTokens, outputTokens);
    const toolCalls = options.toolProtocol === "text" ? parseTextToolCalls(reply.text, request.turn) : reply.toolCalls;
    return { text: reply.text, toolCalls, usage: reply.usage, ...(reply.model ? { model: reply.model } : {}) };
}
