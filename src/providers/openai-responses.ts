/** OpenAI Responses API with function tools (`--openai-api responses`), through the official SDK. */
import { FabenchError } from "../core/index.ts";
import { redactUrl } from "./connection.ts";
import { openaiSdk, readToolCall } from "./openai.ts";
import { preflight } from "./preflight.ts";
import type { ProviderClient, ProviderReply, ProviderRequest } from "./types.ts";

export function responsesInput(request: ProviderRequest): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  for (const m of request.messages) {
    if (m.role === "user") items.push({ role: "user", content: m.content });
    else if (m.role === "tool")
      items.push({ type: "function_call_output", call_id: m.tool_call_id, output: m.content });
    else {
      if (m.content !== "") items.push({ role: "assistant", content: m.content });
      for (const c of m.tool_calls)
        items.push({
          type: "function_call",
          call_id: c.id,
          name: c.name,
          arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
        });
    }
  }
  return items;
}

export function responsesRequest(model: string, request: ProviderRequest): Record<string, unknown> {
  return {
    model,
    instructions: request.system,
    input: responsesInput(request),
    temperature: request.settings.temperature,
    max_output_tokens: request.settings.max_output_tokens,
    store: false,
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((t) => ({
            type: "function",
            name: t.name,
            description: t.description,
            parameters: t.parameters,
            strict: false,
          })),
        }
      : {}),
    ...(request.responseFormat
      ? {
          text: {
            format: {
              type: "json_schema",
              name: request.responseFormat.name,
              schema: request.responseFormat.schema,
              strict: true,
            },
          },
        }
      : {}),
  };
}

type ResponsesReply = {
  model?: string;
  output?: Array<{
    type: string;
    content?: Array<{ type: string; text?: string }>;
    call_id?: string;
    name?: string;
    arguments?: string;
  }>;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number };
  };
};

export function readResponsesReply(response: ResponsesReply, model: string): ProviderReply {
  if (!Array.isArray(response.output))
    throw new FabenchError({
      kind: "input",
      stage: "provider",
      code: "provider_bad_response",
      message: `${model}: the reply has no output`,
    });
  const text = response.output
    .filter((o) => o.type === "message")
    .flatMap((o) => o.content ?? [])
    .filter((c) => c.type === "output_text")
    .map((c) => c.text ?? "")
    .join("");
  const toolCalls = response.output
    .filter((o) => o.type === "function_call")
    .map((o, i) =>
      readToolCall(
        {
          ...(o.call_id ? { id: o.call_id } : {}),
          function: { name: o.name ?? "", arguments: o.arguments ?? "" },
        },
        i,
      ),
    );
  const cached = response.usage?.input_tokens_details?.cached_tokens ?? 0;
  return {
    text,
    toolCalls,
    model: response.model ?? null,
    usage: {
      input_tokens: response.usage?.input_tokens === undefined ? null : response.usage.input_tokens - cached,
      output_tokens: response.usage?.output_tokens ?? null,
      cache_read_tokens: cached,
      cache_write_tokens: null,
    },
  };
}

export function openaiResponsesClient(options: {
  model: string;
  apiKey: string | null;
  baseURL: string;
  timeoutMs: number;
  maxResponseBytes: number;
}): ProviderClient {
  const client = openaiSdk({ ...options, maxRetries: 0 });
  return {
    name: "openai-responses",
    preflight: () => preflight(redactUrl(options.baseURL), () => client.models.list()),
    async complete(request, signal) {
      const response = (await client.responses.create(responsesRequest(options.model, request) as never, {
        signal,
      })) as unknown as ResponsesReply;
      return readResponsesReply(response, options.model);
    },
  };
}
