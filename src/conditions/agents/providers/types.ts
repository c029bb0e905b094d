/** What a provider adapter does: one request of a conversation in, one reply out. */
import type { ToolCall } from "../../executor/types.ts";
import type { Message, ToolDefinition } from "../../render.ts";
import type { ProviderUsage } from "../types.ts";

export interface GenerationSettings {
  readonly temperature: number;
  readonly max_output_tokens: number;
  readonly seed: number | null;
  readonly prompt_cache: boolean;
}

export interface ProviderRequest {
  readonly system: string;
  /** The conversation without the system message. */
  readonly messages: readonly Exclude<Message, { role: "system" }>[];
  /** Empty under the text tool protocol. */
  readonly tools: readonly ToolDefinition[];
  readonly settings: GenerationSettings;
}

export interface ProviderReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: ProviderUsage;
  readonly model: string | null;
}

export interface ProviderClient {
  readonly name: string;
  complete(request: ProviderRequest): Promise<ProviderReply>;
}
