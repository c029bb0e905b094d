/**
 * The BM25 tokeniser: NFKC and full case folding (the project's normaliser), then words = maximal
 * runs of letters, marks and digits (everything else separates: `materials__search` gives
 * `materials`, `search`). Scripts written without spaces — Han, Hiragana, Katakana — are cut out of
 * those runs and given as overlapping character bigrams (a run of one character as itself), the
 * usual CJK indexing unit: without it a Japanese request would be one "word" per sentence and could
 * match nothing. Hangul is written with spaces, so Korean words stay words. No stop words and no
 * stemming: the IDF does the weighting, as in a plain BM25.
 *
 * Identifiers are indexed whole as well as by their parts, as code and tool search engines do: a
 * run of words joined by `_`, `.` or `-` (`exports__export`, `materials.current`, `MAT-1418-PU`)
 * gives itself (folded) first, then its parts. The same rule cuts documents (every field, the
 * function name above all) and queries, so a query holding a tool's exact function name shares a
 * rare term with that one tool and ranks it above look-alikes that share only the parts
 * (`exports__export` over `exports_v1__export`, which a search by the name's words alone ranks
 * first). An identifier holding a spaceless-script letter gives only its parts (bigrams).
 */
import { normalizeQuery } from "../../core/index.ts";

/** A spaceless-script letter: Han (with 々), Hiragana, Katakana (with ー). */
const SPACELESS = /(?=[\p{L}\p{M}\p{N}])[\p{scx=Han}\p{scx=Hira}\p{scx=Kana}]/u;
/** Spaceless runs, or runs of any other letters, marks and digits. */
const PIECES =
  /(?:(?=[\p{L}\p{M}\p{N}])[\p{scx=Han}\p{scx=Hira}\p{scx=Kana}])+|(?:(?![\p{scx=Han}\p{scx=Hira}\p{scx=Kana}])[\p{L}\p{M}\p{N}])+/gu;

/** Runs of letters, marks and digits, possibly joined into an identifier by `_`, `.` or `-`. */
const CHUNKS = /[\p{L}\p{M}\p{N}]+(?:[_.\-]+[\p{L}\p{M}\p{N}]+)*/gu;
/** A joiner inside a chunk: the chunk is an identifier. */
const JOINER = /[_.\-]/;

/** Overlapping bigrams of a spaceless run (by code point); one character gives itself. */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
}

/** The terms of a text, in order (an identifier before its parts), repeats kept (term frequency counts them). */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [chunk] of normalizeQuery(text).matchAll(CHUNKS)) {
    if (JOINER.test(chunk) && !SPACELESS.test(chunk)) terms.push(chunk);
    for (const [piece] of chunk.matchAll(PIECES))
      if (SPACELESS.test(piece)) terms.push(...bigrams(piece));
      else terms.push(piece);
  }
  return terms;
}

/** True when a piece of text holds a spaceless-script letter (used by the regex query builder). */
export function hasSpacelessScript(text: string): boolean {
  return SPACELESS.test(text);
}
