/**
 * The conveyor state (manifests/conveyor.json): the stages the protocol depends on, each with its
 * state, its evidence and its own prerequisites. The gate stays BLOCKED, and model agents refuse to
 * run, until the protocol's gate stage has succeeded with verifiable evidence and every stage it
 * needs is satisfied in turn. Pure: the shell reads files and hashes artifacts.
 */
import { z } from "zod";
import type { Protocol } from "../authoring/index.ts";
import { canonicalSha256 } from "../core/index.ts";

export const CONVEYOR_FORMAT = "fabench-conveyor/v1";
export const STAGE_STATES = ["pending", "running", "succeeded", "failed"] as const;

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

export const conveyorSchema = z
  .strictObject({
    format: z.literal(CONVEYOR_FORMAT),
    /** The protocol this state belongs to, by id and canonical hash: another protocol's conveyor unlocks nothing. */
    protocol_id: z.string(),
    protocol_sha256: sha,
    /**
     * The folder evidence must lie in, relative to the conveyor's folder (default: that folder), so
     * evidence cannot be any file on the machine that happens to hash right.
     */
    evidence_root: z.string().min(1).optional(),
    stages: z.array(stageStateSchema),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.stages.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({ code: "custom", path: ["stages", i, "id"], message: `stage ${s.id} is listed twice` });
      seen.add(s.id);
    });
  });

export type Evidence = z.infer<typeof evidenceSchema>;
export type StageState = z.infer<typeof stageStateSchema>;
export type Conveyor = z.infer<typeof conveyorSchema>;

export interface Blocker {
  readonly stage: string;
  readonly reason: string;
}

export interface PrerequisiteStatus {
  readonly satisfied: boolean;
  readonly blocking: Blocker[];
}

/** Whether an artifact's recorded hash matches the bytes on disk now (the shell computes it). */
export type ArtifactCheck = (evidence: Evidence) => "ok" | "missing" | "changed" | "outside";

/**
 * Walks the gate stage and everything it needs. A stage is satisfied when its state meets what the
 * protocol requires (`succeeded`, or `terminal` = succeeded or failed), its evidence is present
 * and still verifies, its required artifacts are frozen and verify, and its own needs are satisfied.
 */
export function prerequisiteStatus(
  protocol: Protocol,
  conveyor: Conveyor | null,
  check: ArtifactCheck,
): PrerequisiteStatus {
  const gate = protocol.prerequisites.gate_stage;
  if (gate === null) return { satisfied: true, blocking: [] };
  const binding = bindingProblem(protocol, conveyor);
  if (binding) return { satisfied: false, blocking: [binding] };
  const blocking = walkStages(protocol, gate, conveyor, check);
  return { satisfied: blocking.length === 0, blocking };
}

/** A conveyor records one protocol's state: another protocol's (by id or canonical hash) unlocks nothing. */
function bindingProblem(protocol: Protocol, conveyor: Conveyor | null): Blocker | null {
  if (!conveyor) return null;
  if (conveyor.protocol_id !== protocol.protocol_id)
    return {
      stage: "conveyor",
      reason: `records the state of protocol ${conveyor.protocol_id}, not ${protocol.protocol_id}`,
    };
  const sha = canonicalSha256(protocol);
  if (conveyor.protocol_sha256 !== sha)
    return {
      stage: "conveyor",
      reason: `was bound to protocol ${conveyor.protocol_id} with sha256 ${conveyor.protocol_sha256.slice(0, 12)}…, not ${sha.slice(0, 12)}…`,
    };
  return null;
}

/** What keeps `stage` and everything it needs, in turn, from being satisfied. */
function walkStages(
  protocol: Protocol,
  stage: string,
  conveyor: Conveyor | null,
  check: ArtifactCheck,
): Blocker[] {
  const blocking: Blocker[] = [];
  const visited = new Set<string>();
  const visit = (id: string) => {
    if (visited.has(id)) return;
    visited.add(id);
    const spec = protocol.prerequisites.stages.find((s) => s.id === id);
    const state = conveyor?.stages.find((s) => s.id === id);
    if (!spec) return blocking.push({ stage: id, reason: "the protocol does not describe this stage" });
    for (const need of spec.needs_stages) visit(need);
    if (!state) return blocking.push({ stage: id, reason: "no state recorded in the conveyor" });
    const terminal = state.state === "succeeded" || state.state === "failed";
    const wanted = spec.required_state === "succeeded" ? state.state === "succeeded" : terminal;
    if (!wanted) blocking.push({ stage: id, reason: `is ${state.state}; needs ${spec.required_state}` });
    else if (!state.evidence) blocking.push({ stage: id, reason: `is ${state.state} but has no evidence` });
    else evidenceProblem(id, "evidence", state.evidence, check, blocking);
    for (const name of spec.needs_artifacts) {
      const artifact = state.artifacts[name];
      if (!artifact) blocking.push({ stage: id, reason: `needs a frozen ${name}` });
      else evidenceProblem(id, name, artifact, check, blocking);
    }
  };
  visit(stage);
  return blocking;
}

function evidenceProblem(
  stage: string,
  what: string,
  evidence: Evidence,
  check: ArtifactCheck,
  blocking: Blocker[],
): void {
  const result = check(evidence);
  if (result === "missing")
    blocking.push({ stage, reason: `${what} artifact ${evidence.artifact_path} is missing` });
  if (result === "outside")
    blocking.push({
      stage,
      reason: `${what} artifact ${evidence.artifact_path} lies outside the evidence root`,
    });
  if (result === "changed")
    blocking.push({
      stage,
      reason: `${what} artifact ${evidence.artifact_path} no longer matches its recorded sha256`,
    });
}

/** Stages that must be satisfied before `stage` may be recorded as succeeded. */
export function unmetNeeds(
  protocol: Protocol,
  conveyor: Conveyor,
  stage: string,
  check: ArtifactCheck,
): Blocker[] {
  const spec = protocol.prerequisites.stages.find((s) => s.id === stage);
  if (!spec) return [{ stage, reason: "the protocol does not describe this stage" }];
  const binding = bindingProblem(protocol, conveyor);
  if (binding) return [binding];
  return spec.needs_stages.flatMap((need) => walkStages(protocol, need, conveyor, check));
}
