/**
 * The parsed Python pattern as a JavaScript RegExp (flag `v` only: code points, as Python's `str`
 * patterns, plus nested sets for `[\W]` and `[\S]`) with the same match / no-match on every text.
 * How each difference is closed:
 * - `.` excludes only `\n` in Python (JS also excludes `\r`, U+2028, U+2029): written `[^\n]`,
 *   and `[\s\S]` under `(?s)`.
 * - `$` also matches before a final `\n` in Python: `(?=\n?$)`; under `(?m)` `^`/`$` break at `\n`
 *   only (not at JS's other line terminators): `(?<![^\n])`, `(?![^\n])`. `\A` = `^`, `\Z` = `$`.
 * - `\d \w \s \b` are Unicode in Python `str` patterns (ASCII in JS): `\p{Nd}`, `[\p{L}\p{N}_]`
 *   (str.isalnum() or `_`), Python's str.isspace() set, and the boundaries written with lookarounds.
 * - `(?i)` is not JS's `i` (simple case folding): each ASCII letter becomes the set Python's
 *   IGNORECASE matches (both cases, plus İ ı for i, ſ for s, K for k — checked against CPython 3.11);
 *   a cased non-ASCII letter, a non-ASCII range and a back-reference under `(?i)` are refused.
 * - A back-reference to a group that did not take part fails in Python but matches empty in JS: a
 *   reference is accepted only to a group that always took part (no alternation, repeat or
 *   lookaround on its way to the top).
 * - Every other literal is written as `\u{…}`, so no character is special by accident.
 * The remaining difference is the Unicode version of each side's character data.
 */
import type { ClassItem, Flags, Node, ParsedPattern, Shorthand } from "./regex-ast.ts";
import { PatternRefusal } from "./regex-ast.ts";

const WORD = "\\p{L}\\p{N}_";
/** Exactly the code points for which Python's `str.isspace()` is true (as core/normalize.ts). */
const SPACE =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const refuse = (message: string): never => {
  throw new PatternRefusal(message);
};

/** Non-ASCII characters Python's IGNORECASE matches to an ASCII letter (lower() or its equivalence table). */
const IGNORECASE_EXTRA: Readonly<Record<string, readonly number[]>> = {
  i: [0x130, 0x131],
  s: [0x17f],
  k: [0x212a],
};

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
const literal = (cp: number) =>
  /^[A-Za-z0-9]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp);

function isCased(cp: number): boolean {
  const c = String.fromCodePoint(cp);
  return c.toLowerCase() !== c || c.toUpperCase() !== c || /[\p{Lu}\p{Ll}\p{Lt}]/u.test(c);
}

/** The ranges a (lo, hi) range matches under IGNORECASE: itself, its ASCII letters' other case, the extras. */
function caseRanges(lo: number, hi: number): Array<[number, number]> {
  if (hi > 0x7f) {
    if (lo === hi && !isCased(lo)) return [[lo, hi]];
    refuse("a cased non-ASCII character or a non-ASCII range under (?i) is not supported");
  }
  const out: Array<[number, number]> = [[lo, hi]];
  const span = (a: number, b: number, shift: number) => {
    const from = Math.max(lo, a);
    const to = Math.min(hi, b);
    if (from <= to) out.push([from + shift, to + shift]);
  };
  span(0x41, 0x5a, 0x20);
  span(0x61, 0x7a, -0x20);
  for (const [letter, extra] of Object.entries(IGNORECASE_EXTRA)) {
    const l = letter.charCodeAt(0);
    if ((lo <= l && l <= hi) || (lo <= l - 0x20 && l - 0x20 <= hi)) for (const e of extra) out.push([e, e]);
  }
  return out;
}

function shorthandInClass(e: Shorthand): string {
  if (e === "d") return "\\p{Nd}";
  if (e === "D") return "\\P{Nd}";
  if (e === "w") return WORD;
  if (e === "s") return SPACE;
  // A nested negated class: the `v` flag's set notation (the only way to say "not a word character" inside a set).
  return e === "W" ? `[^${WORD}]` : `[^${SPACE}]`;
}

function shorthand(e: Shorthand): string {
  if (e === "d" || e === "D") return shorthandInClass(e);
  if (e === "w" || e === "W") return `[${e === "W" ? "^" : ""}${WORD}]`;
  return `[${e === "S" ? "^" : ""}${SPACE}]`;
}

function classItem(item: ClassItem, flags: Flags): string {
  if (item.t === "shorthand") return shorthandInClass(item.e);
  const ranges = flags.i ? caseRanges(item.lo, item.hi) : [[item.lo, item.hi] as [number, number]];
  return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join("");
}

function anchor(a: string, flags: Flags): string {
  if (a === "A") return "^";
  if (a === "Z") return "$";
  if (a === "bol") return flags.m ? "(?<![^\\n])" : "^";
  if (a === "eol") return flags.m ? "(?![^\\n])" : "(?=\\n?$)";
  const w = `[${WORD}]`;
  return a === "b" ? `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))` : `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
}

function quantifier(n: Extract<Node, { t: "repeat" }>): string {
  const max = n.max === Number.POSITIVE_INFINITY ? "" : String(n.max);
  const q = n.min === n.max ? `{${n.min}}` : `{${n.min},${max}}`;
  return q + (n.lazy ? "?" : "");
}

/** The JavaScript source of a node (use with the `v` flag only: `u` semantics plus nested sets). */
export function toJs(n: Node, flags: Flags): string {
  switch (n.t) {
    case "char":
      if (flags.i && (n.cp > 0x7f ? isCased(n.cp) : /[A-Za-z]/.test(String.fromCodePoint(n.cp))))
        return `[${classItem({ t: "range", lo: n.cp, hi: n.cp }, flags)}]`;
      return literal(n.cp);
    case "any":
      return flags.s ? "[\\s\\S]" : "[^\\n]";
    case "class":
      return `[${n.negated ? "^" : ""}${n.items.map((i) => classItem(i, flags)).join("")}]`;
    case "shorthand":
      return shorthand(n.e);
    case "anchor":
      return anchor(n.a, flags);
    case "group":
      return `(${n.index === null ? "?:" : n.name === null ? "" : `?<${n.name}>`}${toJs(n.body, flags)})`;
    case "look":
      return `(?${n.behind ? "<" : ""}${n.negated ? "!" : "="}${toJs(n.body, flags)})`;
    case "backref":
      if (flags.i) refuse("a group reference under (?i) is not supported");
      return `(?:\\${n.index})`;
    case "repeat":
      return `(?:${toJs(n.body, flags)})${quantifier(n)}`;
    case "seq":
      return n.items.map((i) => toJs(i, flags)).join("");
    case "alt":
      return n.branches.map((b) => toJs(b, flags)).join("|");
  }
}

/** The translated pattern as a RegExp, or a refusal. */
export function toRegExp(parsed: ParsedPattern): RegExp {
  const source = toJs(parsed.root, parsed.flags);
  try {
    return new RegExp(source, "v");
  } catch (e) {
    return refuse(`not translatable: ${(e as Error).message}`);
  }
}
