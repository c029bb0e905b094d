/** Rules about evidence: sources, what the fixture shows, and whether facts can be derived from it. */
import { canonicalJson } from "../../core/index.js";
import { list } from "./context.js";
/** Every (source, payload) the agent can be shown by the fixture. */
function observedSources(task) {
    return task.executor_fixture.steps.flatMap((s) => s.observation.sources);
}
export const evidenceRules = {
    evidenceSources(task) {
        const problems = [];
        const seen = new Set();
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
    requiredFactsDerivable(task) {
        const problems = [];
        const allowed = new Set(task.allowed_source_ids);
        const shown = observedSources(task);
        for (const fact of task.required_facts) {
            if (!allowed.has(fact.source_id)) {
                problems.push({
                    code: "fact_source_not_allowed",
                    message: `required fact ${fact.key} cites ${fact.source_id}, which is not an allowed source (${list(allowed)})`,
                });
                continue;
            }
            const wanted = canonicalJson({ value: fact.value, unit: fact.unit });
            const found = shown.some((s) => s.source_id === fact.source_id &&
                s.payload.facts[fact.key] !== undefined &&
                canonicalJson(s.payload.facts[fact.key]) === wanted);
            if (!found)
                problems.push({
                    code: "fact_not_in_evidence",
                    message: `required fact ${fact.key} = ${canonicalJson(fact.value)} ${fact.unit ?? ""}`.trimEnd() +
                        ` does not appear under ${fact.source_id} in the fixture's observations`,
                });
        }
        return problems;
    },
    forbiddenFactSources(task) {
        const allowed = new Set(task.allowed_source_ids);
        return task.forbidden_facts
            .filter((f) => f.source_id !== undefined && !allowed.has(f.source_id))
            .map((f) => ({
            code: "forbidden_fact_source_not_allowed",
            message: `forbidden fact ${f.key} cites ${f.source_id}, which is not an allowed source`,
        }));
    },
};
