/**
 * Token counting with a declared tokenizer (gpt-tokenizer, o200k_base by default), recorded by
 * name in every run. Input tokens of a turn = the tool definitions encoded as one JSON array +
 * each message encoded as JSON on its own; tool-schema tokens = the tool definitions alone. Both
 * are cached by content (a 250-tool block, the system prompt and most tool results repeat across
 * tasks, conditions and trials), which keeps counting off the hot path of a large run.
 */
import { usageError } from "../../core/index.ts";
import type { Message, ToolDefinition } from "./render.ts";

export interface TokenCounter {
  readonly name: string;
  readonly count: (text: string) => number;
}

/** The encodings a run may declare, loaded only when chosen (each is a few MB of tables). */
const ENCODINGS = {
  o200k_base: () => import("gpt-tokenizer/encoding/o200k_base"),
  cl100k_base: () => import("gpt-tokenizer/encoding/cl100k_base"),
} as const satisfies Record<string, () => Promise<{ countTokens: (text: string) => number }>>;

export const TOKENIZERS = Object.keys(ENCODINGS) as ReadonlyArray<keyof typeof ENCODINGS>;
export const DEFAULT_TOKENIZER: keyof typeof ENCODINGS = "o200k_base";

export async function loadTokenCounter(encoding: string = DEFAULT_TOKENIZER): Promise<TokenCounter> {
  const load = (ENCODINGS as Record<string, (typeof ENCODINGS)[keyof typeof ENCODINGS] | undefined>)[
    encoding
  ];
  // A name the user typed: a usage error (exit 2), not a bug.
  if (!load)
    throw usageError("unknown_tokenizer", `unknown tokenizer ${encoding}; known: ${TOKENIZERS.join(", ")}`);
  const { countTokens } = await load();
  return { name: `gpt-tokenizer@4.0.0/${encoding}`, count: (text) => countTokens(text) };
}

export interface TurnTokens {
  readonly input: number;
  readonly tool_schema: number;
}

const MESSAGE_CACHE_LIMIT = 50_000;

export class TurnTokenCounter {
  private readonly toolCache = new Map<string, number>();
  private readonly messageCache = new Map<string, number>();

  constructor(readonly counter: TokenCounter) {}

  /** `key` identifies the visible set (same key, same tool block). */
  request(messages: readonly Message[], tools: readonly ToolDefinition[], key: string): TurnTokens {
    let schema = this.toolCache.get(key);
    if (schema === undefined) {
      schema = tools.length === 0 ? 0 : this.counter.count(JSON.stringify(tools));
      this.toolCache.set(key, schema);
    }
    let input = schema;
    for (const message of messages) input += this.message(JSON.stringify(message));
    return { input, tool_schema: schema };
  }

  private message(text: string): number {
    let tokens = this.messageCache.get(text);
    if (tokens === undefined) {
      if (this.messageCache.size >= MESSAGE_CACHE_LIMIT) this.messageCache.clear();
      tokens = this.counter.count(text);
      this.messageCache.set(text, tokens);
    }
    return tokens;
  }

  output(text: string, calls: readonly unknown[]): number {
    return this.counter.count(text) + (calls.length === 0 ? 0 : this.counter.count(JSON.stringify(calls)));
  }
}
