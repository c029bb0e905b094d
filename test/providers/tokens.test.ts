/**
 * Token counting stays linear whatever the text: a long unbroken run (one megabyte of one letter)
 * reaches the encoder only in bounded chunks. Bounds are on the work handed to the encoder, never
 * on wall-clock time.
 */
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  boundedCount,
  loadTokenCounter,
  MAX_RUN,
  TurnTokenCounter,
} from "../../src/conditions/execution/tokens.ts";

/** The longest run of one character class in a text, as boundedCount splits them. */
const longestRun = (text: string) => {
  let longest = 0;
  for (const m of text.matchAll(/[\p{L}\p{M}]+|[^\s\p{L}\p{N}]+|\s+/gu))
    longest = Math.max(longest, m[0].length);
  return longest;
};

/** An encoder stand-in that records what it is given: each call's length and longest run. */
function instrumented() {
  const calls: Array<{ length: number; longestRun: number }> = [];
  const count = (text: string) => {
    calls.push({ length: text.length, longestRun: longestRun(text) });
    return Math.ceil(text.length / 4);
  };
  return { calls, count };
}

describe("boundedCount", () => {
  it.each([
    ["one letter", "A"],
    ["a CJK character", "漢"],
    ["white space", " "],
    ["punctuation", "="],
  ])("hands a 1 MB run of %s to the encoder in chunks of at most MAX_RUN characters", (_label, ch) => {
    const text = `before ${ch.repeat(1_000_000)} after`;
    const { calls, count } = instrumented();
    boundedCount(count)(text);
    // The encoder's work is quadratic in a run's length at worst: every run it sees is bounded, and
    // it sees each character once, so the work is at most (text length × MAX_RUN).
    expect(Math.max(...calls.map((c) => c.longestRun))).toBeLessThanOrEqual(MAX_RUN);
    expect(calls.reduce((n, c) => n + c.length, 0)).toBe(text.length);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(text.length / MAX_RUN) + 3);
  });

  it("counts text without long runs in one call, exactly as the encoder does", () => {
    const corpus = readFileSync("tasks/final-answer-corpus.json", "utf8");
    const { calls, count } = instrumented();
    boundedCount(count)(corpus);
    expect(calls).toEqual([{ length: corpus.length, longestRun: longestRun(corpus) }]);
    const exact = (text: string) => countTokens(text);
    const sample = corpus.slice(0, 50_000);
    expect(boundedCount(exact)(sample)).toBe(exact(sample));
  });

  it("never splits a surrogate pair", () => {
    const text = "𠀀".repeat(1000); // an astral letter: two UTF-16 units each
    const pieces: string[] = [];
    boundedCount((t) => {
      pieces.push(t);
      return 1;
    })(text);
    expect(pieces.join("")).toBe(text);
    for (const p of pieces) expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it("counts a 1 MB word with the real tokenizer as the sum of its chunks", async () => {
    const counter = await loadTokenCounter();
    const full = Math.floor(1_000_000 / MAX_RUN);
    const rest = 1_000_000 - full * MAX_RUN;
    expect(counter.count("A".repeat(1_000_000))).toBe(
      full * countTokens("A".repeat(MAX_RUN)) + countTokens("A".repeat(rest)),
    );
  });

  it("counts text that looks like a special token instead of refusing it", async () => {
    const counter = await loadTokenCounter();
    expect(counter.count("a reply with <|endoftext|> in it")).toBeGreaterThan(5);
  });
});

describe("TurnTokenCounter under a native search (#34)", () => {
  it("counts an assistant message's neutral form, never its raw provider content as well", () => {
    // A stand-in encoder: one token a character, so every count is the JSON's length.
    const turns = new TurnTokenCounter({ name: "chars", count: (text) => text.length });
    const neutral = {
      role: "assistant" as const,
      content: "Searching.",
      tool_calls: [{ id: "toolu_1", name: "materials__current", arguments: { material_id: "M-1" } }],
    };
    const raw = [
      { type: "text", text: "Searching." },
      {
        type: "server_tool_use",
        id: "srvtoolu_1",
        name: "tool_search_tool_bm25",
        input: { query: "materials" },
      },
      { type: "tool_use", id: "toolu_1", name: "materials__current", input: { material_id: "M-1" } },
    ];
    const user = { role: "user" as const, content: "What is it?" };
    const expected = JSON.stringify(user).length + JSON.stringify(neutral).length;
    expect(turns.request([user, { ...neutral, raw }], [], "k").input).toBe(expected);
    expect(turns.request([user, neutral], [], "k").input).toBe(expected);
  });
});
