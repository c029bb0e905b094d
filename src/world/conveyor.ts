/** The prerequisite chain's evidence file (the conveyor) and what it says of the lock. */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Protocol } from "../authoring/index.ts";
import { isInsideFolder, loadWithSchema, readBytes, sha256Hex } from "../core/index.ts";
import {
  CONVEYOR_FORMAT,
  conveyorSchema,
  prerequisiteStatus,
  type ArtifactCheck,
  type Conveyor,
  type Evidence,
  type PrerequisiteStatus,
} from "../gates/index.ts";

export function loadConveyor(path: string): Conveyor {
  return loadWithSchema(path, "conveyor", conveyorSchema, "invalid_conveyor", CONVEYOR_FORMAT);
}

/** The folder evidence must lie in: the conveyor's `evidence_root`, relative to its folder, or that folder. */
export function evidenceRoot(conveyorPath: string, conveyor: Pick<Conveyor, "evidence_root">): string {
  return resolve(dirname(conveyorPath), conveyor.evidence_root ?? ".");
}

/** Artifact paths are relative to the conveyor file's folder; the bytes are hashed now, if they lie in the root. */
export function artifactCheck(conveyorPath: string, root: string): ArtifactCheck {
  return (evidence: Evidence) => {
    const path = join(dirname(conveyorPath), evidence.artifact_path);
    if (!isInsideFolder(path, root)) return "outside";
    if (!existsSync(path)) return "missing";
    return sha256Hex(readBytes(path, "evidence")) === evidence.artifact_sha256 ? "ok" : "changed";
  };
}

/** What opened the lock, for every run record: the conveyor file and its hash (null for no lock). */
export interface Unlock {
  readonly gate_stage: string | null;
  readonly conveyor_path: string | null;
  readonly conveyor_sha256: string | null;
}

export function unlockRecord(protocol: Protocol, conveyorPath: string): Unlock {
  if (protocol.prerequisites.gate_stage === null)
    return { gate_stage: null, conveyor_path: null, conveyor_sha256: null };
  return {
    gate_stage: protocol.prerequisites.gate_stage,
    conveyor_path: conveyorPath,
    conveyor_sha256: sha256Hex(readBytes(conveyorPath, "conveyor")),
  };
}

/** The prerequisite status of a protocol against the conveyor file (a missing file blocks, it does not crash). */
export function prerequisiteFor(protocol: Protocol, conveyorPath: string): PrerequisiteStatus {
  if (protocol.prerequisites.gate_stage === null) return { satisfied: true, blocking: [] };
  const conveyor = existsSync(conveyorPath) ? loadConveyor(conveyorPath) : null;
  return prerequisiteStatus(
    protocol,
    conveyor,
    artifactCheck(conveyorPath, evidenceRoot(conveyorPath, conveyor ?? {})),
  );
}

export function renderBlocking(status: PrerequisiteStatus): string {
  return status.blocking.map((b) => `  ${b.stage}: ${b.reason}`).join("\n");
}
