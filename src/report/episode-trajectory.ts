/**
 * An episode's trajectory from its run record: each turn's tool calls with their arguments, the
 * route each reached and the reply (folded, cut at a bounded number of bytes with how many more
 * the run file holds), the searches under a search condition, and the agent's own text. The record
 * is read leniently: a turn or call the view cannot read is said, never guessed.
 */
import { escapeText } from "./html-kit.ts";
import { escape } from "./svg.ts";
import {
  attemptSchema,
  type EpisodeRecord,
  type TraceAttempt,
  type TraceTurn,
  turnSchema,
} from "./episode-sources.ts";

/** Bytes of a reply shown before the cut; the rest stays in the run file. */
const REPLY_BYTES = 800;
/** Bytes of a call's arguments, a turn's text or a search query shown before the cut. */
const SHORT_BYTES = 400;
/** Bytes of the final answer shown before the cut. */
export const ANSWER_BYTES = 4000;

/** UTF-8 length of one code point. */
const utf8 = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/** `text` cut to at most `limit` UTF-8 bytes on a code point boundary, and how many bytes were left out. */
export function cutText(text: string, limit: number): { readonly text: string; readonly more: number } {
  // Most replies are ASCII and short: no walk needed when even 4 bytes a code unit would fit.
  if (text.length * 3 <= limit) return { text, more: 0 };
  let total = 0;
  let kept = 0;
  let index = 0;
  for (const ch of text) {
    const size = utf8(ch.codePointAt(0) as number);
    total += size;
    if (total <= limit) {
      kept = total;
      index += ch.length;
    }
  }
  return total <= limit ? { text, more: 0 } : { text: text.slice(0, index), more: total - kept };
}

/** Escaped, cut text in a `<pre>`, with the note on what was left out. */
export function cutBlock(text: string, limit: number, where = "in the run file"): string {
  const cut = cutText(text, limit);
  const more = cut.more > 0 ? `<span class="more">… ${cut.more} more bytes ${where}</span>` : "";
  return `<pre>${escapeText(cut.text)}${more}</pre>`;
}

/** Inline escaped, cut text (arguments, a query). */
function cutInline(text: string, limit: number): string {
  const cut = cutText(text, limit);
  return `${escapeText(cut.text)}${cut.more > 0 ? `<span class="more">… ${cut.more} more bytes</span>` : ""}`;
}

const json = (value: unknown) => (value === undefined ? "" : (JSON.stringify(value) ?? String(value)));

/** A reply's one-line summary: its status and the ids of its sources. */
function replyHeadline(observation: unknown): string {
  if (typeof observation !== "object" || observation === null) return "reply";
  const o = observation as { status?: unknown; sources?: unknown };
  const ids = Array.isArray(o.sources)
    ? o.sources.map((s) => (s as { source_id?: unknown })?.source_id).filter((id) => typeof id === "string")
    : [];
  const status = typeof o.status === "string" ? o.status : "?";
  return `reply: ${status}${ids.length > 0 ? `, ${ids.length === 1 ? "source" : "sources"} ${ids.join(", ")}` : ""}`;
}

function callLine(turn: TraceTurn, index: number, attempt: TraceAttempt | undefined): string {
  const call = turn.tool_calls?.[index];
  if (call === undefined) return "";
  const reached = attempt
    ? ` → ${attempt.route_id ? `<code>${escape(attempt.route_id)}</code>` : "no route"}${attempt.outcome ? ` ${escape(attempt.outcome)}` : ""}${attempt.error_code ? ` <span class="no">${escape(attempt.error_code)}</span>` : ""}${attempt.required ? " (required)" : ""}`
    : "";
  const observation = attempt?.observation ?? turn.observations?.[index];
  const reply =
    observation === undefined
      ? ""
      : `<details class="reply"><summary>${escape(replyHeadline(observation))}</summary>${cutBlock(json(observation), REPLY_BYTES)}</details>`;
  return `<li><code>${escape(call.name)}</code> <code class="args">${cutInline(json(call.arguments), SHORT_BYTES)}</code>${reached}${reply}</li>`;
}

function turnItem(turn: TraceTurn, attempts: readonly TraceAttempt[]): string {
  const head = [
    `turn ${turn.turn}`,
    turn.stage === undefined ? "" : `stage ${turn.stage}`,
    turn.visible_route_count === undefined ? "" : `${turn.visible_route_count} routes shown`,
    turn.event ?? "",
  ].filter((part) => part !== "");
  const searches = (turn.searches ?? []).map(
    (s) =>
      `<li>search <code class="args">${cutInline(s.query, SHORT_BYTES)}</code> → ${s.error_code ? `<span class="no">${escape(s.error_code)}</span>` : s.results.length === 0 ? "nothing" : s.results.map((r) => `<code>${escape(r)}</code>`).join(", ")}</li>`,
  );
  const calls = (turn.tool_calls ?? []).map((_, i) =>
    callLine(
      turn,
      i,
      attempts.find((a) => a.turn === turn.turn && a.call_index === i),
    ),
  );
  // The final answer is shown on its own below; other text (a request for more tools) is shown here.
  const text =
    turn.text && turn.event !== "final_answer"
      ? `<li>text <code class="args">${cutInline(turn.text, SHORT_BYTES)}</code></li>`
      : "";
  const items = [...searches, ...calls, text].filter((x) => x !== "").join("");
  return `<li><span class="muted">${escape(head.join(" · "))}</span>${items ? `<ul>${items}</ul>` : ""}</li>`;
}

/** The trajectory as an ordered list of turns. */
export function trajectory(record: EpisodeRecord): string {
  const attempts = record.attempts.flatMap((a) => {
    const parsed = attemptSchema.safeParse(a);
    return parsed.success ? [parsed.data] : [];
  });
  const turns = record.turns.map((t, i) => {
    const parsed = turnSchema.safeParse(t);
    return parsed.success
      ? turnItem(parsed.data, attempts)
      : `<li class="no">turn ${i + 1}: not readable</li>`;
  });
  return `<ol class="trajectory">${turns.join("")}</ol><p class="muted">Ended: ${escape(record.end_reason)}.</p>`;
}
