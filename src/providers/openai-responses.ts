/** OpenAI Responses API with function tools (`--openai-api responses`), through the official SDK. */
import { FabenchError } from "../core/index.ts";
import { checkResponsesSearch } from "./tool-search.ts";
import { redactUrl } from "./connection.ts";
import { openaiSdk, readToolCall } from "./openai.ts";
import { preflight } from "./preflight.ts";
import {
  hasResponsesSearch,
  pendingOf,
  readResponsesSearches,
  responsesFunctionTool,
  responsesRawItems,
  responsesSearchTool,
  type OpenAIToolSearchExecution,
} from "./responses-tool-search.ts";
import type { ProviderClient, ProviderReply, ProviderRequest } from "./types.ts";

export function responsesInput(request: ProviderRequest): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  for (const m of request.messages) {
    if (m.role === "user") items.push({ role: "user", content: m.content });
    else if (m.role === "tool")
      items.push({ type: "function_call_output", call_id: m.tool_call_id, output: m.content });
    else if (Array.isArray(m.raw)) items.push(...responsesRawItems(m.raw, m.tool_calls));
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

/** The tools of a request: under a native search, every function deferred and the `tool_search` tool last. */
function responsesTools(request: ProviderRequest, execution: OpenAIToolSearchExecution) {
  const search = request.toolSearch;
  const functions = request.tools.map((t) => responsesFunctionTool(t, search !== undefined));
  return search ? [...functions, responsesSearchTool(search, execution)] : functions;
}

export function responsesRequest(
  model: string,
  request: ProviderRequest,
  execution: OpenAIToolSearchExecution = "hosted",
): Record<string, unknown> {
  const tools = responsesTools(request, execution);
  return {
    model,
    instructions: request.system,
    input: responsesInput(request),
    temperature: request.settings.temperature,
    max_output_tokens: request.settings.max_output_tokens,
    store: false,
    ...(tools.length > 0 ? { tools } : {}),
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
    [k: string]: unknown;
  }>;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number };
  };
};

/** `searching`: the request carried a native tool search, so the output is kept as `raw` even without a search in it. */
export function readResponsesReply(
  response: ResponsesReply,
  model: string,
  searching = false,
): ProviderReply {
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
  // Tool search items cannot be rebuilt from text and calls: the output is kept as it came.
  const pending = pendingOf(response.output);
  const searched =
    searching || hasResponsesSearch(response.output)
      ? { searches: readResponsesSearches(response.output), raw: response.output }
      : {};
  return {
    ...searched,
    ...(pending ? { pendingSearch: pending } : {}),
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
  /** Who runs a native tool search (`--openai-tool-search`): OpenAI, or fabench answering `tool_search_call`. */
  toolSearch?: OpenAIToolSearchExecution;
}): ProviderClient {
  const sdk = openaiSdk({ ...options, maxRetries: 0 });
  const execution = options.toolSearch ?? "hosted";
  return {
    name: "openai-responses",
    preflight: () => preflight(redactUrl(options.baseURL), async () => (await sdk()).models.list()),
    async complete(request, signal) {
      if (request.toolSearch) checkResponsesSearch(request.toolSearch.engine, execution);
      const body = responsesRequest(options.model, request, execution);
      const client = await sdk();
      const response = (await client.responses.create(body as never, {
        signal,
      })) as unknown as ResponsesReply;
      return readResponsesReply(response, options.model, request.toolSearch !== undefined);
    },
  };
}
