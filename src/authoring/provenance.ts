/**
 * Which citations a required fact accepts: the one rule the scorer, `corpus check` and the docs
 * share. A value that sits in several allowed records may be cited from any of them, and a value
 * computed from several records from any record it was computed from; the scorer still asks that
 * the cited record be allowed.
 */
import { isDerived, type RequiredFact } from "./task.ts";

/**
 * The sources a citation of `fact` may name, without repeats: its `source_id`, every `also_in`
 * source and, for a derived fact, every input's source — in that order.
 */
export function acceptedSources(fact: Pick<RequiredFact, "source_id" | "evidence" | "also_in">): string[] {
  const inputs = isDerived(fact.evidence) ? fact.evidence.inputs.map((i) => i.source_id) : [];
  return [...new Set([fact.source_id, ...(fact.also_in ?? []).map((a) => a.source_id), ...inputs])];
}
