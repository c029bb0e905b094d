/** A conveyor file in which #432 has succeeded with evidence, so model agents may run. */
import { copyFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";
import { runCli } from "./cli.ts";
import { join } from "./temp.ts";

export async function satisfiedConveyor(dir: string): Promise<string> {
  const conveyor = join(dir, "conveyor.json");
  copyFileSync("manifests/conveyor.json", conveyor);
  for (const name of ["431.json", "held-out.json", "432.json"])
    writeFileSync(join(dir, name), `{"artifact": "${name}"}\n`);
  const record = (args: string[]) =>
    runCli(["conveyor", "record", ...args, "--source-revision", "a".repeat(40), "--conveyor", conveyor]);
  expect((await record(["#431", "--state", "succeeded", "--artifact", join(dir, "431.json")])).code).toBe(0);
  expect(
    (
      await record([
        "#432",
        "--artifact-name",
        "held_out_condition_manifest",
        "--artifact",
        join(dir, "held-out.json"),
      ])
    ).code,
  ).toBe(0);
  expect(
    (await record(["#432", "--state", "succeeded", "--artifact", join(dir, "432.json"), "--run-id", "run-7"]))
      .code,
  ).toBe(0);
  return conveyor;
}
