import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { formatJsonFile } from "../../src/core/index.ts";
import {
  envelopeJsonSchema,
  envelopeSchema,
  MALFORMED_REASONS,
  parseEnvelope,
} from "../../src/envelope/index.ts";

const good = {
  answer: "144 GPa",
  facts: [{ key: "youngs_modulus", value: 144, unit: "GPa", source_id: "SRC-A" }],
  sources: ["SRC-A"],
};

function reason(text: string): string | null {
  const result = parseEnvelope(text);
  return result.ok ? null : result.reason;
}

describe("parseEnvelope", () => {
  it("accepts an exact envelope, with surrounding whitespace", () => {
    const result = parseEnvelope(`\n  ${JSON.stringify(good)}  \n`);
    expect(result).toEqual({ ok: true, envelope: good });
  });

  it("falls back to the span from the first { to the last }", () => {
    const text = `Here is my answer:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\`\nThanks!`;
    expect(parseEnvelope(text).ok).toBe(true);
  });

  it("never repairs: a span that is not JSON stays not_json", () => {
    expect(reason(`{"answer": "x", "facts": [], "sources": [],}`)).toBe("not_json");
    expect(reason("{'answer': 'single quotes'}")).toBe("not_json");
  });

  it.each([
    ["empty", "  \n\t "],
    ["not_json", "The modulus is 144 GPa."],
    ["not_json", '{"answer": NaN, "facts": [], "sources": []}'],
    [
      "not_json",
      '{"answer": "x", "facts": [{"key":"k","value":Infinity,"unit":null,"source_id":"s"}], "sources": []}',
    ],
    ["not_object", "[1, 2, 3]"],
    ["not_object", '"just a string"'],
    ["not_object", "null"],
    ["wrong_keys", JSON.stringify({ answer: "x", facts: [] })],
    ["wrong_keys", JSON.stringify({ ...good, confidence: 0.9 })],
    ["wrong_type", JSON.stringify({ ...good, answer: 42 })],
    ["wrong_type", JSON.stringify({ ...good, facts: {} })],
    ["wrong_type", JSON.stringify({ ...good, sources: ["SRC-A", 7] })],
    ["bad_fact", JSON.stringify({ ...good, facts: ["youngs_modulus=144"] })],
    ["bad_fact", JSON.stringify({ ...good, facts: [{ key: "k", value: 1, unit: null }] })],
    [
      "bad_fact",
      JSON.stringify({ ...good, facts: [{ key: "k", value: 1, unit: null, source_id: "s", note: "extra" }] }),
    ],
    ["bad_fact", JSON.stringify({ ...good, facts: [{ key: "", value: 1, unit: null, source_id: "s" }] })],
    ["bad_fact", JSON.stringify({ ...good, facts: [{ key: "k", value: 1, unit: 5, source_id: "s" }] })],
    ["bad_fact", JSON.stringify({ ...good, facts: [{ key: "k", value: 1, unit: null, source_id: "" }] })],
  ])("gives %s for %j", (expected, text) => {
    expect(reason(text)).toBe(expected);
  });

  it("covers every malformed reason above", () => {
    expect([...MALFORMED_REASONS]).toEqual([
      "empty",
      "not_json",
      "not_object",
      "wrong_keys",
      "wrong_type",
      "bad_fact",
    ]);
  });

  it("accepts any JSON value as a fact's value, and unicode anywhere", () => {
    const envelope = {
      answer: "영률은 144 GPa입니다 — ヤング率",
      facts: [{ key: "메모", value: { nested: [1, "ß", null] }, unit: null, source_id: "출처-A" }],
      sources: [],
    };
    expect(parseEnvelope(JSON.stringify(envelope))).toEqual({ ok: true, envelope });
  });
});

describe("schemas/envelope.schema.json", () => {
  it("is generated from the zod schema and agrees with it", () => {
    expect(readFileSync("schemas/envelope.schema.json", "utf8")).toBe(formatJsonFile(envelopeJsonSchema()));
    const validate = new Ajv2020.default({ strict: false }).compile(envelopeJsonSchema());
    for (const value of [
      good,
      { ...good, extra: 1 },
      { ...good, facts: [{ key: "", value: 1, unit: null, source_id: "s" }] },
    ])
      expect(validate(value)).toBe(envelopeSchema.safeParse(value).success);
  });
});
