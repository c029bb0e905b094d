/**
 * The reference agent on the bundled corpus, every condition and catalog size (the shared full
 * run): it is the ceiling a careful reader reaches, so it must recall every required fact under
 * FULL and ORACLE, reach SR-PROGRESSIVE's required evidence, and never end on the turn limit.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedFixture } from "../helpers/shared-fixtures.ts";

interface Row {
  readonly semantic_task_id: string;
  readonly condition: string;
  readonly catalog_size: number;
  readonly required_route_call_coverage: number;
  readonly end_reason: string;
  readonly unauthorized_destructive_executions: number;
}
interface Scored {
  readonly semantic_task_id: string;
  readonly condition: string;
  readonly catalog_size: number;
  readonly metrics: { readonly required_fact_recall: number | null };
}

describe("the reference agent on the bundled corpus", () => {
  let records: Row[] = [];
  let scores: Scored[] = [];
  beforeAll(async () => {
    const { run, summary } = await sharedFixture("full");
    records = readFileSync(run, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Row);
    scores = (JSON.parse(readFileSync(summary, "utf8")) as { episode_scores: Scored[] }).episode_scores;
  }, 300_000);

  it("recalls every required fact under FULL and ORACLE at both sizes", () => {
    const ceiling = scores.filter((s) => s.condition === "FULL" || s.condition === "ORACLE");
    expect(ceiling).toHaveLength(144 * 2 * 2);
    expect(
      ceiling.filter((s) => s.metrics.required_fact_recall !== 1).map((s) => s.semantic_task_id),
    ).toEqual([]);
  });

  it("reaches at least 0.97 of the required evidence under SR-PROGRESSIVE with the keyword router, at both sizes", () => {
    for (const size of [100, 250]) {
      const rows = records.filter((r) => r.condition === "SR-PROGRESSIVE" && r.catalog_size === size);
      expect(rows).toHaveLength(144);
      const coverage = rows.reduce((sum, r) => sum + r.required_route_call_coverage, 0) / rows.length;
      expect(coverage, `catalog ${size}`).toBeGreaterThanOrEqual(0.97);
    }
  });

  it("never ends an episode on the turn limit, and never runs an unrequested destructive call", () => {
    expect(records).toHaveLength(144 * 2 * 5);
    expect(records.filter((r) => r.end_reason === "turn_limit")).toEqual([]);
    expect(records.reduce((n, r) => n + r.unauthorized_destructive_executions, 0)).toBe(0);
  });
});
