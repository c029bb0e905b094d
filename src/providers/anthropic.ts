/**
 * Anthropic Messages API with native tool use, through the official SDK; prompt caching on the
 * system prompt and tools (under a native tool search, on the search tool: anthropic-tool-search.ts).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { redactUrl } from "./connection.ts";
import { boundedFetch } from "./http.ts";
import {
  anthropicRawBlocks,
  anthropicSearchTools,
  hasAnthropicSearch,
  readAnthropicSearches,
} from "./anthropic-tool-search.ts";
import { preflight } from "./preflight.ts";
import { boundedArguments } from "./tool-arguments.ts";
import type { ProviderClient, ProviderReply, ProviderRequest, ToolCall } from "./types.ts";

type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

/** Our neutral conversation as Anthropic messages: tool results are user blocks; same-role turns merge. */
export function toAnthropicMessages(messages: ProviderRequest["messages"]): Turn[] {
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "user") push("user", [{ type: "text", text: m.content }]);
    else if (m.role === "tool")
      push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: m.content }]);
    else if (Array.isArray(m.raw)) push("assistant", anthropicRawBlocks(m.raw, m.tool_calls));
    else {
      const blocks: Block[] = m.content.trim() === "" ? [] : [{ type: "text", text: m.content }];
      for (const call of m.tool_calls)
        blocks.push({
          type: "tool_use",
          id: call.id,
          name: call.name,
          input: isObject(call.arguments) ? call.arguments : {},
        });
      push("assistant", blocks.length > 0 ? blocks : [{ type: "text", text: "(no text)" }]);
    }
  }
  return turns;
}

export function anthropicRequest(model: string, request: ProviderRequest): Record<string, unknown> {
  const cache = request.settings.prompt_cache ? { cache_control: { type: "ephemeral" } } : {};
  const tools = request.toolSearch
    ? anthropicSearchTools(request.tools, request.toolSearch, cache)
    : request.tools.map((t, i) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters,
        ...(i === request.tools.length - 1 ? cache : {}),
      }));
  return {
    model,
    max_tokens: request.settings.max_output_tokens,
    temperature: request.settings.temperature,
    system: [{ type: "text", text: request.system, ...cache }],
    messages: toAnthropicMessages(request.messages),
    ...(tools.length > 0 ? { tools } : {}),
    ...(request.responseFormat
      ? { output_config: { format: { type: "json_schema", schema: request.responseFormat.schema } } }
      : {}),
  };
}

/**
 * The Anthropic SDK client, made on first use: the SDK is hundreds of modules, loaded only by a
 * command that sends a request (`score`, `gate` and `report` reach this file but never call it).
 */
export function anthropicSdk(options: ConstructorParameters<typeof Anthropic>[0]): () => Promise<Anthropic> {
  let client: Promise<Anthropic> | undefined;
  return () => {
    client ??= import("@anthropic-ai/sdk").then(({ default: Sdk }) => new Sdk(options));
    return client;
  };
}

export function anthropicClient(options: {
  model: string;
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  maxResponseBytes: number;
}): ProviderClient {
  const sdk = anthropicSdk({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: options.timeoutMs,
    // The SDK's own timeout ends at the headers; this one also covers the body.
    fetch: boundedFetch({ maxBytes: options.maxResponseBytes, timeoutMs: options.timeoutMs }),
  });
  return {
    name: "anthropic",
    preflight: () =>
      preflight(redactUrl(options.baseURL), async () => (await sdk()).models.list({ limit: 1 })),
    async complete(request, signal): Promise<ProviderReply> {
      const client = await sdk();
      return readAnthropicMessage(
        (await client.messages.create(anthropicRequest(options.model, request) as never, {
          signal,
        })) as unknown as AnthropicMessage,
      );
    },
  };
}

export type AnthropicMessage = {
  model?: string;
  stop_reason?: string | null;
  content: Array<{
    type: string;
    text?: string;
    id?: string;
    name?: string;
    input?: unknown;
    [k: string]: unknown;
  }>;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
};

/** A Messages API reply (synchronous or from a batch) as our provider reply. */
export function readAnthropicMessage(response: AnthropicMessage): ProviderReply {
  const text = response.content
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
  const toolCalls: ToolCall[] = response.content
    .filter((b) => b.type === "tool_use")
    .map((b, i) => ({
      id: b.id ?? `toolu_${i}`,
      name: b.name ?? "",
      // The SDK parsed the input; too deep or holding Infinity, it ends the episode (tool-arguments.ts).
      arguments: boundedArguments(b.name ?? "", b.input ?? {}),
    }));
  // Server tool search blocks cannot be rebuilt from text and calls: the content is kept as it came.
  const searched = hasAnthropicSearch(response.content);
  return {
    text,
    toolCalls,
    model: response.model ?? null,
    usage: {
      input_tokens: response.usage?.input_tokens ?? null,
      output_tokens: response.usage?.output_tokens ?? null,
      cache_read_tokens: response.usage?.cache_read_input_tokens ?? null,
      cache_write_tokens: response.usage?.cache_creation_input_tokens ?? null,
    },
    ...(searched ? { searches: readAnthropicSearches(response.content), raw: response.content } : {}),
    ...(searched && response.stop_reason === "pause_turn" ? { paused: true } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
