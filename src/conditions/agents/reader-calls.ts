/**
 * The careful reader's next call, chosen from what it was shown alone: tools ranked by the words
 * they share with the request; arguments filled from identifiers the request and the replies hold
 * (an id goes to a parameter whose description's example has the same prefix, else whose noun
 * it abbreviates), other values from reader-values.ts; a route that takes an id a reply just
 * revealed is followed before one that takes nothing new, an unvisited route before another try
 * of a visited one. It never repeats a call, makes a write once and only when the request names
 * its verb (the glossary reads other languages), and a destructive call only on an id the
 * request names.
 */
import { jsonEqual } from "../../core/index.ts";
import type { ToolCall, ToolDefinition } from "../../providers/index.ts";
import { DESTRUCTIVE_FLAG } from "../execution/render.ts";
import { idsOf, shapeOf, wordsOf, type ReaderView } from "./reader-view.ts";
import { glossaryWords } from "./reader-glossary.ts";
import { QUERY, shapedPhrases, valuesFor, type ParamSchema } from "./reader-values.ts";

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

/** The ids a parameter takes: the prefix of its description's example, else the parameter's own noun, else the example's shape. */
function idsFor(name: string, schema: ParamSchema, ids: readonly string[]): string[] {
  const examples = idsOf(schema.description ?? "");
  const prefixes = new Set(examples.map(prefixOf));
  const byPrefix = ids.filter((id) => prefixes.has(prefixOf(id)));
  if (byPrefix.length > 0) return byPrefix;
  // An abbreviation of the parameter's noun: SMP for sample_id, INS for instrument_id.
  const nouns = wordsOf(`${name.replace(/_/g, " ")} ${schema.description ?? ""}`);
  const named = ids.filter((id) => nouns.some((noun) => abbreviates(prefixOf(id).toLowerCase(), noun)));
  if (named.length > 0) return named;
  // The example's shape only when its prefix is a single letter (S-2026-04417): a longer one names its entity.
  const shapes = new Set(examples.filter((e) => /^[A-Z][-_]/.test(e)).map(shapeOf));
  return ids.filter((id) => shapes.has(shapeOf(id)));
}

/** The ids a parameter takes, else the request's phrases shaped like its example ('ASTM B348/B348M-21'). */
function idsOrPhrases(name: string, schema: ParamSchema, ids: readonly string[], request: string): string[] {
  const found = idsFor(name, schema, ids);
  if (found.length > 0) return found;
  // Only a phrase of several words: a single token shaped like MAT-4471-TI is another entity's id.
  return shapedPhrases(schema.description ?? "", request).filter((p) => p.includes(" "));
}

/** Whether `short`'s letters appear in order in `word`, starting with its first letter (smp in sample). */
function abbreviates(short: string, word: string): boolean {
  if (short.length < 2 || !/^[a-z]+$/.test(short) || word[0] !== short[0]) return false;
  let at = 0;
  for (const letter of word) if (letter === short[at]) at += 1;
  return at >= short.length;
}

/** Whether the request allows calling this tool at all (writes and destructive routes need their verb named). */
function allowed(tool: ToolDefinition, requestWords: readonly string[]): boolean {
  const [noun = "", verb = ""] = tool.name.split("__");
  const verbNamed = requestWords.some((w) => wordMatch(w, verb.toLowerCase()));
  if (tool.description.includes(DESTRUCTIVE_FLAG)) return verbNamed;
  if (tool.description.includes("Read-only.")) return true;
  // A write (void, reserve, create, …) only when the request names its verb.
  return verbNamed && noun.length > 0;
}

/** The request's words, with the English of the glossary words it names in its own language. */
export function requestTerms(request: string): string[] {
  return [...wordsOf(request), ...glossaryWords(request)];
}

