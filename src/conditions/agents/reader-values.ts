/**
 * The values the careful reader would try for a tool's non-id parameter, best first — from the
 * request and the replies alone: an enum value the request names (else every value, the default
 * first), search queries (the request's identifiers, its runs of names and codes, then its
 * distinctive words), a date from a reply object that has the parameter, a token or phrase of the
 * request shaped like the description's example (`e.g. 'ASTM B348/B348M-21'`, `'Grade 5'`), a
 * string a reply holds under the parameter's own name.
 */
import type { ReaderView } from "./reader-view.ts";
import { idsOf, shapeOf, wordsOf } from "./reader-view.ts";

export interface ParamSchema {
  readonly type?: string;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly format?: string;
}

export const QUERY = /^(query|q|search|text|keywords?|terms?|text_query)$/;

/** The request's distinctive words, in order and as written: not stop words, not words of any tool text. */
export function distinctiveQuery(view: ReaderView): string {
  const vocabulary = new Set(view.tools.flatMap((t) => wordsOf(`${t.name} ${t.description}`)));
  const kept = view.request
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => {
      const words = wordsOf(w);
      return words.length > 0 && words.some((x) => !vocabulary.has(x));
    });
  return kept.slice(0, 12).join(" ");
}

/** A name token: Latin letters or digits with a capital or a digit in it (Inconel, 718, CF20, PLLA/PCL). */
const NAME = /^[\p{Script=Latin}0-9][\p{Script=Latin}0-9/.+-]*$/u;
const isName = (t: string) => NAME.test(t) && /[\p{Lu}0-9]/u.test(t) && !/^\d{1,2}$|^\d{4}$/.test(t);

/** Runs of consecutive name tokens in the request ("Inconel 718", "Corvamid 6 CF20 BK"), longest first. */
export function nameRuns(request: string): string[] {
  const raw = request.split(/[\s()[\]{},;:!?¿¡"“”「」『』（）、。]+/);
  const runs: string[][] = [];
  let run: string[] = [];
  raw.forEach((word, i) => {
    // A particle written onto a name (C-1232에, PEIの) is not part of it.
    const t = word.replace(/[^\p{Script=Latin}\p{N}/.+%-].*$/u, "").replace(/[.%-]+$/, "");
    // A sentence's first word is capitalised by grammar, not because it names something.
    const opens = i === 0 || /[.?!]$/.test(raw[i - 1] ?? "");
    if (isName(t) && !(opens && /^\p{Lu}\p{Ll}+$/u.test(t))) run.push(t);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (t !== word && run.length > 0) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length > 0) runs.push(run);
  const out = runs.map((r) => r.join(" ")).filter((r) => /\p{L}/u.test(r) && r.length >= 3);
  return [...new Set(out)].sort((a, b) => b.split(" ").length - a.split(" ").length);
}

/** The queries a search is tried with: the request's ids, its name runs, else its distinctive words. */
export function queriesFor(view: ReaderView): string[] {
  const named = [...idsOf(view.request), ...nameRuns(view.request)];
  const out = named.length > 0 ? named : [distinctiveQuery(view)];
  return [...new Set(out.filter((q) => q.trim().length > 0))];
}

/** Request phrases shaped like the description's quoted or `e.g.` examples, token by token. */
export function shapedPhrases(description: string, request: string): string[] {
  const quoted = [...description.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? "");
  const eg = /e\.g\.\s*([^,;()]+)/.exec(description)?.[1]?.trim();
  const examples = [...quoted, ...(quoted.length === 0 && eg !== undefined ? [eg] : [])].filter((e) =>
    /\d/.test(e),
  );
  const tokens = request.split(/\s+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}%]+$/gu, ""));
  const out: string[] = [];
  for (const example of examples) {
    const shapes = example.split(/\s+/).map(shapeOf);
    const first = example.split(/\s+/)[0] ?? "";
    for (let i = 0; i + shapes.length <= tokens.length; i += 1) {
      const window = tokens.slice(i, i + shapes.length).map((t) => t.replace(/[^\x00-\x7F].*$/u, ""));
      // A request token may carry a trailing edition letter the example lacks (A564M-19a for B348M-21).
      const fits = window.every((t, k) => t !== "" && shapeOf(t).startsWith(shapes[k] ?? "\u0000"));
      const named = shapes.length === 1 || window[0] === first || /^[A-Z]/.test(window[0] ?? "");
      if (fits && named && /\d/.test(window.join(""))) out.push(window.join(" "));
    }
  }
  return [...new Set(out)];
}

/** The first string under key `name` in any object of the replies (newest reply first). */
export function replyValue(view: ReaderView, name: string): string | undefined {
  let found: string | undefined;
  const visit = (node: unknown): void => {
    if (found !== undefined || typeof node !== "object" || node === null) return;
    const value = Array.isArray(node) ? undefined : (node as Record<string, unknown>)[name];
    if (typeof value === "string") {
      found = value;
      return;
    }
    for (const child of Object.values(node)) visit(child);
  };
  for (const reply of [...view.replies].reverse()) visit(reply);
  return found;
}

/** The values to try for a non-id parameter, best first; empty when the reader has none it trusts. */
export function valuesFor(
  name: string,
  schema: ParamSchema,
  required: boolean,
  view: ReaderView,
  requestWords: readonly string[],
  formKeys: readonly string[] = [],
): unknown[] {
  if (schema.enum !== undefined) {
    const named = schema.enum.filter((v) => typeof v === "string" && requestWords.includes(v.toLowerCase()));
    if (named.length > 0) return named;
    if (!required) return [];
    const first = schema.default ?? schema.enum[0];
    return [first, ...schema.enum.filter((v) => v !== first)];
  }
  if (QUERY.test(name)) return queriesFor(view);
  if (schema.format === "date-time" || schema.format === "date") {
    const from = replyValue(view, name);
    if (from !== undefined) return [from];
    const stamps = view.request.match(/\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?/g) ?? [];
    return required ? stamps.slice(0, 1) : [];
  }
  if (schema.type === "string") {
    const shaped = shapedPhrases(schema.description ?? "", view.request);
    const own = replyValue(view, name);
    // A snake_case example (youngs_modulus) takes a key like the form's own (yield_strength).
    const keys = /\b[a-z]+_[a-z0-9_]+\b/.test(schema.description ?? "") ? formKeys : [];
    const found = [...shaped, ...(own !== undefined && own.length <= 60 ? [own] : []), ...keys];
    // An optional filter only with an identifier-like token: a guessed filter empties the reply.
    if (!required) return found.filter((v) => idsOf(v).includes(v));
    if (found.length > 0) return [...new Set(found)];
  }
  if (!required) return [];
  if (schema.type === "integer" || schema.type === "number") return [schema.default ?? schema.minimum ?? 1];
  if (schema.type === "boolean") return [schema.default ?? false];
  return [distinctiveQuery(view)];
}
