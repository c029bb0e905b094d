/**
 * What a provider adapter does: one request of a conversation in, one reply out. The conversation's
 * types live here because every user of a model — the agent loop, the judge, the discover-call
 * adapters — speaks them; `conditions` renders catalog endpoints into these shapes.
 */

/** A tool call as the model made it; `arguments` is whatever it sent (an object, or raw text when malformed). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  /** Set when the model's call could not be read (bad JSON, truncated arguments): why. */
  readonly malformed?: string;
}

/** A tool as a model is shown it: a JSON Schema of its parameters, never anything about rank. */
export interface ToolDefinition {
  /** `{tool}__{endpoint}` */
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: "object";
    readonly properties: Record<string, unknown>;
    readonly required: readonly string[];
    readonly additionalProperties: false;
  };
}

export type Message =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string;
      readonly tool_calls: readonly ToolCall[];
      /** The provider's own content for this turn, sent back as it came (see AgentTurnResponse.raw). */
      readonly raw?: unknown;
    }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly name: string; readonly content: string };

/** Token usage as the provider reported it; `input_tokens` excludes tokens read from or written to the cache. */
export interface ProviderUsage {
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly cache_read_tokens?: number | null;
  readonly cache_write_tokens?: number | null;
}

export interface GenerationSettings {
  readonly temperature: number;
  readonly max_output_tokens: number;
  readonly seed: number | null;
  readonly prompt_cache: boolean;
}

/**
 * Structured output: the reply's text is one JSON value that follows `schema`, which is sent as it
 * is given (OpenAI `response_format` / Responses `text.format` with `strict: true`, Anthropic
 * `output_config.format`).
 */
export interface ResponseFormat {
  /** The schema's name where an API asks for one (OpenAI): letters, digits, `_` and `-`. */
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface ProviderRequest {
  readonly system: string;
  /** The conversation without the system message. */
  readonly messages: readonly Exclude<Message, { role: "system" }>[];
  /** Empty under the text tool protocol. */
  readonly tools: readonly ToolDefinition[];
  readonly settings: GenerationSettings;
  /** Absent for the agent loop; the discover-call model adapters send their response schema here. */
  readonly responseFormat?: ResponseFormat;
  /**
   * The provider's own tool search (#34, a native search condition): every tool in `tools` is sent
   * with `defer_loading: true` beside the provider's search tool (tool-search.ts). Absent otherwise.
   */
  readonly toolSearch?: ProviderToolSearch;
}

/** Which provider search a native condition asks for; `k` is recorded, the provider picks its own count. */
export interface ProviderToolSearch {
  readonly engine: "bm25" | "regex";
  readonly k: number;
}

/** One search the provider ran (or asked the client to run) in a reply: the query as sent, the tools it loaded. */
export interface ProviderSearch {
  readonly query: string;
  readonly loaded: readonly string[];
}

/**
 * A search the model asked the client to run (OpenAI Responses `tool_search_call` with
 * `execution: "client"`): the agent answers it with fabench's own engine and asks again.
 */
export interface PendingClientSearch {
  readonly call_id: string;
  readonly query: string;
}

export interface ProviderReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: ProviderUsage;
  readonly model: string | null;
  /** Under `toolSearch`: the searches of this reply, in order (absent otherwise). */
  readonly searches?: readonly ProviderSearch[];
  /** Under `toolSearch`: the provider's own content (blocks or output items), to send back as it came. */
  readonly raw?: readonly unknown[];
  /** Under a client-executed search: the search the client must answer before the model goes on. */
  readonly pendingSearch?: PendingClientSearch;
  /**
   * Under `toolSearch`: the provider paused a server tool turn (Anthropic `stop_reason:
   * "pause_turn"`); sending `raw` back as the assistant's content lets the model go on.
   */
  readonly paused?: boolean;
}

export interface ProviderClient {
  readonly name: string;
  /** `signal`: aborted when the run is interrupted; the request in flight is cancelled. */
  complete(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderReply>;
  /**
   * One free request (the models list) before a run's first: throws a coded error naming the
   * redacted base URL when the endpoint cannot be reached or refuses the key (see preflight.ts).
   */
  preflight?(): Promise<void>;
}
