import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Protocol } from "../../src/authoring/index.ts";
import {
  conditionStages,
  createRouter,
  freezeConditions,
  keywordRanking,
  parseConditionManifest,
} from "../../src/conditions/routing/index.ts";
import { canonicalSha256, formatJsonFile } from "../../src/core/index.ts";
import { runCli } from "../helpers/cli.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol, plan, catalogs, corpus } = bundled();
const freeze = (p: Protocol = protocol) =>
  freezeConditions({
    protocol: p,
    protocolSha256: canonicalSha256(p),
    plan,
    tasks: corpus.tasks,
    tasksSha256: corpus.tasks_sha256,
    catalogs,
    router: createRouter("keyword"),
  });

describe("the condition manifest", () => {
  it("is byte-identical to a fresh freeze with the keyword router", async () => {
    const result = await freeze();
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(formatJsonFile(result.value)).toBe(readFileSync("manifests/condition-manifest.json", "utf8"));
  });

  it("derives each condition's stages from its declared visibility, sorted by route id", () => {
    const task = corpus.tasks[0]!;
    const ranking = ["z.b", "a.c", "m.d", "b.e", "c.f", "k.g", "x.h", "y.i", "q.j", "w.k", "e.l"];
    expect(conditionStages({ kind: "all_routes" }, ranking, task)).toEqual(["all"]);
    expect(conditionStages({ kind: "required_routes" }, ranking, task)).toEqual([["materials.current"]]);
    expect(conditionStages({ kind: "top_k", k: 3 }, ranking, task)).toEqual([["a.c", "m.d", "z.b"]]);
    expect(conditionStages({ kind: "progressive", stages: [2, 4, null] }, ranking, task)).toEqual([
      ["a.c", "z.b"],
      ["a.c", "b.e", "m.d", "z.b"],
      "all",
    ]);
  });

  it("records where each required route ranked", async () => {
    const result = await freeze();
    if (!result.ok) throw new Error("freeze failed");
    // es-04 walks registry → export → status → share (tasks/authored/corrective_expansion_required.json).
    const entry = result.value.entries.find(
      (e) => e.semantic_task_id === "v4-corrective_expansion_required-es-04" && e.catalog_size === 100,
    )!;
    expect(Object.keys(entry.required_route_ranks)).toEqual([
      "materials.retrieve",
      "exports.export",
      "exports.status",
      "messaging.share",
    ]);
    // Each rank is the route's 1-based place in the keyword router's ranking of the task's request.
    const task = corpus.tasks.find((t) => t.semantic_task_id === entry.semantic_task_id)!;
    const ranking = keywordRanking(task.query, catalogs.find((c) => c.size === 100)!.catalog.endpoints);
    for (const [route, rank] of Object.entries(entry.required_route_ranks))
      expect([route, rank]).toEqual([route, ranking.indexOf(route) + 1]);
  });

  it("refuses to freeze when a corrective task's first progressive stage shows every required route", async () => {
    const wide = structuredClone(protocol);
    const progressive = wide.conditions.find((c) => c.visibility.kind === "progressive")!;
    progressive.visibility = { kind: "progressive", stages: [100, null] };
    const result = await freeze(wide);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(new Set(result.problems.map((p) => p.code))).toEqual(new Set(["corrective_miss_not_confirmed"]));
      expect(result.problems).toHaveLength(24);
    }
  });

  it("refuses a manifest whose content no longer matches its own hash", () => {
    const manifest = JSON.parse(readFileSync("manifests/condition-manifest.json", "utf8"));
    manifest.entries[0].conditions["SR-5"].stages[0].push("inventory.delete");
    const result = parseConditionManifest(manifest, "m.json");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["condition_manifest_hash_mismatch"]);
  });

  it("passes `conditions freeze --check` and shows a task's conditions", async () => {
    const check = await runCli(["conditions", "freeze", "--check"]);
    expect(check.code).toBe(0);
    // The keyword router names routes for every bundled query (no router_ranked_nothing warning).
    expect(check.err).not.toContain("router_ranked_nothing");
    const show = await runCli([
      "conditions",
      "show",
      "--task",
      "v4-multi_source_comparison-de-02",
      "--catalog-size",
      "250",
    ]);
    expect(show.code).toBe(0);
    expect(show.out).toContain("SR-PROGRESSIVE:");
    expect(show.out).toContain("stage 3: all 250 routes");
    expect((await runCli(["conditions", "show", "--task", "nope"])).code).toBe(2);
  });
});
