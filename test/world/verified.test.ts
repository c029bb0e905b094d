/**
 * A verified world is remembered by the SHA-256 of its files: the second load of the same bytes
 * skips the content checks (seen through the progress lines the loader reports), one changed byte
 * checks again, and a corrupt marker or an unwritable cache folder costs time, never a result.
 */
import { appendFileSync, copyFileSync, readdirSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { placeTool, toolRoot, userCacheDir } from "../../src/core/index.ts";
import { checkCodeIdentity, loadWorld, verifiedWorldsIn, type CheckHooks } from "../../src/world/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const BUNDLED = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
};

const CHECKING = "checking the corpus (144 tasks)…";
const SKIPPED = "the corpus (144 tasks) passed every check before: not checked again";

/** Loads the world with the cache in `dir`; returns the corpus's task hash and the lines reported. */
async function load(dir: string | null, corpus = BUNDLED.corpus) {
  const lines: string[] = [];
  const hooks: CheckHooks = { verified: verifiedWorldsIn(dir), progress: (line) => lines.push(line) };
  const world = await loadWorld({ ...BUNDLED, corpus }, hooks);
  return { tasksSha256: world.corpus.tasksSha256, tasks: world.corpus.tasks, lines };
}

describe("the verified-world cache", () => {
  const temp = useTempDir();

  it("checks the first time, skips the checks the second time, and loads the same tasks", async () => {
    const cache = join(temp(), "cache");
    const uncached = await load(null);
    const first = await load(cache);
    const second = await load(cache);
    expect(first.lines).toContain(CHECKING);
    expect(second.lines).toContain(SKIPPED);
    expect(second.lines).not.toContain(CHECKING);
    expect(second.tasksSha256).toBe(uncached.tasksSha256);
    expect(second.tasks).toEqual(uncached.tasks);
    expect(readdirSync(join(cache, "verified-worlds"))).toHaveLength(1);
  });

  it("checks again when one byte of the corpus changed", async () => {
    const cache = join(temp(), "cache");
    const corpus = join(temp(), "corpus.json");
    copyFileSync(BUNDLED.corpus, corpus);
    await load(cache, corpus);
    appendFileSync(corpus, " "); // still the same JSON, but not the same bytes
    const again = await load(cache, corpus);
    expect(again.lines).toContain(CHECKING);
    expect(readdirSync(join(cache, "verified-worlds"))).toHaveLength(2);
  });

  it("checks again when the marker is corrupt, and repairs it", async () => {
    const cache = join(temp(), "cache");
    await load(cache);
    const folder = join(cache, "verified-worlds");
    for (const name of readdirSync(folder)) writeFileSync(join(folder, name), '{"format":"fabench-verif');
    expect((await load(cache)).lines).toContain(CHECKING);
    expect((await load(cache)).lines).toContain(SKIPPED);
  });

  it("refuses a marker that names another key or a malformed task hash", async () => {
    const cache = join(temp(), "cache");
    await load(cache);
    const folder = join(cache, "verified-worlds");
    const [name] = readdirSync(folder);
    const key = (name as string).replace(/\.json$/, "");
    const marker = (fields: object) => writeFileSync(join(folder, name as string), JSON.stringify(fields));
    marker({ format: "fabench-verified-world-v1", key: "0".repeat(64), tasks_sha256: "a".repeat(64) });
    expect((await load(cache)).lines).toContain(CHECKING);
    marker({ format: "fabench-verified-world-v1", key, tasks_sha256: "not a hash" });
    expect((await load(cache)).lines).toContain(CHECKING);
  });

  it("still loads when the cache folder cannot be made (a file stands in its way)", async () => {
    const blocker = join(temp(), "a-file");
    writeFileSync(blocker, "");
    const cache = join(blocker, "cache");
    const first = await load(cache);
    const second = await load(cache);
    expect(second.lines).toContain(CHECKING);
    expect(second.tasksSha256).toBe(first.tasksSha256);
  });
});

describe("userCacheDir", () => {
  it("takes FABENCH_CACHE_DIR, else XDG_CACHE_HOME/fabench, else HOME/.cache/fabench", () => {
    const env = { FABENCH_CACHE_DIR: "/c/f", XDG_CACHE_HOME: "/c/x", HOME: "/h" };
    expect(userCacheDir(env)).toBe("/c/f");
    expect(userCacheDir({ ...env, FABENCH_CACHE_DIR: undefined })).toBe("/c/x/fabench");
    expect(userCacheDir({ HOME: "/h" })).toBe("/h/.cache/fabench");
    expect(userCacheDir({})).toBeNull();
  });

  it("is off with FABENCH_NO_CACHE=1, for a relative folder, and inside fabench's own folder", () => {
    expect(userCacheDir({ FABENCH_NO_CACHE: "1", FABENCH_CACHE_DIR: "/c/f" })).toBeNull();
    expect(userCacheDir({ FABENCH_NO_CACHE: "0", FABENCH_CACHE_DIR: "/c/f" })).toBe("/c/f");
    expect(userCacheDir({ FABENCH_CACHE_DIR: "relative/cache" })).toBeNull();
    expect(userCacheDir({ FABENCH_CACHE_DIR: join(toolRoot(), ".cache") })).toBeNull();
  });
});

describe("checkCodeIdentity", () => {
  it("is the version installed, and the version plus the sources' hash in a development checkout", () => {
    const checkout = checkCodeIdentity();
    expect(checkout).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{64}$/);
    expect(checkCodeIdentity()).toBe(checkout);
    const putBack = placeTool({ root: toolRoot(), installed: true });
    try {
      expect(checkCodeIdentity()).toBe(checkout.split("+")[0]);
    } finally {
      putBack();
    }
  });
});
