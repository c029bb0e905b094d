/**
 * Parsing an agent's final text into an envelope — never repairing it. The trimmed text is parsed
 * as JSON; if that fails, the span from the first `{` to the last `}`. Anything that is not then
 * exactly an envelope is malformed, with one reason code.
 */
import type { Envelope, EnvelopeFact } from "./schema.ts";

export const MALFORMED_REASONS = [
  "empty",
  "not_json",
  "not_object",
  "wrong_keys",
  "wrong_type",
  "bad_fact",
] as const;
export type MalformedReason = (typeof MALFORMED_REASONS)[number];

export type EnvelopeResult =
  | { readonly ok: true; readonly envelope: Envelope }
  | { readonly ok: false; readonly reason: MalformedReason; readonly detail: string };

const ROOT_KEYS = ["answer", "facts", "sources"];
const FACT_KEYS = ["key", "source_id", "unit", "value"];

export function parseEnvelope(text: string): EnvelopeResult {
  const trimmed = text.trim();
  if (trimmed === "") return malformed("empty", "the final text is empty");
  const value = parseWholeOrSpan(trimmed);
  if (value === NOT_JSON) return malformed("not_json", "neither the text nor its {…} span is JSON");
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return malformed(
      "not_object",
      `the JSON is ${value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`}, not an object`,
    );
  const root = value as Record<string, unknown>;
  if (!sameKeys(root, ROOT_KEYS))
    return malformed(
      "wrong_keys",
      `the keys are [${Object.keys(root).join(", ")}]; expected exactly answer, facts, sources`,
    );
  if (typeof root["answer"] !== "string") return malformed("wrong_type", "answer must be a string");
  if (!Array.isArray(root["facts"])) return malformed("wrong_type", "facts must be a list");
  const sources = root["sources"];
  if (!Array.isArray(sources) || !sources.every((s) => typeof s === "string"))
    return malformed("wrong_type", "sources must be a list of strings");
  const facts = root["facts"] as unknown[];
  for (const [index, fact] of facts.entries()) {
    const problem = factProblem(fact);
    if (problem !== null) return malformed("bad_fact", `facts[${index}]: ${problem}`);
  }
  return {
    ok: true,
    envelope: { answer: root["answer"], facts: facts as EnvelopeFact[], sources: sources as string[] },
  };
}

const NOT_JSON = Symbol("not_json");

function parseWholeOrSpan(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}");
    if (start === -1 || end <= start) return NOT_JSON;
    try {
      return JSON.parse(text.slice(start, end + 1)) as unknown;
    } catch {
      return NOT_JSON;
    }
  }
}

function factProblem(fact: unknown): string | null {
  if (typeof fact !== "object" || fact === null || Array.isArray(fact)) return "a fact must be an object";
  const record = fact as Record<string, unknown>;
  if (!sameKeys(record, FACT_KEYS))
    return `the keys are [${Object.keys(record).join(", ")}]; expected exactly key, value, unit, source_id`;
  if (typeof record["key"] !== "string" || record["key"] === "") return "key must be a non-empty string";
  if (record["unit"] !== null && typeof record["unit"] !== "string") return "unit must be a string or null";
  if (typeof record["source_id"] !== "string" || record["source_id"] === "")
    return "source_id must be a non-empty string";
  return null;
}

function sameKeys(record: Record<string, unknown>, expected: readonly string[]): boolean {
  const keys = Object.keys(record);
  return keys.length === expected.length && expected.every((k) => Object.hasOwn(record, k));
}

function malformed(reason: MalformedReason, detail: string): EnvelopeResult {
  return { ok: false, reason, detail };
}
