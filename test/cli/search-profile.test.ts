import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

describe("conditions profile --search", () => {
  it("reports recall@k of both portable searches at both bundled catalog sizes, by stratum and language", async () => {
    const run = await runCli(["conditions", "profile", "--search", "--json"]);
    expect(run.code).toBe(0);
    const profile = JSON.parse(run.out) as {
      k: number;
      engines: string[];
      rows: Array<{
        engine: string;
        catalog_size: number;
        scope: string;
        group: string;
        tasks: number;
        recall: number;
      }>;
    };
    expect(profile.k).toBe(5);
    expect(profile.engines).toEqual(["bm25", "regex"]);
    // 2 engines × 2 sizes × (all + 6 strata + 6 languages).
    expect(profile.rows).toHaveLength(52);
    const pooled = profile.rows.filter((r) => r.scope === "all");
    expect(pooled.map((r) => [r.engine, r.catalog_size, r.tasks])).toEqual([
      ["bm25", 100, 144],
      ["bm25", 250, 144],
      ["regex", 100, 144],
      ["regex", 250, 144],
    ]);
    // Measured on the frozen corpus and catalogs (the table in the report): a change here is a change of engine.
    expect(pooled.map((r) => r.recall.toFixed(3))).toEqual(["0.462", "0.378", "0.394", "0.302"]);
  }, 180_000);

  it("prints the table as text, and --k changes the cut", async () => {
    const run = await runCli(["conditions", "profile", "--search", "--k", "10"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("required routes among the first 10 hits");
    expect(run.out).toMatch(/^all tasks\s+\S+ \/ \S+\s+/m);
    expect(run.out).toContain("bm25 @ 100");
    expect(run.out).toContain("regex @ 250");
  }, 180_000);
});
