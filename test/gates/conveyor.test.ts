import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { conveyorSchema, prerequisiteStatus, type Conveyor, type Evidence } from "../../src/gates/index.ts";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { bundled } from "../helpers/bundled.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const { protocol } = bundled();
const bundledConveyor = conveyorSchema.parse(JSON.parse(readFileSync("manifests/conveyor.json", "utf8")));
const evidence: Evidence = {
  artifact_path: "x.json",
  artifact_sha256: "0".repeat(64),
  source_revision: "a".repeat(40),
  run_id: null,
  recorded_at: "2026-11-30T00:00:00.000Z",
};
const ok = () => "ok" as const;

function withStages(edit: (c: Conveyor) => void): Conveyor {
  const c = structuredClone(bundledConveyor);
  edit(c);
  return c;
}

/** #431 failed (terminal) and #432 succeeded with evidence and its frozen artifact. */
const satisfied = () =>
  withStages((c) => {
    c.stages[0] = { ...c.stages[0]!, state: "failed", evidence };
    c.stages[1] = {
      ...c.stages[1]!,
      state: "succeeded",
      evidence,
      artifacts: { held_out_condition_manifest: evidence },
    };
  });

describe("the prerequisite status", () => {
  it("is blocked by the bundled conveyor, naming every missing piece", () => {
    const status = prerequisiteStatus(protocol, bundledConveyor, ok);
    expect(status.satisfied).toBe(false);
    expect(status.blocking).toEqual([
      { stage: "#431", reason: "is pending; needs terminal" },
      { stage: "#432", reason: "is pending; needs succeeded" },
      { stage: "#432", reason: "needs a frozen held_out_condition_manifest" },
    ]);
  });

  it("accepts a failed #431 as terminal, and needs #432 succeeded with evidence and its artifact", () => {
    const done = satisfied();
    expect(prerequisiteStatus(protocol, done, ok)).toEqual({ satisfied: true, blocking: [] });
    const noEvidence = withStages((c) => {
      c.stages[0] = { ...c.stages[0]!, state: "failed", evidence };
      c.stages[1] = {
        ...c.stages[1]!,
        state: "succeeded",
        evidence: null,
        artifacts: { held_out_condition_manifest: evidence },
      };
    });
    expect(prerequisiteStatus(protocol, noEvidence, ok).blocking).toEqual([
      { stage: "#432", reason: "is succeeded but has no evidence" },
    ]);
    expect(prerequisiteStatus(protocol, done, () => "changed").satisfied).toBe(false);
  });

  it("unlocks nothing for another protocol, by id or by hash, and refuses a stage listed twice", () => {
    const done = satisfied();
    expect(prerequisiteStatus(protocol, { ...done, protocol_id: "some-other-protocol" }, ok)).toEqual({
      satisfied: false,
      blocking: [
        {
          stage: "conveyor",
          reason: "records the state of protocol some-other-protocol, not fabench-424-final-answer-v4",
        },
      ],
    });
    const edited = { ...protocol, title: `${protocol.title} (edited)` };
    const byHash = prerequisiteStatus(edited, done, ok);
    expect(byHash.satisfied).toBe(false);
    // The conveyor names the first 12 hex digits of the protocol hash it was bound to.
    expect(byHash.blocking[0]?.reason).toMatch(
      new RegExp(
        `^was bound to protocol fabench-424-final-answer-v4 with sha256 ${bundledConveyor.protocol_sha256.slice(0, 12)}…, not `,
      ),
    );
    const twice = { ...bundledConveyor, stages: [...bundledConveyor.stages, bundledConveyor.stages[0]!] };
    const parsed = conveyorSchema.safeParse(twice);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("stage #431 is listed twice");
  });

  it("blocks on evidence that lies outside the evidence root", () => {
    const done = satisfied();
    expect(prerequisiteStatus(protocol, done, () => "outside").blocking).toContainEqual({
      stage: "#432",
      reason: "evidence artifact x.json lies outside the evidence root",
    });
  });

  it("is satisfied without a conveyor when the protocol has no gate stage", () => {
    expect(
      prerequisiteStatus({ ...protocol, prerequisites: { gate_stage: null, stages: [] } }, null, ok)
        .satisfied,
    ).toBe(true);
  });
});