/** Every call the reader could make with this tool, scored: the best value of each parameter, then each alternative of one. */
function candidatesOf(tool: ToolDefinition, view: ReaderView, requestWords: readonly string[]): Candidate[] {
  if (!allowed(tool, requestWords)) return [];
  const writes = !tool.description.includes("Read-only.");
  // A write is made once: a second export, booking or cancel is not a reading of the first.
  if (writes && view.calls.some((c) => c.name === tool.name)) return [];
  const destructive = tool.description.includes(DESTRUCTIVE_FLAG);
  const schema = tool.parameters as {
    properties?: Record<string, ParamSchema>;
    required?: readonly string[];
  };
  const required = new Set(schema.required ?? []);
  const { fromRequest, fromReplies } = seenIds(view);
  const base = overlap(requestWords, wordsOf(`${tool.name.replace(/_/g, " ")} ${tool.description}`));
  const options: [string, unknown[]][] = [];
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    const values = isIdParam(name, p)
      ? idsOrPhrases(name, p, [...fromRequest, ...fromReplies], view.request)
      : valuesFor(
          name,
          p,
          required.has(name),
          view,
          requestWords,
          view.fields.map((f) => f.key),
        );
    // A destructive call only on what the request itself names.
    const trusted =
      destructive && isIdParam(name, p) ? values.filter((v) => fromRequest.includes(String(v))) : values;
    if (trusted.length === 0) {
      if (required.has(name)) return [];
      continue;
    }
    // An optional id filter only with an id its example names: another narrows to nothing.
    if (isIdParam(name, p) && !required.has(name) && idsOf(p.description ?? "").length === 0) continue;
    options.push([name, trusted]);
  }
  const scoreOf = (args: Record<string, unknown>, rank: number): number => {
    // The strongest binding counts once: the same id in three parameters is no better than in one.
    let bound = 0;
    for (const [name, v] of Object.entries(args)) {
      if (typeof v !== "string") continue;
      if (fromRequest.includes(v)) bound = Math.max(bound, 3);
      else if (fromReplies.includes(v)) bound = Math.max(bound, 2 + 1 / (2 + fromReplies.indexOf(v)));
      else if (QUERY.test(name)) bound = Math.max(bound, 1);
      // A filter filled with a token of the request's own shape (location C-1232) binds like an
      // id; a phrase (ASTM A564/A564M-19a) only where the tool shares the request's words.
      else if (view.request.includes(v) && /\d/.test(v))
        bound = Math.max(bound, idsOf(v).includes(v) || base > 0 ? 2 : 0.5);
    }
    return base + bound - rank * 0.05;
  };
  const best = Object.fromEntries(options.map(([name, values]) => [name, values[0]]));
  const out: Candidate[] = [{ name: tool.name, arguments: best, score: scoreOf(best, 0) }];
  for (const [name, values] of options)
    values.slice(1, 8).forEach((value, i) => {
      const args = { ...best, [name]: value };
      out.push({ name: tool.name, arguments: args, score: scoreOf(args, i + 1) });
    });
  return out;
}

/** The least a call must score to be worth a turn: a bound id, or two words shared with the request. */
const WORTH = 2;

/** The reader's next call, or null when nothing shown is worth calling. */
export function nextCall(view: ReaderView, turn: number): ToolCall | null {
  const requestWords = requestTerms(view.request);
  const called = new Set(view.calls.map((c) => c.name));
  const candidates = view.tools
    .flatMap((t) => candidatesOf(t, view, requestWords))
    // A route not yet visited is worth more than another try of a visited one.
    .map((c) => ({ ...c, score: c.score + (called.has(c.name) ? 0 : 1.5) }))
    // Once on the path, any plausible unvisited route is worth a spare turn.
    .filter((c) => c.score >= (view.calls.length === 0 ? WORTH + 1.5 : WORTH + 0.5))
    .filter((c) => !view.calls.some((made) => made.name === c.name && jsonEqual(made.arguments, c.arguments)))
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const best = candidates[0];
  return best === undefined ? null : { id: `call_${turn}`, name: best.name, arguments: best.arguments };
}

/** Whether any shown tool fits the request at all (else the reader asks for more tools). */
export function anyToolFits(view: ReaderView): boolean {
  const requestWords = requestTerms(view.request);
  return view.tools.some((t) => candidatesOf(t, view, requestWords).some((c) => c.score >= 1));
}
