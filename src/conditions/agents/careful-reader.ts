/**
 * The careful reader (`--agent careful-reader`): a deterministic, gold-free heuristic agent that
 * sees only what a model sees — the system prompt, the user message (the request and its answer
 * form), the tool definitions of the turn and the replies — and never the task: its episode is
 * built without one (`carefulReaderEpisode` takes no task), and the Agent wrapper drops the task
 * it is handed. Each turn it makes the best call it has not made (reader-calls.ts), one per turn —
 * an id a reply just revealed on a route whose parameter takes that kind of id first, then any
 * unvisited route that shares the request's words (a small domain glossary reads the other
 * languages) — and answers the form from the records it received (reader-answer.ts) when nothing
 * shown is worth calling or on its last turn, computing the differences, ratios, sums and
 * compliance the form asks (reader-derive.ts); it asks for more tools (once) when no shown tool fits.
 *
 * It measures how far reading without understanding gets: `corpus sensitivity` reports its
 * recall beside the reference agent's, by stratum and language, and expects it clearly below.
 */
import type { UnitConverter } from "../../core/index.ts";
import { formEnvelope } from "./answer-form.ts";
import { readerFacts } from "./reader-answer.ts";
import { anyToolFits, nextCall } from "./reader-calls.ts";
import { readerView, type ReaderView } from "./reader-view.ts";
import { queryFromRequest, type SearchEngine } from "../search/index.ts";
import { requestSearch, searchCall, withoutSearches } from "./search-calls.ts";
import type { Agent, AgentEpisode, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export const CAREFUL_READER = "careful-reader";
/** 2: follows ids by prefix, tries every route and enum value, reads tables and rows tied to the request, computes what the form asks. */
export const CAREFUL_READER_VERSION = 2;

/** `units` is loaded once by the caller (`loadUnitConverter`), before any episode. */
export function carefulReaderAgent(requestMoreTools: string, units: UnitConverter): Agent {
  return {
    identity: { agent: CAREFUL_READER, model: null, settings: { version: CAREFUL_READER_VERSION } },
    // The task is deliberately not passed on: the reader is built from the conversation alone.
    startEpisode: () => carefulReaderEpisode(requestMoreTools, units),
  };
}

/** One episode of the reader; it takes no task. */
export function carefulReaderEpisode(requestMoreTools: string, units: UnitConverter): AgentEpisode {
  return { turn: async (request) => carefulReaderTurn(request, requestMoreTools, units) };
}

export function carefulReaderTurn(
  request: AgentTurnRequest,
  requestMoreTools: string,
  units: UnitConverter,
): AgentTurnResponse {
  // The search tool, its calls and its replies are not records: the reader reads without them.
  const view = readerView(withoutSearches(request), requestMoreTools);
  const answer = () => formEnvelope(readerFacts(view.fields, view.records, view.request, units));
  if (request.turn >= request.maxTurns) return { text: answer(), toolCalls: [] };
  const first = requestSearch(request, { query: view.request });
  if (first !== null) return { text: "", toolCalls: [first] };
  // Under search: what it needs, in the form's own words, when nothing loaded is worth calling.
  const call = nextCall(view, request.turn) ?? searchCall(request, (engine) => formQuery(view, engine));
  if (call !== null) return { text: "", toolCalls: [call] };
  if (view.calls.length === 0 && !view.asked && !anyToolFits(view))
    return { text: requestMoreTools, toolCalls: [] };
  return { text: answer(), toolCalls: [] };
}

/** A search for what the form asks: its fields' descriptions, as the request's query is made. */
function formQuery(view: ReaderView, engine: SearchEngine): string {
  return queryFromRequest({ query: view.fields.map((f) => f.description).join(" ") }, engine);
}