describe("fabench conveyor", () => {
  const temp = useTempDir();

  it("records evidence by hashing the artifact, and blocks again when the artifact changes", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const status = await runCli(["conveyor", "status", "--conveyor", conveyor, "--json"]);
    expect(JSON.parse(status.out)).toMatchObject({ satisfied: true, blocking: [] });
    writeFileSync(join(dir, "432.json"), "tampered\n");
    const after = JSON.parse(
      (await runCli(["conveyor", "status", "--conveyor", conveyor, "--json"])).out,
    ) as { satisfied: boolean; blocking: Array<{ reason: string }> };
    expect(after.satisfied).toBe(false);
    expect(after.blocking[0]?.reason).toContain("no longer matches its recorded sha256");
  });

  it("refuses evidence outside the conveyor's folder unless --evidence-root names it, and empty evidence", async () => {
    const dir = temp();
    const conveyor = join(dir, "state", "conveyor.json");
    mkdirSync(join(dir, "state"));
    copyFileSync("manifests/conveyor.json", conveyor);
    writeFileSync(join(dir, "431.json"), '{"stage": "431"}\n');
    writeFileSync(join(dir, "state", "empty.json"), "");
    const rev = ["--source-revision", "a".repeat(40), "--conveyor", conveyor];
    const outside = await runCli([
      "conveyor",
      "record",
      "#431",
      "--state",
      "failed",
      "--artifact",
      join(dir, "431.json"),
      ...rev,
    ]);
    expect(outside.code).toBe(2);
    expect(outside.err).toMatch(
      /^evidence_outside_root: .*431\.json lies outside the evidence root .*state; keep evidence beside the conveyor, or name its folder with --evidence-root\n$/,
    );
    const empty = await runCli([
      "conveyor",
      "record",
      "#431",
      "--state",
      "failed",
      "--artifact",
      join(dir, "state", "empty.json"),
      ...rev,
    ]);
    expect(empty.err).toMatch(/^empty_evidence: /);
    const rooted = await runCli([
      "conveyor",
      "record",
      "#431",
      "--state",
      "failed",
      "--artifact",
      join(dir, "431.json"),
      "--evidence-root",
      dir,
      ...rev,
    ]);
    expect(rooted.code).toBe(0);
    const saved = JSON.parse(readFileSync(conveyor, "utf8"));
    expect([saved.evidence_root, saved.stages[0].evidence.artifact_path]).toEqual(["..", "../431.json"]);
    // Narrowing the root again puts the recorded evidence outside it: blocked, not unlocked.
    writeFileSync(conveyor, JSON.stringify({ ...saved, evidence_root: "." }));
    const status = JSON.parse((await runCli(["conveyor", "status", "--conveyor", conveyor, "--json"])).out);
    expect(status.blocking).toContainEqual({
      stage: "#431",
      reason: "evidence artifact ../431.json lies outside the evidence root",
    });
  });

  it("records in every model run which conveyor file opened the lock", async () => {
    const conveyor = await satisfiedConveyor(temp());
    const sha = createHash("sha256").update(readFileSync(conveyor)).digest("hex");
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));
    const { unlockRecord } = await import("../../src/world/index.ts");
    expect(unlockRecord(protocol, conveyor)).toEqual({
      gate_stage: "#432",
      conveyor_path: conveyor,
      conveyor_sha256: sha,
    });
    expect(
      unlockRecord({ ...protocol, prerequisites: { ...protocol.prerequisites, gate_stage: null } }, conveyor),
    ).toEqual({
      gate_stage: null,
      conveyor_path: null,
      conveyor_sha256: null,
    });
  });

  it("prints the bundled chain as blocked", async () => {
    const run = await runCli(["conveyor", "status"]);
    expect(run.out).toContain("gate stage: #432 — BLOCKED");
    expect(run.out).toContain("lacks: needs a frozen held_out_condition_manifest");
  });
});
