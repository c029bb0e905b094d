/**
 * The conveyor state (manifests/conveyor.json): the stages the protocol depends on, each with its
 * state, its evidence and its own prerequisites. The gate stays BLOCKED, and model agents refuse to
 * run, until the protocol's gate stage has succeeded with verifiable evidence and every stage it
 * needs is satisfied in turn. Pure: the shell reads files and hashes artifacts.
 */
import { z } from "zod";
export const CONVEYOR_FORMAT = "fabench-conveyor/v1";
export const STAGE_STATES = ["pending", "running", "succeeded", "failed"];
const sha = z.string().regex(/^[0-9a-f]{64}$/);
export const evidenceSchema = z.strictObject({
    artifact_path: z.string().min(1),
    artifact_sha256: sha,
    source_revision: z.string().regex(/^[0-9a-f]{40}$/),
    run_id: z.string().min(1).nullable(),
    recorded_at: z.iso.datetime(),
});
export const stageStateSchema = z.strictObject({
    id: z.string().min(1),
    title: z.string(),
    state: z.enum(STAGE_STATES),
    evidence: evidenceSchema.nullable(),
    /** Artifacts this stage needs frozen, by name → evidence of the frozen artifact, or null while missing. */
    artifacts: z.record(z.string(), evidenceSchema.nullable()),
});
export const conveyorSchema = z.strictObject({
    format: z.literal(CONVEYOR_FORMAT),
    protocol_id: z.string(),
    stages: z.array(stageStateSchema),
});
/**
 * Walks the gate stage and everything it needs. A stage is satisfied when its state meets what the
 * protocol requires (`succeeded`, or `terminal` = succeeded or failed), its evidence is present
 * and still verifies, its required artifacts are frozen and verify, and its own needs are satisfied.
 */
export function prerequisiteStatus(protocol, conveyor, check) {
    const gate = protocol.prerequisites.gate_stage;
    if (gate === null)
        return { satisfied: true, blocking: [] };
    const blocking = [];
    const visited = new Set();
    const visit = (id) => {
        if (visited.has(id))
            return;
        visited.add(id);
        const spec = protocol.prerequisites.stages.find((s) => s.id === id);
        const state = conveyor?.stages.find((s) => s.id === id);
        if (!spec)
            return blocking.push({ stage: id, reason: "the protocol does not describe this stage" });
        for (const need of spec.needs_stages)
            visit(need);
        if (!state)
            return blocking.push({ stage: id, reason: "no state recorded in the conveyor" });
        const terminal = state.state === "succeeded" || state.state === "failed";
        const wanted = spec.required_state === "succeeded" ? state.state === "succeeded" : terminal;
        if (!wanted)
            blocking.push({ stage: id, reason: `is ${state.state}; needs ${spec.required_state}` });
        else if (!state.evidence)
            blocking.push({ stage: id, reason: `is ${state.state} but has no evidence` });
        else
            evidenceProblem(id, "evidence", state.evidence, check, blocking);
        for (const name of spec.needs_artifacts) {
            const artifact = state.artifacts[name];
            if (!artifact)
                blocking.push({ stage: id, reason: `needs a frozen ${name}` });
            else
                evidenceProblem(id, name, artifact, check, blocking);
        }
    };
    visit(gate);
    return { satisfied: blocking.length === 0, blocking };
}
function evidenceProblem(stage, what, evidence, check, blocking) {
    const result = check(evidence);
    if (result === "missing")
        blocking.push({ stage, reason: `${what} artifact ${evidence.artifact_path} is missing` });
    if (result === "changed")
        blocking.push({
            stage,
            reason: `${what} artifact ${evidence.artifact_path} no longer matches its recorded sha256`,
        });
}
/** Stages that must be satisfied before `stage` may be recorded as succeeded. */
export function unmetNeeds(protocol, conveyor, stage, check) {
    const spec = protocol.prerequisites.stages.find((s) => s.id === stage);
    if (!spec)
        return [{ stage, reason: "the protocol does not describe this stage" }];
    return spec.needs_stages.flatMap((need) => prerequisiteStatus({ ...protocol, prerequisites: { ...protocol.prerequisites, gate_stage: need } }, conveyor, check).blocking);
}
