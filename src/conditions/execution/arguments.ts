/** Checking a call's arguments: against the endpoint's JSON Schema, then the fixture's rules. */
import { type ArgumentProblem, type ArgumentRule, argumentsProblem } from "../../authoring/index.ts";
import { instantOf, jsonEqual, normalizeQuery, sameInstant } from "../../core/index.ts";
import type { Endpoint } from "../catalog/schema.ts";

/** The replay's reading of a date-time (core/instant.ts), shared with the schema's `format: date-time`. */
export { instantOf, sameInstant };

export type SchemaProblem = ArgumentProblem;

/**
 * The first problem of a call's arguments against the endpoint's parameter schema, every
 * constraint it states (see authoring's parameter-schema.ts for the order and the wording).
 */
export function schemaProblem(endpoint: Endpoint, args: unknown): SchemaProblem | null {
  return argumentsProblem(endpoint.parameters, args);
}

/**
 * Whether every argument satisfies its rule; `state` holds the values earlier responses revealed
 * (a `state` or `contains_state` rule on a name not yet revealed never holds).
 */
export function rulesHold(
  rules: Record<string, ArgumentRule>,
  args: Record<string, unknown>,
  state: ReadonlyMap<string, unknown>,
): boolean {
  return Object.entries(rules).every(([name, rule]) => {
    if (!Object.hasOwn(args, name)) return false;
    const value = args[name];
    if ("eq" in rule) return jsonEqual(value, rule.eq);
    if ("eq_text" in rule) return typeof value === "string" && sameText(value, rule.eq_text);
    if ("one_of" in rule) return rule.one_of.some((option) => jsonEqual(value, option));
    if ("nonempty" in rule) return nonEmpty(value);
    if ("instant" in rule) return sameInstant(value, rule.instant);
    if ("terms" in rule) return typeof value === "string" && rule.terms.some((t) => hasTerm(value, t));
    if ("fits_slot" in rule) return fitsSlot(value, args[rule.fits_slot.end], rule.fits_slot, state);
    if ("state" in rule) {
      if (!state.has(rule.state)) return false;
      const revealed = state.get(rule.state);
      return rule.as === "instant" ? sameInstant(value, revealed) : jsonEqual(value, revealed);
    }
    return (
      typeof value === "string" &&
      state.has(rule.contains_state) &&
      value.includes(String(state.get(rule.contains_state)))
    );
  });
}

/**
 * Letters and digits of alphabets that separate words with spaces or punctuation. Japanese and
 * Chinese have no spaces and Korean particles attach to the noun ("LLZO를"), so a neighbour in
 * those scripts never makes a term part of a longer word.
 */
const SPACED_WORD_CHAR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}]/u;

/**
 * Whether `term` occurs in `text` after the query normaliser, not inside a longer word: the
 * characters on each side of it may not continue a word of a spaced alphabet ("Inconel 7180" does
 * not hold "Inconel 718"; "Ti-6Al-4Vの" holds "Ti-6Al-4V").
 */
export function hasTerm(text: string, term: string): boolean {
  const haystack = normalizeQuery(text);
  const needle = normalizeQuery(term);
  if (needle === "") return false;
  const joins = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && SPACED_WORD_CHAR.test(a) && SPACED_WORD_CHAR.test(b);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const startOk = !joins(haystack[at - 1], needle[0]);
    const endOk = !joins(needle[needle.length - 1], haystack[at + needle.length]);
    if (startOk && endOk) return true;
  }
  return false;
}

interface SlotRule {
  readonly slots: string;
  readonly min_minutes?: number | undefined;
  readonly max_minutes?: number | undefined;
}

/** Whether [start, end] lies inside one revealed {start, end} slot and lasts what the rule allows. */
function fitsSlot(
  start: unknown,
  end: unknown,
  rule: SlotRule,
  state: ReadonlyMap<string, unknown>,
): boolean {
  const from = instantOf(start);
  const to = instantOf(end);
  const slots = state.get(rule.slots);
  if (from === null || to === null || to <= from || !Array.isArray(slots)) return false;
  const minutes = (to - from) / 60_000;
  if (rule.min_minutes !== undefined && minutes < rule.min_minutes) return false;
  if (rule.max_minutes !== undefined && minutes > rule.max_minutes) return false;
  return slots.some((slot) => {
    if (typeof slot !== "object" || slot === null) return false;
    const s = instantOf((slot as Record<string, unknown>)["start"]);
    const e = instantOf((slot as Record<string, unknown>)["end"]);
    return s !== null && e !== null && s <= from && to <= e;
  });
}

/** Text equality after NFKC, whitespace collapsing and case folding (the corpus's query normaliser). */
export function sameText(a: string, b: string): boolean {
  return normalizeQuery(a) === normalizeQuery(b);
}

function nonEmpty(value: unknown): boolean {
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return value !== null && value !== undefined;
}
