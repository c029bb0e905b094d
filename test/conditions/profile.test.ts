import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { routingProfile, type ConditionManifest } from "../../src/conditions/routing/index.ts";

const sha = "0".repeat(64);
/** Two tasks at one size. t1 needs a (rank 1) and b (rank 7); t2 needs c (rank 2). */
const manifest: ConditionManifest = {
  format: "fabench-condition-manifest/v1",
  protocol_id: "p",
  protocol_sha256: sha,
  plan_slots_sha256: sha,
  corpus_tasks_sha256: sha,
  catalogs: [{ size: 100, sha256: sha }],
  router: { id: "keyword", config_sha256: sha, config: {} },
  conditions: ["FULL", "SR-5", "SR-PROGRESSIVE"],
  entries: [
    {
      semantic_task_id: "t1",
      catalog_size: 100,
      required_route_ranks: { "x.a": 1, "x.b": 7 },
      conditions: {
        FULL: { stages: ["all"] },
        "SR-5": { stages: [["x.a", "y.1", "y.2", "y.3", "y.4"]] },
        "SR-PROGRESSIVE": { stages: [["x.a", "y.1", "y.2"], "all"] },
      },
    },
    {
      semantic_task_id: "t2",
      catalog_size: 100,
      required_route_ranks: { "x.c": 2 },
      conditions: {
        FULL: { stages: ["all"] },
        "SR-5": { stages: [["x.c", "y.1", "y.2", "y.3", "y.4"]] },
        "SR-PROGRESSIVE": { stages: [["x.c", "y.1", "y.2"], "all"] },
      },
    },
  ],
  manifest_sha256: sha,
};
const cells = new Map([
  ["t1", { stratum: "s1", language: "en" }],
  ["t2", { stratum: "s2", language: "en" }],
]);

describe("the routing profile", () => {
  const profile = routingProfile(manifest, cells);
  const row = (condition: string, group: string) =>
    profile.coverage.find((r) => r.condition === condition && r.group === group);

  it("counts the required routes each condition shows in its first stage", () => {
    // SR-5: t1 sees 1 of 2, t2 sees 1 of 1 → mean share 0.75; one task of two sees all.
    expect(row("SR-5", "all")).toMatchObject({
      tasks: 2,
      required_route_coverage: 0.75,
      all_required_visible: 0.5,
    });
    expect(row("SR-5", "s1")).toMatchObject({
      scope: "stratum",
      tasks: 1,
      required_route_coverage: 0.5,
      all_required_visible: 0,
    });
    expect(row("SR-5", "s2")).toMatchObject({ required_route_coverage: 1, all_required_visible: 1 });
    // SR-PROGRESSIVE is judged on its first stage (top 3), FULL shows everything.
    expect(row("SR-PROGRESSIVE", "all")).toMatchObject({ required_route_coverage: 0.75 });
    expect(row("FULL", "all")).toMatchObject({ required_route_coverage: 1, all_required_visible: 1 });
  });

  it("counts a task as outranked when a route it does not need ranks above one it needs", () => {
    // t1: two required routes, worst rank 7 > 2 → outranked; t2: one required route at rank 2 > 1 → outranked.
    expect(profile.outranked.find((r) => r.group === "all")?.outranked).toBe(1);
    const ranked = routingProfile(
      { ...manifest, entries: [{ ...manifest.entries[0]!, required_route_ranks: { "x.a": 2, "x.b": 1 } }] },
      cells,
    );
    expect(ranked.outranked.find((r) => r.group === "all")?.outranked).toBe(0);
  });
});

describe("the bundled manifest's difficulty (keyword router)", () => {
  const bundledManifest = JSON.parse(
    readFileSync("manifests/condition-manifest.json", "utf8"),
  ) as ConditionManifest;
  const plan = JSON.parse(readFileSync("manifests/authoring-plan.json", "utf8")) as {
    slots: Array<{ semantic_task_id: string; answer_task_stratum: string; language: string }>;
  };
  const profile = routingProfile(
    bundledManifest,
    new Map(
      plan.slots.map((s) => [s.semantic_task_id, { stratum: s.answer_task_stratum, language: s.language }]),
    ),
  );
  const pooled = (condition: string, size: number) =>
    profile.coverage.find((r) => r.condition === condition && r.catalog_size === size && r.scope === "all")!
      .required_route_coverage;

  it("shows SR-5 between 0.55 and 0.90 of the required routes on the 250 catalog, and fewer than SR-10", () => {
    expect(pooled("SR-5", 250)).toBeGreaterThanOrEqual(0.55);
    expect(pooled("SR-5", 250)).toBeLessThanOrEqual(0.9);
    expect(pooled("SR-5", 250)).toBeLessThan(pooled("SR-10", 250));
    expect([pooled("FULL", 250), pooled("ORACLE", 250)]).toEqual([1, 1]);
  });

  it("lets a route that is not required outrank a required one for at least 40 % of tasks", () => {
    expect(
      profile.outranked.find((r) => r.catalog_size === 250 && r.scope === "all")!.outranked,
    ).toBeGreaterThanOrEqual(0.4);
  });
});
