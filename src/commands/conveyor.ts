import { dirname, relative, resolve } from "node:path";
import type { Protocol } from "../authoring/index.ts";
import {
  canonicalSha256,
  FabenchError,
  isInsideFolder,
  readBytes,
  sha256Hex,
  usageError,
  writeJsonAtomic,
} from "../core/index.ts";
import {
  prerequisiteStatus,
  STAGE_STATES,
  unmetNeeds,
  type ArtifactCheck,
  type Conveyor,
  type Evidence,
} from "../gates/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { artifactCheck, evidenceRoot, loadConveyor, loadProtocol } from "../world/index.ts";

export interface StatusOptions {
  readonly protocol: string;
  readonly conveyor: string;
  readonly json: boolean;
}

export function conveyorStatus(options: StatusOptions, io: CliIo): number {
  const protocol = loadProtocol(options.protocol).value;
  const conveyor = loadConveyor(options.conveyor);
  const status = prerequisiteStatus(
    protocol,
    conveyor,
    artifactCheck(options.conveyor, evidenceRoot(options.conveyor, conveyor)),
  );
  if (options.json) {
    printJson(io, {
      gate_stage: protocol.prerequisites.gate_stage,
      satisfied: status.satisfied,
      blocking: status.blocking,
      stages: conveyor.stages,
    });
    return EXIT.ok;
  }
  const lines = [
    `gate stage: ${protocol.prerequisites.gate_stage ?? "none"} — ${status.satisfied ? "SATISFIED" : "BLOCKED"}`,
  ];
  for (const spec of protocol.prerequisites.stages) {
    const state = conveyor.stages.find((s) => s.id === spec.id);
    const needs = [...spec.needs_stages, ...spec.needs_artifacts].join(", ") || "nothing";
    lines.push(
      `${spec.id} ${spec.title}: ${state?.state ?? "unrecorded"} (required: ${spec.required_state}; needs: ${needs})`,
    );
    if (state?.evidence)
      lines.push(
        `    evidence: ${state.evidence.artifact_path} sha256 ${state.evidence.artifact_sha256.slice(0, 12)}… at ${state.evidence.source_revision.slice(0, 12)}`,
      );
    for (const b of status.blocking.filter((x) => x.stage === spec.id)) lines.push(`    lacks: ${b.reason}`);
  }
  io.out(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export interface RecordOptions {
  readonly protocol: string;
  readonly conveyor: string;
  readonly stage: string;
  readonly state?: string;
  readonly artifact: string;
  readonly artifactName?: string;
  readonly sourceRevision: string;
  readonly runId?: string;
  /** A folder evidence may lie in, other than the conveyor's own (recorded in the conveyor). */
  readonly evidenceRoot?: string;
  readonly json: boolean;
}

export function conveyorRecord(
  options: RecordOptions,
  io: CliIo,
  now: () => Date = () => new Date(),
): number {
  checkRecordOptions(options);
  const protocol = loadProtocol(options.protocol).value;
  const conveyor = loadConveyor(options.conveyor);
  checkConveyorOf(conveyor, protocol, options);
  const rootSetting =
    options.evidenceRoot === undefined
      ? conveyor.evidence_root
      : relative(dirname(resolve(options.conveyor)), resolve(options.evidenceRoot)) || ".";
  const root = evidenceRoot(options.conveyor, {
    ...(rootSetting === undefined ? {} : { evidence_root: rootSetting }),
  });
  if (!isInsideFolder(options.artifact, root))
    throw usageError(
      "evidence_outside_root",
      `${options.artifact} lies outside the evidence root ${root}; keep evidence beside the conveyor, or name its folder with --evidence-root`,
    );
  if (options.state === "succeeded")
    checkCanSucceed(protocol, conveyor, options, artifactCheck(options.conveyor, root));
  const bytes = readBytes(options.artifact, "evidence");
  if (bytes.length === 0)
    throw usageError("empty_evidence", `${options.artifact} is empty; evidence is the stage's real output`);
  const evidence: Evidence = {
    artifact_path: relative(dirname(resolve(options.conveyor)), resolve(options.artifact)),
    artifact_sha256: sha256Hex(bytes),
    source_revision: options.sourceRevision,
    run_id: options.runId ?? null,
    recorded_at: now().toISOString(),
  };
  writeJsonAtomic(options.conveyor, withEvidence(conveyor, options, rootSetting, evidence));
  if (options.json) printJson(io, { ok: true, stage: options.stage, evidence });
  else
    io.out(
      `recorded ${options.stage}${options.artifactName ? ` artifact ${options.artifactName}` : ` as ${options.state}`}: ${evidence.artifact_path} sha256 ${evidence.artifact_sha256}\n`,
    );
  return EXIT.ok;
}

function checkRecordOptions(options: RecordOptions): void {
  if (!/^[0-9a-f]{40}$/.test(options.sourceRevision))
    throw usageError("bad_source_revision", "--source-revision takes 40 lowercase hex digits");
  if ((options.state === undefined) === (options.artifactName === undefined))
    throw usageError(
      "bad_record",
      "give either --state STATE (the stage's own result) or --artifact-name NAME (a frozen artifact it needs)",
    );
  if (options.state !== undefined && !(STAGE_STATES as readonly string[]).includes(options.state))
    throw usageError("bad_state", `--state takes ${STAGE_STATES.join(", ")}`);
}

/** The stage must be the protocol's and the conveyor's, and a conveyor belongs to one protocol: id and canonical hash. */
function checkConveyorOf(conveyor: Conveyor, protocol: Protocol, options: RecordOptions): void {
  const stage = conveyor.stages.find((s) => s.id === options.stage);
  const spec = protocol.prerequisites.stages.find((s) => s.id === options.stage);
  if (!stage || !spec)
    throw usageError(
      "unknown_stage",
      `no stage ${options.stage} in the protocol and conveyor (have ${conveyor.stages.map((s) => s.id).join(", ")})`,
    );
  const protocolSha256 = canonicalSha256(protocol);
  if (conveyor.protocol_id !== protocol.protocol_id || conveyor.protocol_sha256 !== protocolSha256)
    throw usageError(
      "conveyor_protocol_mismatch",
      `${options.conveyor} records protocol ${conveyor.protocol_id} (${conveyor.protocol_sha256.slice(0, 12)}…), not ${protocol.protocol_id} (${protocolSha256.slice(0, 12)}…)`,
    );
}

/** A stage may be recorded as succeeded only once everything it needs is in place (exit 1 otherwise). */
function checkCanSucceed(
  protocol: Protocol,
  conveyor: Conveyor,
  options: RecordOptions,
  check: ArtifactCheck,
): void {
  const unmet = unmetNeeds(protocol, conveyor, options.stage, check);
  if (unmet.length > 0)
    throw new FabenchError({
      kind: "validation",
      stage: "conveyor",
      code: "prerequisite_unmet",
      message: "",
      problems: unmet.map((b) => ({
        code: "prerequisite_unmet",
        file: options.conveyor,
        message: `${options.stage} cannot succeed yet: ${b.stage} ${b.reason}`,
      })),
    });
}

/** The conveyor with this evidence recorded: as the stage's own result, or as one of its artifacts. */
function withEvidence(
  conveyor: Conveyor,
  options: RecordOptions,
  rootSetting: string | undefined,
  evidence: Evidence,
): Conveyor {
  return {
    ...conveyor,
    ...(rootSetting === undefined ? {} : { evidence_root: rootSetting }),
    stages: conveyor.stages.map((s) =>
      s.id !== options.stage
        ? s
        : options.artifactName !== undefined
          ? { ...s, artifacts: { ...s.artifacts, [options.artifactName]: evidence } }
          : { ...s, state: options.state as Conveyor["stages"][number]["state"], evidence },
    ),
  };
}
