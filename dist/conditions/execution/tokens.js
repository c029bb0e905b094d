/**
 * Token counting with a declared tokenizer (gpt-tokenizer, o200k_base by default), recorded by
 * name in every run. Input tokens of a turn = the tool definitions encoded as one JSON array +
 * each message encoded as JSON on its own; tool-schema tokens = the tool definitions alone. Both
 * are cached by content (a 250-tool block, the system prompt and most tool results repeat across
 * tasks, conditions and trials), which keeps counting off the hot path of a large run.
 */
import { usageError } from "../../core/index.js";
/** The encodings a run may declare, loaded only when chosen (each is a few MB of tables). */
const ENCODINGS = {
    o200k_base: () => import("gpt-tokenizer/encoding/o200k_base"),
    cl100k_base: () => import("gpt-tokenizer/encoding/cl100k_base"),
};
export const TOKENIZERS = Object.keys(ENCODINGS);
export const DEFAULT_TOKENIZER = "o200k_base";
export async function loadTokenCounter(encoding = DEFAULT_TOKENIZER) {
    const load = ENCODINGS[encoding];
    // A name the user typed: a usage error (exit 2), not a bug.
    if (!load)
        throw usageError("unknown_tokenizer", `unknown tokenizer ${encoding}; known: ${TOKENIZERS.join(", ")}`);
    const { countTokens } = await load();
    return { name: `gpt-tokenizer@4.0.0/${encoding}`, count: (text) => countTokens(text) };
}
const MESSAGE_CACHE_LIMIT = 50_000;
export class TurnTokenCounter {
    counter;
    toolCache = new Map();
    messageCache = new Map();
    constructor(counter) {
        this.counter = counter;
    }
    /** `key` identifies the visible set (same key, same tool block). */
    request(messages, tools, key) {
        let schema = this.toolCache.get(key);
        if (schema === undefined) {
            schema = tools.length === 0 ? 0 : this.counter.count(JSON.stringify(tools));
            this.toolCache.set(key, schema);
        }
        let input = schema;
        for (const message of messages)
            input += this.message(JSON.stringify(message));
        return { input, tool_schema: schema };
    }
    message(text) {
        let tokens = this.messageCache.get(text);
        if (tokens === undefined) {
            if (this.messageCache.size >= MESSAGE_CACHE_LIMIT)
                this.messageCache.clear();
            tokens = this.counter.count(text);
            this.messageCache.set(text, tokens);
        }
        return tokens;
    }
    output(text, calls) {
        return this.counter.count(text) + (calls.length === 0 ? 0 : this.counter.count(JSON.stringify(calls)));
    }
}
