/**
 * The query a careful agent would send for a task's request (the user message's request part,
 * never the answer form), used by the reference agent and the search profile alike.
 * - BM25: the request text itself.
 * - Regex: `(?i)` and an alternation of the request's distinctive words — words of three or more
 *   letters or digits, not all digits, not a stop word, not in a spaceless script (a Japanese or
 *   Chinese sentence is one run with no word to cut), with no cased non-ASCII letter (`(?i)` is
 *   translated exactly for ASCII letters only: `Prüfbericht` is left out) — each once (case-folded), longest first,
 *   then in code-point order, as many as fit in 200 characters. `(?i)` because the request's
 *   capitalisation says nothing about the catalog's.
 */
import type { Task } from "../../authoring/index.ts";
import { caseFold, compareCodePoints } from "../../core/index.ts";
import { MAX_PATTERN_LENGTH } from "./regex.ts";
import { hasSpacelessScript } from "./tokenize.ts";
import type { SearchEngine } from "./types.ts";

/** Function words of the corpus languages that say nothing about a tool (three letters or more). */
const STOP_WORDS = new Set(
  (
    "the and for are was were with from that this what which when where who whom how can could would should will " +
    "you your our ours their them they have has had not but all any its also into onto than then there these those " +
    "please give tell need want know let me about just one does did get got been being "
  )
    .concat(
      "der die das und den dem des ein eine einer eines einem einen ist sind für mit von bitte auch wie was wer noch nicht oder aus bei zum zur ",
    )
    .concat("los las del por para con una uno que como cuál cuáles qué sus esta este esto favor también ")
    .trim()
    .split(/\s+/),
);

const WORDS = /[\p{L}\p{M}\p{N}]+/gu;
/** A cased letter outside ASCII: `(?i)` is proven only for ASCII letters (regex-js.ts), so such words are left out. */
const CASED_NON_ASCII = /(?![\x00-\x7f])[\p{Lu}\p{Ll}\p{Lt}]/u;

/** Escapes a word for a Python pattern (letters and digits need none; anything else is escaped). */
export function escapePython(text: string): string {
  return text.replace(/[^\p{L}\p{M}\p{N}_]/gu, (c) => `\\${c}`);
}

/** The distinctive words of a request, longest first (see the file comment). */
export function distinctiveWords(request: string): string[] {
  const seen = new Map<string, string>();
  for (const [word] of request.normalize("NFKC").matchAll(WORDS)) {
    const folded = caseFold(word);
    if (
      [...word].length < 3 ||
      /^\p{N}+$/u.test(word) ||
      hasSpacelessScript(word) ||
      CASED_NON_ASCII.test(word)
    )
      continue;
    if (STOP_WORDS.has(folded) || seen.has(folded)) continue;
    seen.set(folded, word);
  }
  return [...seen.values()].sort((a, b) => [...b].length - [...a].length || compareCodePoints(a, b));
}

/** The regex query: `(?i)` and as many distinctive words as fit in 200 characters. */
export function regexQuery(request: string): string {
  let pattern = "(?i)";
  let count = 0;
  for (const word of distinctiveWords(request)) {
    const next = `${pattern}${count === 0 ? "" : "|"}${escapePython(word)}`;
    if ([...next].length > MAX_PATTERN_LENGTH) continue;
    pattern = next;
    count++;
  }
  return count === 0 ? "" : pattern;
}

export function queryFromRequest(task: Pick<Task, "query">, engine: SearchEngine): string {
  const request = task.query.trim();
  return engine === "bm25" ? request : regexQuery(request);
}
