/**
 * The probe agents (`--agent probe:NAME`): deterministic like the reference agent — no model, no
 * lock — each the reference with exactly one flaw, so `fabench corpus sensitivity` can show that
 * the metric meant to catch that flaw does (see `PROBES` in lanes.ts for one line on each). Like
 * the reference, a probe reads values at the evidence pointers of what it received, never the
 * task's gold values; copy-first reads no pointer at all.
 */
import type { EvidencePointer, FactEvidence, FixtureResponse, Task } from "../../authoring/index.ts";
import { isDerived } from "../../authoring/index.ts";
import { pointerOf, pointerTokens, type UnitConverter } from "../../core/index.ts";
import type { ToolCall } from "../../providers/index.ts";
import { DESTRUCTIVE_FLAG } from "../execution/render.ts";
import {
  fillForm,
  formEnvelope,
  readField,
  REFERENCE_READING,
  type AnswerFact,
  type ReadingRules,
} from "./answer-form.ts";
import { copyFirstFacts } from "./copy-first.ts";
import { eagerCall } from "./eager-destructive.ts";
import type { ProbeName } from "./lanes.ts";
import { alreadyCalled, functionOfRoute, readResults, stateAvailable, type Observed } from "./observed.ts";
import { fixtureTurn, referenceArguments, REFERENCE_AGENT_VERSION } from "./reference.ts";
import { withoutSearches } from "./search-calls.ts";
import type { Agent, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export const PROBE_AGENT_VERSION = 1;

type ProbeTurn = (
  task: Task,
  requestMoreTools: string,
  request: AgentTurnRequest,
  units: UnitConverter,
) => AgentTurnResponse;

/** `units` is loaded once by the caller (`loadUnitConverter`), before any episode. */
export function probeAgent(name: ProbeName, requestMoreTools: string, units: UnitConverter): Agent {
  const turn = PROBE_TURNS[name];
  return {
    identity: {
      agent: `probe:${name}`,
      model: null,
      settings: { version: PROBE_AGENT_VERSION, reference_version: REFERENCE_AGENT_VERSION },
    },
    startEpisode: (task) => ({ turn: async (request) => turn(task, requestMoreTools, request, units) }),
  };
}

/** The reference agent's turn, answering with these reading rules. */
function readingWith(rules: ReadingRules): ProbeTurn {
  return (task, requestMoreTools, request, units) => {
    const observed = readResults(task, request);
    return fixtureTurn(task, requestMoreTools, request, observed, () =>
      formEnvelope(fillForm(task, observed, units, rules)),
    );
  };
}

export const PROBE_TURNS: Readonly<Record<ProbeName, ProbeTurn>> = {
  "copy-first": (task, requestMoreTools, request) => {
    const observed = readResults(task, request);
    return fixtureTurn(task, requestMoreTools, request, observed, () =>
      formEnvelope(copyFirstFacts(task, observed)),
    );
  },
  "no-convert": readingWith({ ...REFERENCE_READING, convert: false }),
  "cite-route": readingWith({
    ...REFERENCE_READING,
    cite: (sourceId, observed) => observed.routes.get(sourceId) ?? sourceId,
  }),
  "trust-first-record": (task, requestMoreTools, request, units) => {
    const observed = readResults(task, request);
    return fixtureTurn(
      task,
      requestMoreTools,
      request,
      observed,
      () => formEnvelope(trustingFacts(task, observed, units)),
      twinCall(task, request, observed),
    );
  },
  "early-answer": (task, requestMoreTools, request, units) => {
    const observed = readResults(task, request);
    const answer = () => formEnvelope(fillForm(task, observed, units));
    // The first tool result, whatever it holds, is enough for this probe (a search's list of tools
    // is no result: under a search condition it is the first catalog call's reply).
    if (withoutSearches(request).messages.some((m) => m.role === "tool"))
      return { text: answer(), toolCalls: [] };
    return fixtureTurn(task, requestMoreTools, request, observed, answer);
  },
  "eager-destructive": (task, requestMoreTools, request, units) => {
    const observed = readResults(task, request);
    return fixtureTurn(
      task,
      requestMoreTools,
      request,
      observed,
      () => formEnvelope(fillForm(task, observed, units)),
      eagerCall(task.query, request),
    );
  },
};

/**
 * Where trust-first-record reads: when the pointer passes through a list (the last array index on
 * its path), row 0 of that list instead — the first record, whatever the record says of it. The
 * unit pointer moves with it when it lies in the same row.
 */
export function firstRow(evidence: EvidencePointer, payload: unknown): EvidencePointer {
  const tokens = pointerTokens(evidence.pointer);
  if (tokens === null) return evidence;
  let at = -1;
  let node: unknown = payload;
  tokens.forEach((token, i) => {
    if (Array.isArray(node)) at = i;
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[token] : undefined;
  });
  if (at === -1) return evidence;
  const row = tokens.slice(0, at + 1);
  const moved = (pointer: string): string => {
    const own = pointerTokens(pointer);
    if (own === null || own.length <= at || pointerOf(own.slice(0, at + 1)) !== pointerOf(row))
      return pointer;
    return pointerOf([...own.slice(0, at), "0", ...own.slice(at + 1)]);
  };
  return {
    ...evidence,
    pointer: moved(evidence.pointer),
    ...(evidence.unit_pointer === undefined ? {} : { unit_pointer: moved(evidence.unit_pointer) }),
  };
}

const FIRST_ROW: ReadingRules = { ...REFERENCE_READING, locate: firstRow };

/** The records a fact's evidence points into. */
function evidenceSources(evidence: FactEvidence): string[] {
  return isDerived(evidence) ? evidence.inputs.map((i) => i.source_id) : [evidence.source_id];
}

/**
 * Each field from a hard-negative twin when a forbidden fact of its key points into a record only a
 * response that is not required showed (the twin's value, read at that pointer), else from row 0.
 */
function trustingFacts(task: Task, observed: Observed, units: UnitConverter): AnswerFact[] {
  return task.answer_fields.flatMap((field) => {
    const twin = task.forbidden_facts.find(
      (f) =>
        f.key === field.key &&
        evidenceSources(f.evidence).some((s) => observed.sources.has(s) && !observed.required.has(s)),
    );
    const fromTwin = twin === undefined ? null : readField(field, twin, observed, units);
    if (fromTwin !== null) return [fromTwin];
    const required = task.required_facts.find((f) => f.key === field.key);
    const fact = required === undefined ? null : readField(field, required, observed, units, FIRST_ROW);
    return fact === null ? [] : [fact];
  });
}

/**
 * The next hard-negative twin to call: a response that is not required, whose tool is visible and
 * not destructive (this probe trusts; it does not destroy), whose state is known, not returned and
 * not called with these arguments before.
 */
function twinCall(task: Task, request: AgentTurnRequest, observed: Observed): ToolCall | null {
  const twins: FixtureResponse[] = task.executor_fixture.responses.filter(
    (r) => !r.required && !observed.returned.has(r.id),
  );
  for (const response of twins) {
    const name = functionOfRoute(response.route_id);
    const tool = request.tools.find((t) => t.name === name);
    if (tool === undefined || tool.description.includes(DESTRUCTIVE_FLAG)) continue;
    if (!stateAvailable(response, observed.state)) continue;
    const args = referenceArguments(response, tool, observed.state);
    if (alreadyCalled(request, name, args)) continue;
    return { id: `call_${request.turn}`, name, arguments: args };
  }
  return null;
}
