/**
 * The careful reader's next call, chosen from what it was shown alone: tools ranked by the words
 * they share with the request; arguments filled from identifiers the request and the replies hold
 * (an id goes to a parameter whose description's example has the same prefix), a search with the
 * request's distinctive words, a date-time from a reply object that has the parameter; a route
 * that takes an id a reply just revealed is followed before one that takes nothing new. It never
 * repeats a call, calls a destructive route only when the request names its verb, and a write only
 * when the request names its verb or its tool.
 */
import { jsonEqual } from "../../core/index.ts";
import type { ToolCall, ToolDefinition } from "../../providers/index.ts";
import { DESTRUCTIVE_FLAG } from "../execution/render.ts";
import { idsOf, shapeOf, wordsOf, type ReaderView } from "./reader-view.ts";

interface ParamSchema {
  readonly type?: string;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly format?: string;
}

interface Candidate {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly score: number;
}

/** Two words match when equal, or when one (of at least 4 letters) begins the other (`book`, `bookings`). */
export function wordMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short);
}

/** How many words of `a` match some word of `b`. */
export function overlap(a: readonly string[], b: readonly string[]): number {
  return [...new Set(a)].filter((w) => b.some((v) => wordMatch(w, v))).length;
}

/** The identifiers seen so far: the request's first, then each reply's, newest reply first. */
function seenIds(view: ReaderView): { fromRequest: string[]; fromReplies: string[] } {
  const fromRequest = idsOf(view.request);
  const fromReplies: string[] = [];
  for (const reply of [...view.replies].reverse())
    for (const id of idsOf(JSON.stringify(reply)))
      if (!fromRequest.includes(id) && !fromReplies.includes(id)) fromReplies.push(id);
  return { fromRequest, fromReplies };
}

const prefixOf = (id: string): string => id.split(/[-_]/)[0] ?? id;

/** Whether a parameter takes an identifier: `…_id`, or its description says identifier or shows an id. */
function isIdParam(name: string, schema: ParamSchema): boolean {
  return (
    /_id$/.test(name) ||
    /\bidentifier\b/i.test(schema.description ?? "") ||
    (schema.type === "string" && name.endsWith("_number"))
  );
}

/** The ids a parameter takes: the prefix of its description's example, else the parameter's own noun. */
function idsFor(name: string, schema: ParamSchema, ids: readonly string[]): string[] {
  const examples = idsOf(schema.description ?? "");
  if (examples.length > 0) {
    const prefixes = new Set(examples.map(prefixOf));
    const shapes = new Set(examples.map(shapeOf));
    const byPrefix = ids.filter((id) => prefixes.has(prefixOf(id)));
    if (byPrefix.length > 0) return byPrefix;
    const byShape = ids.filter((id) => shapes.has(shapeOf(id)));
    if (byShape.length > 0) return byShape;
  }
  // An abbreviation of the parameter's noun: SMP for sample_id, INS for instrument_id.
  const nouns = wordsOf(`${name.replace(/_/g, " ")} ${schema.description ?? ""}`);
  return ids.filter((id) => nouns.some((noun) => abbreviates(prefixOf(id).toLowerCase(), noun)));
}

/** Whether `short`'s letters appear in order in `word`, starting with its first letter (smp in sample). */
function abbreviates(short: string, word: string): boolean {
  if (short.length < 2 || !/^[a-z]+$/.test(short) || word[0] !== short[0]) return false;
  let at = 0;
  for (const letter of word) if (letter === short[at]) at += 1;
  return at >= short.length;
}

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

const QUERY = /^(query|q|search|text|keywords?|terms?)$/;

/** A value for a non-id parameter, or undefined when the reader has none it trusts. */
function otherValue(
  name: string,
  schema: ParamSchema,
  required: boolean,
  view: ReaderView,
  requestWords: readonly string[],
): unknown {
  if (schema.enum !== undefined) {
    const named = schema.enum.find((v) => typeof v === "string" && requestWords.includes(v.toLowerCase()));
    if (named !== undefined) return named;
    return required ? (schema.default ?? schema.enum[0]) : undefined;
  }
  if (QUERY.test(name)) {
    const ids = idsOf(view.request);
    return ids[0] ?? distinctiveQuery(view);
  }
  if (schema.format === "date-time" || schema.format === "date") {
    const from = replyObjectWith(view, name);
    if (typeof from === "string") return from;
    const stamps = view.request.match(/\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?/g) ?? [];
    return required ? stamps[0] : undefined;
  }
  const examples = (schema.description ?? "").match(/[\p{L}\p{N}]*\d[\p{L}\p{N}-]*/gu) ?? [];
  const shapes = new Set(examples.filter((e) => /\p{L}/u.test(e)).map(shapeOf));
  // ASCII tokens: a particle written onto an id (C-1232에) is not part of it.
  const shaped = (view.request.match(/[A-Za-z0-9][A-Za-z0-9-]*\d[A-Za-z0-9-]*/g) ?? []).find((t) =>
    shapes.has(shapeOf(t)),
  );
  if (shaped !== undefined) return shaped;
  if (!required) return undefined;
  if (schema.type === "integer" || schema.type === "number") return schema.default ?? schema.minimum ?? 1;
  if (schema.type === "boolean") return schema.default ?? false;
  return distinctiveQuery(view);
}

