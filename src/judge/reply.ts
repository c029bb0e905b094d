/**
 * Reading the judge's reply: exactly one JSON object with one integer per protocol dimension, on
 * its scale, and a rationale no longer than the protocol allows — nothing else. A reply that is not
 * exactly that is never repaired or guessed at (no code-fence stripping, no `{…}` span, no "4" read
 * as 4): it is `malformed` with one reason code, and its raw text is kept for review.
 */
import { parseBoundedJson } from "../core/index.ts";
import type { JudgeProtocol } from "./prompt.ts";

/** Why a reply is malformed; the first that applies, in this order. */
export const REPLY_REASONS = [
  "reply_not_json",
  "reply_not_object",
  "unexpected_field",
  "rating_missing",
  "rating_not_integer",
  "rating_out_of_range",
  "rationale_missing",
  "rationale_too_long",
] as const;
export type ReplyReason = (typeof REPLY_REASONS)[number];

/**
 * The most of a malformed reply's text kept (in characters): enough to see what went wrong; a
 * longer reply is cut and says how long it was, so a runaway reply cannot bloat the file.
 */
export const RAW_REPLY_MAX_CHARS = 2000;

export type ReplyResult =
  | {
      readonly ok: true;
      readonly ratings: Record<string, number>;
      readonly rationale: string;
    }
  | { readonly ok: false; readonly reason: ReplyReason; readonly rawReply: string };

/** Characters as JSON Schema's maxLength counts them: code points. */
const length = (text: string) => [...text].length;

/** The raw reply as kept: whole up to RAW_REPLY_MAX_CHARS code points, else cut and marked. */
export function keptReply(text: string): string {
  const chars = [...text];
  if (chars.length <= RAW_REPLY_MAX_CHARS) return text;
  return `${chars.slice(0, RAW_REPLY_MAX_CHARS).join("")}… [cut: the reply had ${chars.length} characters]`;
}

export function parseJudgeReply(text: string, judge: JudgeProtocol): ReplyResult {
  const bad = (reason: ReplyReason): ReplyResult => ({ ok: false, reason, rawReply: keptReply(text) });
  // Nested too deep, a reply is not the flat object asked for: refused before it is parsed.
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return bad(parsed.reason === "too_deep" ? "reply_not_object" : "reply_not_json");
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return bad("reply_not_object");
  const reply = value as Record<string, unknown>;
  const known = new Set([...judge.dimensions.map((d) => d.id), "rationale"]);
  if (Object.keys(reply).some((k) => !known.has(k))) return bad("unexpected_field");
  const ratings: Record<string, number> = {};
  for (const dimension of judge.dimensions) {
    const rating = reply[dimension.id];
    if (rating === undefined) return bad("rating_missing");
    if (typeof rating !== "number" || !Number.isInteger(rating)) return bad("rating_not_integer");
    if (rating < dimension.min || rating > dimension.max) return bad("rating_out_of_range");
    ratings[dimension.id] = rating;
  }
  const rationale = reply["rationale"];
  if (typeof rationale !== "string") return bad("rationale_missing");
  if (length(rationale) > judge.rationale_max_chars) return bad("rationale_too_long");
  return { ok: true, ratings, rationale };
}
