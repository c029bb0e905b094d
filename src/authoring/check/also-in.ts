/**
 * Provenance by evidence, the checker's side: every `also_in` entry of a required fact names an
 * allowed record some response of the fixture shows (an optional status check the agent may well
 * make counts: citing what it returned is defensible), resolves, and holds the gold value (read, converted
 * and compared exactly as `evidence` is), so the scorer's accepted sources (`acceptedSources`) are
 * each a record an agent could rightly cite.
 */
import { acceptedSources } from "../provenance.ts";
import type { Task } from "../task.ts";
import { list, type RuleProblem, type TaskRule } from "./context.ts";
import { observedPayloads } from "./evidence.ts";
import { EvidenceReader } from "./resolve.ts";

/** Source ids that some required response shows: the records a task's agent certainly meets. */
export function requiredSourceIds(task: Task): Set<string> {
  return new Set(
    task.executor_fixture.responses
      .filter((r) => r.required)
      .flatMap((r) => r.observation.sources.map((s) => s.source_id)),
  );
}

export const alsoInRules: Record<string, TaskRule> = {
  alsoIn(task, context) {
    const problems: RuleProblem[] = [];
    const allowed = new Set(task.allowed_source_ids);
    const shown = new Set(
      task.executor_fixture.responses.flatMap((r) => r.observation.sources.map((s) => s.source_id)),
    );
    const reader = new EvidenceReader(observedPayloads(task), context.units);
    for (const [index, fact] of task.required_facts.entries()) {
      // What the fact accepts without its also_in entries: its source and a derived fact's inputs.
      // A record reviewed as a coincidence cannot also be accepted: the two lists would disagree.
      for (const c of fact.coincidences ?? [])
        if (acceptedSources(fact).includes(c.source_id))
          problems.push({
            code: "coincidence_accepted",
            message: `required_facts[${index}] (${fact.key}) coincidences: ${c.source_id} is also a source the fact accepts`,
          });
      const accepted = new Set(acceptedSources({ ...fact, also_in: undefined }));
      for (const [j, entry] of (fact.also_in ?? []).entries()) {
        const at = `required_facts[${index}] (${fact.key}) also_in[${j}] ${entry.source_id}`;
        const problem = (code: string, message: string) =>
          problems.push({ code, message: `${at}: ${message}` });
        if (accepted.has(entry.source_id)) {
          problem("also_in_duplicate", `the fact already accepts ${entry.source_id} (${list(accepted)})`);
          continue;
        }
        accepted.add(entry.source_id);
        if (!allowed.has(entry.source_id)) {
          problem("also_in_not_allowed", `not an allowed source (${list(allowed)})`);
          continue;
        }
        if (!shown.has(entry.source_id)) {
          problem("also_in_not_in_evidence", "no response of the fixture shows this record");
          continue;
        }
        const verdict = reader.check(entry, {
          key: fact.key,
          value: fact.value,
          unit: fact.unit,
          tolerance: task.numeric_tolerances[fact.key],
        });
        if (!verdict.ok)
          problem(
            verdict.code === "pointer_unresolved" ? "also_in_unresolved" : "also_in_value_mismatch",
            verdict.message,
          );
      }
    }
    return problems;
  },
};
