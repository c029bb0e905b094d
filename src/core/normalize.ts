/**
 * The query normaliser of corpus identity validation, used to decide whether two queries are "the same":
 * NFKC, then runs of Python whitespace collapsed to one ASCII space and trimmed, then full
 * Unicode case folding (CaseFolding.txt statuses C and F). Beside it, the scorer's two string
 * rules, built from the same parts: text (the query rule plus folded quotes and dashes) and
 * identifiers (NFKC and trimming only).
 *
 * Why not the obvious JavaScript calls: `toLowerCase()` is not case folding (`ß` stays `ß`,
 * final `ς` stays `ς`), and `\s`/`trim()` accept U+FEFF but miss U+001C–U+001F and U+0085,
 * which Python's `str.isspace()` (the reference) treats as whitespace.
 */
import { CASE_FOLDING_ENTRIES } from "./casefold-table.ts";

/** Exactly the code points for which Python's `str.isspace()` is true. */
const PYTHON_WHITESPACE_RUN =
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/** Anything `collapsePythonWhitespace` would change: other whitespace, double or edge spaces. */
const NEEDS_COLLAPSE =
  /[\t\n\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]| {2}|^ | $/;

let folding: { map: Map<number, string>; pattern: RegExp } | undefined;

/** The table as a map, and one regular expression that finds every code point it changes. */
function caseFolding(): { map: Map<number, string>; pattern: RegExp } {
  if (folding) return folding;
  const map = new Map<number, string>();
  for (const line of CASE_FOLDING_ENTRIES) {
    for (const entry of line.split(" ")) {
      const [from = "", to = ""] = entry.split(">");
      map.set(parseInt(from, 16), String.fromCodePoint(...to.split(",").map((h) => parseInt(h, 16))));
    }
  }
  const escape = (cp: number) => `\\u{${cp.toString(16)}}`;
  const pattern = new RegExp(`[${[...map.keys()].map(escape).join("")}]`, "gu");
  folding = { map, pattern };
  return folding;
}

/** Full Unicode case folding (C + F), like Python's `str.casefold()`. */
export function caseFold(text: string): string {
  // The native regex engine finds the few characters that fold; most text has none or ASCII only.
  const { map, pattern } = caseFolding();
  return text.replace(pattern, (ch) => map.get(ch.codePointAt(0) ?? 0) ?? ch);
}

/** Collapses runs of Python whitespace to one ASCII space and trims them from both ends. */
export function collapsePythonWhitespace(text: string): string {
  if (!NEEDS_COLLAPSE.test(text)) return text; // the common case: single spaces between words
  const collapsed = text.replace(PYTHON_WHITESPACE_RUN, " ");
  const start = collapsed.startsWith(" ") ? 1 : 0;
  const end = collapsed.endsWith(" ") && collapsed.length > start ? collapsed.length - 1 : collapsed.length;
  return collapsed.slice(start, end);
}

/** NFKC → whitespace collapse and trim → case fold. */
export function normalizeQuery(text: string): string {
  return caseFold(collapsePythonWhitespace(text.normalize("NFKC")));
}

/**
 * Quotation marks and dashes that mean the same in an answer as their ASCII forms: curly, low-9,
 * reversed and angle quotes, the modifier apostrophe, and the hyphen, figure, en, em and bar dashes
 * and the minus sign. Applied after NFKC, which already maps full-width forms and U+2011.
 */
const QUOTE_DASH: Readonly<Record<string, string>> = {
  "\u2018": "'", // ‘
  "\u2019": "'", // ’
  "\u201a": "'", // ‚
  "\u201b": "'", // ‛
  "\u2039": "'", // ‹
  "\u203a": "'", // ›
  "\u02bc": "'", // ʼ
  "\u201c": '"', // “
  "\u201d": '"', // ”
  "\u201e": '"', // „
  "\u201f": '"', // ‟
  "\u00ab": '"', // «
  "\u00bb": '"', // »
  "\u2010": "-", // hyphen
  "\u2012": "-", // figure dash
  "\u2013": "-", // en dash
  "\u2014": "-", // em dash
  "\u2015": "-", // horizontal bar
  "\u2212": "-", // minus sign
};
const QUOTE_DASH_PATTERN = new RegExp(`[${Object.keys(QUOTE_DASH).join("")}]`, "g");

/** Curly and angle quotes as straight ones, dashes and the minus sign as hyphen-minus. */
export function foldQuotesAndDashes(text: string): string {
  return text.replace(QUOTE_DASH_PATTERN, (ch) => QUOTE_DASH[ch] ?? ch);
}

/** Python whitespace at either end of a string. */
const PYTHON_EDGE =
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Trims Python whitespace from both ends, leaving the inside as it is. */
export function trimPythonWhitespace(text: string): string {
  return text.replace(PYTHON_EDGE, "");
}

/**
 * How a text answer is compared: NFKC → quotes and dashes folded → whitespace collapsed and
 * trimmed → case folded. "Cold room B–110" and " cold  room b-110" are the same text.
 */
export function normalizeText(text: string): string {
  return caseFold(collapsePythonWhitespace(foldQuotesAndDashes(text.normalize("NFKC"))));
}

/** How an identifier is compared: NFKC and trimmed, nothing else (case and dashes count). */
export function normalizeIdentifier(text: string): string {
  return trimPythonWhitespace(text.normalize("NFKC"));
}
