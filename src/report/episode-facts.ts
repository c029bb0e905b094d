/**
 * An episode's facts beside the gold: every required fact hit or missed (with what the agent gave
 * and why it failed), the forbidden facts it emitted, and the facts no required fact licenses.
 * Read from the summary's verdicts (the scorer's, never recomputed here: the report loads no unit
 * table), the task and, when the run file is given, the agent's envelope for the values it wrote.
 */
import { acceptedSources, type ForbiddenFact, type RequiredFact, type Task } from "../authoring/index.ts";
import { type EnvelopeFact, parseEnvelope } from "../envelope/index.ts";
import type { Summary } from "../summary/index.ts";

type Episode = Summary["episode_scores"][number];
type FactVerdict = Episode["facts"][number];

/** Why a required fact was not recalled, in the words the view shows. */
export type MissReason = "missing" | "wrong value" | "wrong unit" | "wrong source";

export interface RequiredRow {
  readonly fact: RequiredFact;
  readonly hit: boolean;
  /** Empty when hit. */
  readonly why: readonly MissReason[];
  /** The sources the scorer accepts for it (its own, `also_in`, a derived fact's inputs) that are allowed. */
  readonly accepted: readonly string[];
  /** Other unit spellings the scorer accepts. */
  readonly units: readonly string[];
  /** The emitted fact the row is judged by (licensed, else the closest of its key); null: none. */
  readonly verdict: FactVerdict | null;
  /** What the agent wrote in that fact, when the run file was given. */
  readonly given: EnvelopeFact | null;
}

export interface EmittedRow {
  readonly verdict: FactVerdict;
  readonly given: EnvelopeFact | null;
}

export interface FactView {
  readonly required: readonly RequiredRow[];
  /** Emitted facts that match a forbidden fact's value, with the task's forbidden facts of that key. */
  readonly forbidden: ReadonlyArray<EmittedRow & { readonly matches: readonly ForbiddenFact[] }>;
  /** Emitted facts not licensed (the scorer's unsupported facts), each with the scorer's reason. */
  readonly unsupported: readonly EmittedRow[];
}

/** The envelope's facts, by index; empty when the text is not an envelope (the summary says why). */
export function envelopeFacts(finalText: string | undefined): readonly EnvelopeFact[] {
  if (finalText === undefined) return [];
  const parsed = parseEnvelope(finalText);
  return parsed.ok ? parsed.envelope.facts : [];
}

/** How many of its ok flags an emitted fact has: the closest miss is the one with the most. */
const closeness = (v: FactVerdict) => [v.value_ok, v.unit_ok, v.source_ok].filter((x) => x === true).length;

/**
 * Each required fact as hit or missed. A key with several required facts (rare) takes its licensed,
 * non-duplicate emitted facts in order, one per required fact, as the scorer's recall counts them.
 */
export function factView(task: Task, episode: Episode, given: readonly EnvelopeFact[]): FactView {
  const allowed = new Set(task.allowed_source_ids);
  const used = new Set<number>();
  const givenAt = (v: FactVerdict | null) => (v === null ? null : (given[v.index] ?? null));
  const required = task.required_facts.map((fact): RequiredRow => {
    const ofKey = episode.facts.filter((f) => f.key === fact.key);
    const licensed = ofKey.find((f) => f.licensed && !f.duplicate && !used.has(f.index));
    if (licensed) used.add(licensed.index);
    const closest =
      licensed ?? [...ofKey].sort((a, b) => closeness(b) - closeness(a) || a.index - b.index)[0] ?? null;
    const why: MissReason[] = [];
    if (!licensed) {
      if (closest === null) why.push("missing");
      else {
        if (closest.value_ok === false) why.push("wrong value");
        if (closest.unit_ok === false) why.push("wrong unit");
        if (closest.source_ok === false) why.push("wrong source");
      }
    }
    return {
      fact,
      hit: licensed !== undefined,
      why,
      accepted: acceptedSources(fact).filter((s) => allowed.has(s)),
      units: (task.accepted_units[fact.key] ?? []).filter((u) => u !== fact.unit),
      verdict: closest,
      given: givenAt(closest),
    };
  });
  const forbidden = episode.facts
    .filter((f) => f.contradicts)
    .map((v) => ({
      verdict: v,
      given: givenAt(v),
      matches: task.forbidden_facts.filter((g) => g.key === v.key),
    }));
  const unsupported = episode.facts
    .filter((f) => !f.licensed)
    .map((v) => ({ verdict: v, given: givenAt(v) }));
  return { required, forbidden, unsupported };
}

/**
 * Why an episode did not pass, in a few words for the list ("missed 2 of 3 required facts; 1
 * unsupported"). Read from the summary's metrics alone, so it needs neither corpus nor runs.
 */
export function failSummary(episode: Episode, requiredCount?: number): string {
  const m = episode.metrics;
  const parts: string[] = [];
  const recall = m["required_fact_recall"];
  if (typeof recall === "number" && recall < 1) {
    if (requiredCount !== undefined && requiredCount > 0) {
      const missed = Math.round((1 - recall) * requiredCount);
      parts.push(`missed ${missed} of ${requiredCount} required fact${requiredCount === 1 ? "" : "s"}`);
    } else parts.push(`recalled ${Math.round(recall * 100)} % of required facts`);
  }
  const unsupported = m["unsupported_fact_count"];
  if (typeof unsupported === "number" && unsupported > 0) parts.push(`${unsupported} unsupported`);
  const contradictions = m["contradiction_count"];
  if (typeof contradictions === "number" && contradictions > 0) parts.push(`${contradictions} contradicting`);
  return parts.join("; ");
}
