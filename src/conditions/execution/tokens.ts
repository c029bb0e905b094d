/**
 * Token counting with a declared tokenizer (gpt-tokenizer, o200k_base by default), recorded by
 * name in every run. Input tokens of a turn = the tool definitions encoded as one JSON array +
 * each message encoded as JSON on its own (its neutral form, never a provider's `raw`: see
 * `neutral`); tool-schema tokens = the tool definitions alone. Both are cached by content (a
 * 250-tool block, the system prompt and most tool results repeat across tasks, conditions and
 * trials), which keeps counting off the hot path of a large run. Counting is linear in the text's
 * length whatever the text (see boundedCount).
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
  // Text that looks like a special token (`<|endoftext|>`) is counted as the text it is, never refused.
  const plain = { disallowedSpecial: new Set<string>() };
  return {
    name: `gpt-tokenizer@4.0.0/${encoding}`,
    count: boundedCount((text) => countTokens(text, plain)),
  };
}

/**
 * The longest run of one kind of character — letters, other non-space symbols, or white space —
 * that is counted in one piece. The tokenizer's byte-pair merge is quadratic in the length of one
 * such run (an 80,000-letter word takes seconds; 256 CJK characters under a millisecond), and no
 * text of the benchmark comes near it (its longest run is 39 characters).
 */
export const MAX_RUN = 256;

/** Runs of one class of characters, as the tokenizer's pre-split sees them; digits are split by it anyway. */
const RUNS = /[\p{L}\p{M}]+|[^\s\p{L}\p{N}]+|\s+/gu;

/**
 * `count` made safe for any input: a run longer than `maxRun` is counted in chunks of at most
 * `maxRun` characters, and the text around it as usual. Every call to `count` then gets text whose
 * runs are bounded, so the work is linear in the text's length. The result equals exact counting
 * for any text without such a run; with one, it can differ by a token or so at each chunk boundary
 * (such runs — megabytes of one letter — are not language, and counting them exactly could stall
 * the whole run).
 */
export function boundedCount(count: (text: string) => number, maxRun = MAX_RUN): (text: string) => number {
  return (text) => {
    if (text.length <= maxRun) return count(text);
    let total = 0;
    let from = 0;
    for (const match of text.matchAll(RUNS)) {
      const run = match[0];
      if (run.length <= maxRun) continue;
      const start = match.index;
      if (start > from) total += count(text.slice(from, start));
      for (let i = 0; i < run.length; ) {
        let end = Math.min(run.length, i + maxRun);
        // Never split a surrogate pair.
        const last = run.charCodeAt(end - 1);
        if (end < run.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
        total += count(run.slice(i, end));
        i = end;
      }
      from = start + run.length;
    }
    if (from === 0) return count(text);
    if (from < text.length) total += count(text.slice(from));
    return total;
  };
}

export interface TurnTokens {
  readonly input: number;
  readonly tool_schema: number;
}

const MESSAGE_CACHE_LIMIT = 50_000;

/**
 * The message as counted: without `raw`. Under a native search (#34) the assistant message keeps
 * the provider's own content (`raw`) to send back as it came, and that content repeats the
 * message's text and tool calls — counting both counted them twice. The neutral message is the
 * one counted, as under every other condition: the same shape whatever the provider (Anthropic's
 * and OpenAI's raw content differ for the same turn), and OpenAI's raw `tool_search_output` holds
 * the loaded tools' full definitions, which the turn's tool-schema tokens already count. What is
 * left out is the search's own query and references (a few tokens a search); the search tool's
 * schema is counted with the tools. A message without `raw` is counted byte for byte as before.
 */
function neutral(message: Message): Message {
  if (message.role !== "assistant" || message.raw === undefined) return message;
  const { raw: _, ...rest } = message;
  return rest;
}

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
    for (const message of messages) input += this.message(JSON.stringify(neutral(message)));
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
