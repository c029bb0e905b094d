/** OpenAI Chat Completions with tools (and OpenAI-compatible servers: vLLM, llama.cpp, Ollama), through the official SDK. */
import OpenAI from "openai";
import { FabenchError } from "../core/index.js";
export function openaiMessages(request) {
    const out = [{ role: "system", content: request.system }];
    for (const m of request.messages) {
        if (m.role === "user")
            out.push({ role: "user", content: m.content });
        else if (m.role === "tool")
            out.push({ role: "tool", tool_call_id: m.tool_call_id, content: m.content });
        else
            out.push({
                role: "assistant",
                content: m.content === "" && m.tool_calls.length > 0 ? null : m.content,
                ...(m.tool_calls.length > 0
                    ? {
                        tool_calls: m.tool_calls.map((c) => ({
                            id: c.id,
                            type: "function",
                            function: {
                                name: c.name,
                                arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
                            },
                        })),
                    }
                    : {}),
            });
    }
    return out;
}
export function openaiRequest(model, request, compatible) {
    return {
        model,
        messages: openaiMessages(request),
        temperature: request.settings.temperature,
        // OpenAI's own models take max_completion_tokens; compatible servers still expect max_tokens.
        ...(compatible
            ? { max_tokens: request.settings.max_output_tokens }
            : { max_completion_tokens: request.settings.max_output_tokens }),
        ...(request.settings.seed !== null ? { seed: request.settings.seed } : {}),
        ...(request.tools.length > 0
            ? {
                tools: request.tools.map((t) => ({
                    type: "function",
                    function: { name: t.name, description: t.description, parameters: t.parameters },
                })),
            }
            : {}),
    };
}
/** A call whose arguments are not a JSON object (e.g. truncated) is kept, marked malformed. */
export function readToolCall(call, index) {
    const raw = call.function?.arguments ?? "";
    const base = { id: call.id ?? `call_${index}`, name: call.function?.name ?? "" };
    try {
        const parsed = JSON.parse(raw === "" ? "{}" : raw);
        return { ...base, arguments: parsed };
    }
    catch {
        return { ...base, arguments: raw, malformed: "the arguments are not valid JSON" };
    }
}
export function openaiClient(options) {
    const client = new OpenAI({
        apiKey: options.apiKey,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        maxRetries: 0,
        timeout: options.timeoutMs,
    });
    return {
        name: options.compatible ? "openai-compatible" : "openai",
        async complete(request) {
            return readChatCompletion((await client.chat.completions.create(openaiRequest(options.model, request, options.compatible))), options.model);
        },
    };
}
/** A Chat Completions reply (synchronous or from a batch) as our provider reply. */
export function readChatCompletion(response, model) {
    const message = response.choices?.[0]?.message;
    if (!message)
        throw new FabenchError({
            kind: "input",
            stage: "provider",
            code: "provider_bad_response",
            message: `${model}: the reply has no choices`,
        });
    const cached = response.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    return {
        text: message.content ?? "",
        toolCalls: (message.tool_calls ?? []).map(readToolCall),
        model: response.model ?? null,
        // input_tokens means input not read from cache, as Anthropic reports it; OpenAI's prompt_tokens include cached ones.
        usage: {
            input_tokens: response.usage?.prompt_tokens === undefined ? null : response.usage.prompt_tokens - cached,
            output_tokens: response.usage?.completion_tokens ?? null,
            cache_read_tokens: response.usage?.prompt_tokens_details?.cached_tokens ?? null,
            cache_write_tokens: null,
        },
    };
}
