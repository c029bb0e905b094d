import { readFileSync, writeFileSync } from "node:fs";
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
    const done = withStages((c) => {
      c.stages[0] = { ...c.stages[0]!, state: "failed", evidence };
      c.stages[1] = {
        ...c.stages[1]!,
        state: "succeeded",
        evidence,
        artifacts: { held_out_condition_manifest: evidence },
      };
    });
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

  it("prints the bundled chain as blocked", async () => {
    const run = await runCli(["conveyor", "status"]);
    expect(run.out).toContain("gate stage: #432 — BLOCKED");
    expect(run.out).toContain("lacks: needs a frozen held_out_condition_manifest");
  });
});
