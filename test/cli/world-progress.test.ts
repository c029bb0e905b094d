/**
 * While the world loads, a terminal is told what is being checked (one line per step on stderr);
 * piped output and `--json` get nothing, so transcripts and scripts stay byte for byte as before.
 */
import { describe, expect, it } from "vitest";
import { worldHooks } from "../../src/commands/shell/world-hooks.ts";
import { loadWorld } from "../../src/world/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const BUNDLED = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
  manifest: "manifests/condition-manifest.json",
};

async function stderrOf(isTty: boolean, json: boolean, env: Record<string, string> = {}) {
  let err = "";
  const io = { out: () => undefined, err: (t: string) => void (err += t), isTty, env };
  await loadWorld(BUNDLED, worldHooks(io, json));
  return err;
}

describe("progress while the world loads", () => {
  const temp = useTempDir();

  it("shows one line per step on a terminal, and says when the checks were skipped", async () => {
    const env = { FABENCH_CACHE_DIR: join(temp(), "cache") };
    expect(await stderrOf(true, false, env)).toBe(
      [
        "checking the protocol, the plan and the catalogs…",
        "checking the corpus (144 tasks)…",
        "checking the condition manifest…",
        "",
      ].join("\n"),
    );
    expect(await stderrOf(true, false, env)).toContain(
      "the corpus (144 tasks) passed every check before: not checked again\n",
    );
  });

  it("writes nothing when stderr is not a terminal, or under --json", async () => {
    expect(await stderrOf(false, false)).toBe("");
    expect(await stderrOf(true, true)).toBe("");
  });
});
