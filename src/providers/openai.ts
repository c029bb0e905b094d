/** OpenAI Chat Completions with tools (and OpenAI-compatible servers: vLLM, llama.cpp, Ollama), through the official SDK. */
import type OpenAI from "openai";
import { depthBreach, FabenchError, MAX_JSON_DEPTH } from "../core/index.ts";
import { redactUrl } from "./connection.ts";
import { boundedFetch } from "./http.ts";
import { preflight } from "./preflight.ts";
import { argumentsTooDeep, boundedArguments } from "./tool-arguments.ts";
import { checkNativeSearch } from "./tool-search.ts";
import type { ProviderClient, ProviderReply, ProviderRequest, ToolCall } from "./types.ts";

export function openaiMessages(request: ProviderRequest): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{ role: "system", content: request.system }];
  for (const m of request.messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "tool") out.push({ role: "tool", tool_call_id: m.tool_call_id, content: m.content });
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

export function openaiRequest(
  model: string,
  request: ProviderRequest,
  compatible: boolean,
): Record<string, unknown> {
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
    ...(request.responseFormat
      ? {
          response_format: {
            type: "json_schema",
            json_schema: {
              name: request.responseFormat.name,
              schema: request.responseFormat.schema,
              strict: true,
            },
          },
        }
      : {}),
  };
}

/**
 * A call whose arguments are not a JSON object (e.g. truncated) is kept, marked malformed; one
 * whose arguments nest too deep or overflow a number ends the episode (tool-arguments.ts).
 */
export function readToolCall(
  call: { id?: string; function?: { name?: string; arguments?: string } },
  index: number,
): ToolCall {
  const raw = call.function?.arguments ?? "";
  const base = { id: call.id ?? `call_${index}`, name: call.function?.name ?? "" };
  if (depthBreach(raw, MAX_JSON_DEPTH) !== -1) throw argumentsTooDeep(base.name);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw === "" ? "{}" : raw) as unknown;
  } catch {
    return { ...base, arguments: raw, malformed: "the arguments are not valid JSON" };
  }
  return { ...base, arguments: boundedArguments(base.name, parsed) };
}

/**
 * The OpenAI SDK for one base URL, made on first use (the SDK is loaded only by a command that sends
 * a request). With no key (an OpenAI-compatible server not given one through `--api-key-env`) no
 * credential header is sent at all, whatever the SDK would add; nothing is read from the process
 * environment for the URL, the key, the organisation or the project.
 */
export function openaiSdk(options: {
  apiKey: string | null;
  baseURL: string;
  timeoutMs: number;
  maxRetries: number;
  maxResponseBytes: number | null;
}): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () => {
    client ??= import("openai").then(({ default: Sdk }) => makeOpenai(Sdk, options));
    return client;
  };
}

function makeOpenai(Sdk: typeof OpenAI, options: Parameters<typeof openaiSdk>[0]): OpenAI {
  // The SDK's own timeout ends at the headers; this one also covers the body.
  const capped = boundedFetch({ maxBytes: options.maxResponseBytes, timeoutMs: options.timeoutMs });
  return new Sdk({
    // The SDK insists on a credential; without a key this placeholder is stripped from every request.
    apiKey: options.apiKey ?? "no-key",
    adminAPIKey: null,
    organization: null,
    project: null,
    baseURL: options.baseURL,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    ...(options.apiKey === null ? { defaultHeaders: { Authorization: null } } : {}),
    fetch: options.apiKey === null ? withoutCredentials(capped) : capped,
  });
}

/** `base` with every credential header removed from each request. */
function withoutCredentials(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const name of ["authorization", "api-key", "x-api-key", "proxy-authorization"]) headers.delete(name);
    return base(input, { ...init, headers });
  };
}

export function openaiClient(options: {
  model: string;
  apiKey: string | null;
  baseURL: string;
  timeoutMs: number;
  compatible: boolean;
  maxResponseBytes: number;
}): ProviderClient {
  const sdk = openaiSdk({ ...options, maxRetries: 0 });
  const name = options.compatible ? "openai-compatible" : "openai";
  return {
    name,
    preflight: () => preflight(redactUrl(options.baseURL), async () => (await sdk()).models.list()),
    async complete(request, signal): Promise<ProviderReply> {
      // Chat Completions has no tool search: refused, never sent with the catalog undeferred.
      if (request.toolSearch)
        checkNativeSearch(
          { kind: name, openaiApi: "chat", openaiToolSearch: "hosted", toolProtocol: "native" },
          request.toolSearch.engine,
        );
      const client = await sdk();
      return readChatCompletion(
        (await client.chat.completions.create(
          openaiRequest(options.model, request, options.compatible) as never,
          { signal },
        )) as unknown as ChatCompletion,
        options.model,
      );
    },
  };
}

export type ChatCompletion = {
  model?: string;
  choices?: Array<{
    message?: {
      content?: string | null;
      tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
  };
};

/** A Chat Completions reply (synchronous or from a batch) as our provider reply. */
export function readChatCompletion(response: ChatCompletion, model: string): ProviderReply {
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
      input_tokens:
        response.usage?.prompt_tokens === undefined ? null : response.usage.prompt_tokens - cached,
      output_tokens: response.usage?.completion_tokens ?? null,
      cache_read_tokens: response.usage?.prompt_tokens_details?.cached_tokens ?? null,
      cache_write_tokens: null,
    },
  };
}
