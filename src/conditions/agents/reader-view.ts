/**
 * What the careful reader knows: only what a model is shown — the user message (the request and
 * the answer form it renders), the tool definitions of this turn, its own earlier calls and the
 * replies. It is built from an `AgentTurnRequest` alone; no task, fixture, fact or evidence
 * pointer is reachable from here (the type makes that structural).
 */
import { ANSWER_FORM_HEADING } from "../execution/user-message.ts";
import type { ToolCall, ToolDefinition } from "../../providers/index.ts";
import type { AgentTurnRequest } from "./types.ts";

export interface FormField {
  readonly key: string;
  /** number, text, identifier, boolean or list (as the form's line spells it). */
  readonly kind: string;
  readonly unit: string | null;
  readonly difference: boolean;
  readonly description: string;
  /** The values the form lists for the field, when it lists any. */
  readonly options: readonly string[];
}

/** One record a reply carried: its source_id and payload, in the order received. */
export interface SeenRecord {
  readonly sourceId: string;
  readonly payload: unknown;
  /** The turn order of the reply (0 = first reply). */
  readonly order: number;
}

export interface ReaderView {
  readonly request: string;
  readonly fields: readonly FormField[];
  readonly tools: readonly ToolDefinition[];
  readonly calls: readonly ToolCall[];
  /** Every reply that parsed as JSON, in order. */
  readonly replies: readonly unknown[];
  readonly records: readonly SeenRecord[];
  /** Whether the reader already asked for more tools. */
  readonly asked: boolean;
}

const STOP = new Set(
  "the a an and or of to in on at for from by with is are was were be been it its this that these those what which who whom how many much me my our we us you your give tell please need want any all each one two both as not no than then there their them they have has had do does did can could would should will into about over under after before between per via also only just what's".split(
    " ",
  ),
);

/** Words of a text: letters and digits, lower-cased, a plural `s` dropped, stop words and one-letter Latin words left out. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP.has(raw) || (/^[a-z]$/.test(raw) && raw.length < 2)) continue;
    out.push(raw.length > 3 && /[a-z]s$/.test(raw) && !raw.endsWith("ss") ? raw.slice(0, -1) : raw);
  }
  return out;
}

/** Identifier-shaped tokens: capitals and digits in hyphenated parts (MAT-4471-TI, C-1232, RES-SEM-02). */
export function idsOf(text: string): string[] {
  const found = text.match(/\b[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+\b/g) ?? [];
  return [...new Set(found.filter((t) => /\d/.test(t)))];
}

/** A token's shape: letters become A, digits 9, runs collapsed (`C-1232` and `B-110` are both `A-9`). */
export function shapeOf(token: string): string {
  return token.replace(/\p{L}+/gu, "A").replace(/\p{N}+/gu, "9");
}

/**
 * `- key (number, unit MPa, a difference): description`, and the options a field lists at its end:
 * `— one of: confirmed, tentative` (a list's `— each one of: …`; an option holding a comma is
 * JSON-quoted).
 */
export function parseField(line: string): FormField | null {
  // The kind ends at the first "):" — a unit may hold parentheses itself (mW/(m*K)).
  const m = /^- ([^\s(]+) \((.*?)\):(?: (.*))?$/.exec(line.trim());
  if (m === null) return null;
  const [, key = "", kindText = "", text = ""] = m;
  const listed = / — (?:each )?one of: (.+)$/.exec(text);
  const kind = kindText.startsWith("list") ? "list" : (kindText.split(/[,:]/)[0] ?? "").trim();
  const unit = /unit ([^,]+)/.exec(kindText)?.[1]?.trim() ?? null;
  return {
    key,
    kind,
    unit: unit === "no unit" ? null : unit,
    difference: kindText.includes("a difference"),
    description: listed === null ? text : text.slice(0, listed.index),
    options: listed === null ? [] : optionsOf(listed[1] ?? ""),
  };
}

/** `confirmed, tentative, "a, b"` → the options, a quoted one read as JSON. */
function optionsOf(list: string): string[] {
  return (list.match(/\s*"(?:[^"\\]|\\.)*"|[^,]+/g) ?? [])
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      if (!part.startsWith('"')) return part;
      try {
        return JSON.parse(part) as string;
      } catch {
        return part;
      }
    });
}

/** The request and the form from the first user message. */
function userMessage(text: string): { request: string; fields: FormField[] } {
  const at = text.indexOf(ANSWER_FORM_HEADING);
  if (at === -1) return { request: text.trim(), fields: [] };
  const lines = text.slice(at + ANSWER_FORM_HEADING.length).split("\n");
  return {
    request: text.slice(0, at).trim(),
    fields: lines.map(parseField).filter((f): f is FormField => f !== null),
  };
}

/** The records of a reply: `sources[]` items with a string source_id. */
export function recordsOf(reply: unknown): { sourceId: string; payload: unknown }[] {
  const sources = (reply as { sources?: unknown } | null)?.sources;
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((s) => {
    const { source_id, payload } = (s ?? {}) as { source_id?: unknown; payload?: unknown };
    return typeof source_id === "string" ? [{ sourceId: source_id, payload }] : [];
  });
}

export function readerView(request: AgentTurnRequest, requestMoreTools: string): ReaderView {
  const first = request.messages.find((m) => m.role === "user");
  const { request: text, fields } = userMessage(first?.content ?? "");
  const calls: ToolCall[] = [];
  const replies: unknown[] = [];
  const records: SeenRecord[] = [];
  let asked = false;
  for (const message of request.messages) {
    if (message.role === "assistant") {
      calls.push(...message.tool_calls);
      if (message.content.trim().startsWith(requestMoreTools)) asked = true;
    }
    if (message.role !== "tool") continue;
    let reply: unknown;
    try {
      reply = JSON.parse(message.content) as unknown;
    } catch {
      continue;
    }
    for (const r of recordsOf(reply)) records.push({ ...r, order: replies.length });
    replies.push(reply);
  }
  return { request: text, fields, tools: request.tools, calls, replies, records, asked };
}
