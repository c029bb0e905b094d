/**
 * The query normaliser of DESIGN §6, used to decide whether two queries are "the same":
 * NFKC, then runs of Python whitespace collapsed to one ASCII space and trimmed, then full
 * Unicode case folding (CaseFolding.txt statuses C and F).
 *
 * Why not the obvious JavaScript calls: `toLowerCase()` is not case folding (`ß` stays `ß`,
 * final `ς` stays `ς`), and `\s`/`trim()` accept U+FEFF but miss U+001C–U+001F and U+0085,
 * which Python's `str.isspace()` (the reference) treats as whitespace.
 */
import { CASE_FOLDING_ENTRIES } from "./casefold-table.ts";

/** Exactly the code points for which Python's `str.isspace()` is true. */
const PYTHON_WHITESPACE_RUN =
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

const ASCII_ONLY = /^[\x00-\x7f]*$/;

let foldTable: Map<number, string> | undefined;

function table(): Map<number, string> {
  if (foldTable) return foldTable;
  const map = new Map<number, string>();
  for (const line of CASE_FOLDING_ENTRIES) {
    for (const entry of line.split(" ")) {
      const [from = "", to = ""] = entry.split(">");
      map.set(parseInt(from, 16), String.fromCodePoint(...to.split(",").map((h) => parseInt(h, 16))));
    }
  }
  foldTable = map;
  return map;
}

/** Full Unicode case folding (C + F), like Python's `str.casefold()`. */
export function caseFold(text: string): string {
  // In ASCII, folding is exactly A-Z → a-z, which toLowerCase does fast.
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  const map = table();
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    out += map.get(cp) ?? ch;
  }
  return out;
}

/** Collapses runs of Python whitespace to one ASCII space and trims them from both ends. */
export function collapsePythonWhitespace(text: string): string {
  const collapsed = text.replace(PYTHON_WHITESPACE_RUN, " ");
  const start = collapsed.startsWith(" ") ? 1 : 0;
  const end = collapsed.endsWith(" ") && collapsed.length > start ? collapsed.length - 1 : collapsed.length;
  return collapsed.slice(start, end);
}

/** NFKC → whitespace collapse and trim → case fold (DESIGN §6). */
export function normalizeQuery(text: string): string {
  return caseFold(collapsePythonWhitespace(text.normalize("NFKC")));
}
