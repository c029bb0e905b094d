/**
 * The one loader: the bundled world loads into one frozen value whose parts agree, and a part
 * that does not belong to the others is refused with the code a user sees from every command.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalSha256, FabenchError } from "../../src/core/index.ts";
import { loadWorld } from "../../src/world/index.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const BUNDLED = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
};

async function codeOf(load: () => Promise<unknown>): Promise<string> {
  try {
    await load();
  } catch (error) {
    if (error instanceof FabenchError) return error.code;
    throw error;
  }
  return "loaded";
}

describe("loadWorld", () => {
  const folder = useSuiteTempDir();

  it("loads the bundled world once, checked and frozen, with only the paths it was given", async () => {
    const options = {
      ...BUNDLED,
      manifest: "manifests/condition-manifest.json",
      conveyor: "manifests/conveyor.json",
      // What a command's options may also hold must not travel with the world.
      env: { ANTHROPIC_API_KEY: "sk-secret" },
    };
    const world = await loadWorld(options);
    expect(Object.isFrozen(world)).toBe(true);
    expect(world.corpus.tasks).toHaveLength(144);
    expect(world.catalogs.map((c) => c.size)).toEqual([100, 250]);
    expect(world.manifest.value.corpus_tasks_sha256).toBe(world.corpus.tasksSha256);
    expect(world.manifest.value.protocol_sha256).toBe(world.protocolSha256);
    // The bundled conveyor has not recorded the prerequisite's success: the lock is closed.
    expect(world.prerequisite.satisfied).toBe(false);
    expect(JSON.stringify(world.paths)).not.toContain("sk-secret");
    expect(Object.keys(world.paths).sort()).toEqual(
      ["catalogs", "conveyor", "corpus", "manifest", "plan", "protocol"].sort(),
    );
  });

  it("leaves out the manifest and the lock's status when their paths are not given", async () => {
    const world = await loadWorld(BUNDLED);
    expect(world.manifest).toBeNull();
    expect(world.prerequisite).toBeNull();
  });

  it("refuses a plan made from another protocol, and a manifest frozen from another corpus", async () => {
    const protocol = JSON.parse(readFileSync(BUNDLED.protocol, "utf8"));
    protocol.statistics.seed += 1;
    writeFileSync(join(folder(), "protocol.json"), JSON.stringify(protocol));
    expect(await codeOf(() => loadWorld({ ...BUNDLED, protocol: join(folder(), "protocol.json") }))).toBe(
      "plan_protocol_mismatch",
    );
    const manifest = JSON.parse(readFileSync("manifests/condition-manifest.json", "utf8"));
    manifest.corpus_tasks_sha256 = "0".repeat(64);
    // Still a well-formed manifest (its own hash recomputed): only its inputs are another corpus's.
    const { manifest_sha256: _, ...body } = manifest;
    manifest.manifest_sha256 = canonicalSha256(body);
    writeFileSync(join(folder(), "manifest.json"), JSON.stringify(manifest));
    expect(await codeOf(() => loadWorld({ ...BUNDLED, manifest: join(folder(), "manifest.json") }))).toBe(
      "condition_manifest_mismatch",
    );
  });

  it("blocks on a missing conveyor file rather than failing", async () => {
    const world = await loadWorld({ ...BUNDLED, conveyor: join(folder(), "no-such-conveyor.json") });
    expect(world.prerequisite.satisfied).toBe(false);
  });
});