/** The first value under key `name` in any object of the replies (newest reply first). */
function replyObjectWith(view: ReaderView, name: string): unknown {
  let found: unknown;
  const visit = (node: unknown): void => {
    if (found !== undefined || typeof node !== "object" || node === null) return;
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>)[name] === "string") {
      found = (node as Record<string, unknown>)[name];
      return;
    }
    for (const child of Object.values(node)) visit(child);
  };
  for (const reply of [...view.replies].reverse()) visit(reply);
  return found;
}

/** Whether the request allows calling this tool at all (writes and destructive routes need their verb named). */
function allowed(tool: ToolDefinition, requestWords: readonly string[]): boolean {
  const [noun = "", verb = ""] = tool.name.split("__");
  const verbNamed = requestWords.some((w) => wordMatch(w, verb.toLowerCase()));
  if (tool.description.includes(DESTRUCTIVE_FLAG)) return verbNamed;
  if (tool.description.includes("Read-only.")) return true;
  return (
    verbNamed ||
    requestWords.some((w) => wordMatch(w, noun.toLowerCase().replace(/s$/, ""))) ||
    overlap(requestWords, wordsOf(tool.description)) >= 4
  );
}

/** Every call the reader could make with this tool, scored. */
function candidatesOf(tool: ToolDefinition, view: ReaderView, requestWords: readonly string[]): Candidate[] {
  if (!allowed(tool, requestWords)) return [];
  const schema = tool.parameters as {
    properties?: Record<string, ParamSchema>;
    required?: readonly string[];
  };
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const { fromRequest, fromReplies } = seenIds(view);
  const base = overlap(requestWords, wordsOf(`${tool.name.replace(/_/g, " ")} ${tool.description}`));
  const fixed: Record<string, unknown> = {};
  let idParam: { name: string; ids: string[] } | null = null;
  for (const [name, p] of Object.entries(properties)) {
    if (isIdParam(name, p)) {
      const ids = idsFor(name, p, [...fromRequest, ...fromReplies]);
      if (ids.length === 0) {
        if (required.has(name)) return [];
        continue;
      }
      if (idParam === null && required.has(name)) idParam = { name, ids };
      else if (required.has(name)) fixed[name] = ids[0];
      continue;
    }
    const value = otherValue(name, p, required.has(name), view, requestWords);
    if (value === undefined) {
      if (required.has(name)) return [];
      continue;
    }
    fixed[name] = value;
  }
  // A search the request's own words fill is worth one more than the words the tool shares.
  const searched = Object.keys(fixed).some((name) => QUERY.test(name)) ? 1 : 0;
  // A filter filled with a token of the request's own shape (location C-1232) binds like an id.
  const shaped = Object.entries(fixed).some(
    ([name, v]) => !QUERY.test(name) && typeof v === "string" && view.request.includes(v) && /\d/.test(v),
  )
    ? 2
    : 0;
  if (idParam === null) return [{ name: tool.name, arguments: fixed, score: base + searched + shaped }];
  const { name: param, ids } = idParam;
  return ids.map((id) => ({
    name: tool.name,
    arguments: { [param]: id, ...fixed },
    // An id from the request binds best; one a reply revealed, newest first, next.
    score: base + (fromRequest.includes(id) ? 3 : 2 + 1 / (2 + fromReplies.indexOf(id))),
  }));
}

/** The least a call must score to be worth a turn: a bound id, or two words shared with the request. */
const WORTH = 2;

/** The reader's next call, or null when nothing shown is worth calling. */
export function nextCall(view: ReaderView, turn: number): ToolCall | null {
  const requestWords = wordsOf(view.request);
  const candidates = view.tools
    .flatMap((t) => candidatesOf(t, view, requestWords))
    .filter((c) => c.score >= WORTH)
    .filter((c) => !view.calls.some((made) => made.name === c.name && jsonEqual(made.arguments, c.arguments)))
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const best = candidates[0];
  return best === undefined ? null : { id: `call_${turn}`, name: best.name, arguments: best.arguments };
}

/** Whether any shown tool fits the request at all (else the reader asks for more tools). */
export function anyToolFits(view: ReaderView): boolean {
  const requestWords = wordsOf(view.request);
  return view.tools.some((t) => candidatesOf(t, view, requestWords).some((c) => c.score >= 1));
}
