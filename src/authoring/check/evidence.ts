/** Rules about evidence: which sources the fixture shows, and which of them facts may cite. */
import { canonicalJson } from "../../core/index.ts";
import { isDerived, type FactEvidence, type Task } from "../task.ts";
import { list, type RuleProblem, type TaskRule } from "./context.ts";

/** Every (source, payload) the fixture's responses can show, required or not. */
export function observedSources(task: Task) {
  return task.executor_fixture.responses.flatMap((r) => r.observation.sources);
}

/** Source id → payload of every source the fixture's responses show (the first showing, when several do). */
export function observedPayloads(task: Task): Map<string, Record<string, unknown>> {
  const payloads = new Map<string, Record<string, unknown>>();
  for (const source of observedSources(task))
    if (!payloads.has(source.source_id)) payloads.set(source.source_id, source.payload);
  return payloads;
}

/** The sources a fact's evidence reads: its pointer's, or every input's of a derived fact. */
export function evidenceSources(evidence: FactEvidence): string[] {
  return isDerived(evidence) ? evidence.inputs.map((i) => i.source_id) : [evidence.source_id];
}

export const evidenceRules: Record<string, TaskRule> = {
  evidenceSources(task) {
    const problems: RuleProblem[] = [];
    const seen = new Set<string>();
    for (const { source_id } of task.evidence_payloads) {
      if (source_id.trim() === "")
        problems.push({
          code: "evidence_source_id_empty",
          message: "an evidence payload has an empty source_id",
        });
      else if (seen.has(source_id))
        problems.push({
          code: "evidence_source_id_duplicate",
          message: `evidence source ${source_id} appears twice`,
        });
      seen.add(source_id);
    }
    const payloads = new Map(task.evidence_payloads.map((e) => [e.source_id, canonicalJson(e.payload)]));
    for (const source of observedSources(task)) {
      const listed = payloads.get(source.source_id);
      if (listed === undefined)
        problems.push({
          code: "observation_source_mismatch",
          message: `an observation shows source ${source.source_id}, which is not in evidence_payloads`,
        });
      else if (listed !== canonicalJson(source.payload))
        problems.push({
          code: "observation_source_mismatch",
          message: `an observation shows source ${source.source_id} with a payload that differs from evidence_payloads`,
        });
    }
    return problems;
  },

  allowedSources(task) {
    const evidence = new Set(task.evidence_payloads.map((e) => e.source_id));
    return task.allowed_source_ids
      .filter((id) => !evidence.has(id))
      .map((id) => ({
        code: "allowed_source_not_in_evidence",
        message: `allowed source ${id} has no evidence payload`,
      }));
  },

  /**
   * A required fact cites an allowed source, its evidence reads that source, and a required
   * response shows it: a fact that only a hard-negative route or an unrequired response shows
   * would ask the agent to trust the trap.
   */
  requiredFactSources(task) {
    const problems: RuleProblem[] = [];
    const allowed = new Set(task.allowed_source_ids);
    const required = new Set(
      task.executor_fixture.responses
        .filter((r) => r.required)
        .flatMap((r) => r.observation.sources.map((s) => s.source_id)),
    );
    for (const [index, fact] of task.required_facts.entries()) {
      const at = `required_facts[${index}] (${fact.key})`;
      if (!allowed.has(fact.source_id)) {
        problems.push({
          code: "fact_source_not_allowed",
          message: `${at} cites ${fact.source_id}, which is not an allowed source (${list(allowed)})`,
        });
        continue;
      }
      const sources = evidenceSources(fact.evidence);
      if (!sources.includes(fact.source_id))
        problems.push({
          code: "evidence_source_mismatch",
          message: `${at} cites ${fact.source_id} but its evidence reads ${list(sources)}`,
        });
      else if (!required.has(fact.source_id))
        problems.push({
          code: "fact_not_in_evidence",
          message: `${at} cites ${fact.source_id}, which no required response shows`,
        });
    }
    return problems;
  },

  /** A forbidden fact names where the wrong value is shown; it need not be an allowed source (it rarely is). */
  forbiddenFactSources(task) {
    const problems: RuleProblem[] = [];
    const evidence = new Set(task.evidence_payloads.map((e) => e.source_id));
    for (const [index, fact] of task.forbidden_facts.entries()) {
      if (fact.source_id === undefined) continue;
      const at = `forbidden_facts[${index}] (${fact.key})`;
      if (!evidence.has(fact.source_id))
        problems.push({
          code: "forbidden_fact_source_unknown",
          message: `${at} cites ${fact.source_id}, which has no evidence payload`,
        });
      else if (!evidenceSources(fact.evidence).includes(fact.source_id))
        problems.push({
          code: "evidence_source_mismatch",
          message: `${at} cites ${fact.source_id} but its evidence reads ${list(evidenceSources(fact.evidence))}`,
        });
    }
    return problems;
  },
};
