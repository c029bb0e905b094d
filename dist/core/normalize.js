/**
 * The query normaliser of corpus identity validation, used to decide whether two queries are "the same":
 * NFKC, then runs of Python whitespace collapsed to one ASCII space and trimmed, then full
 * Unicode case folding (CaseFolding.txt statuses C and F).
 *
 * Why not the obvious JavaScript calls: `toLowerCase()` is not case folding (`ß` stays `ß`,
 * final `ς` stays `ς`), and `\s`/`trim()` accept U+FEFF but miss U+001C–U+001F and U+0085,
 * which Python's `str.isspace()` (the reference) treats as whitespace.
 */
import { CASE_FOLDING_ENTRIES } from "./casefold-table.js";
/** Exactly the code points for which Python's `str.isspace()` is true. */
const PYTHON_WHITESPACE_RUN = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
/** Anything `collapsePythonWhitespace` would change: other whitespace, double or edge spaces. */
const NEEDS_COLLAPSE = /[\t\n\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]| {2}|^ | $/;
let folding;
/** The table as a map, and one regular expression that finds every code point it changes. */
function caseFolding() {
    if (folding)
        return folding;
    const map = new Map();
    for (const line of CASE_FOLDING_ENTRIES) {
        for (const entry of line.split(" ")) {
            const [from = "", to = ""] = entry.split(">");
            map.set(parseInt(from, 16), String.fromCodePoint(...to.split(",").map((h) => parseInt(h, 16))));
        }
    }
    const escape = (cp) => `\\u{${cp.toString(16)}}`;
    const pattern = new RegExp(`[${[...map.keys()].map(escape).join("")}]`, "gu");
    folding = { map, pattern };
    return folding;
}
/** Full Unicode case folding (C + F), like Python's `str.casefold()`. */
export function caseFold(text) {
    // The native regex engine finds the few characters that fold; most text has none or ASCII only.
    const { map, pattern } = caseFolding();
    return text.replace(pattern, (ch) => map.get(ch.codePointAt(0) ?? 0) ?? ch);
}
/** Collapses runs of Python whitespace to one ASCII space and trims them from both ends. */
export function collapsePythonWhitespace(text) {
    if (!NEEDS_COLLAPSE.test(text))
        return text; // the common case: single spaces between words
    const collapsed = text.replace(PYTHON_WHITESPACE_RUN, " ");
    const start = collapsed.startsWith(" ") ? 1 : 0;
    const end = collapsed.endsWith(" ") && collapsed.length > start ? collapsed.length - 1 : collapsed.length;
    return collapsed.slice(start, end);
}
/** NFKC → whitespace collapse and trim → case fold. */
export function normalizeQuery(text) {
    return caseFold(collapsePythonWhitespace(text.normalize("NFKC")));
}
