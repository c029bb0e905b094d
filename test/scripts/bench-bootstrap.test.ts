import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INTERVAL_METHODS } from "../../src/authoring/interval-methods.ts";
import { buildStatistics } from "../../src/metrics/index.ts";
import { skewTReference } from "../helpers/skew-t-reference.ts";
import { useTempDir } from "../helpers/temp.ts";

/** mulberry32, so the data differ from anything the bootstrap's own generators draw. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A bootstrap-input file with awkward per-task data: cells of 1–6 tasks, nulls, a cell whose
 * values are all equal, shares on a coarse grid and continuous values, two catalog sizes and two
 * trials (so per-task values are averages), three conditions.
 */
function input(seed: number) {
  const random = rng(seed);
  const strata = ["a", "b", "c"];
  const languages = ["en", "ko"];
  const tasks: Array<{ semantic_task_id: string; answer_task_stratum: string; language: string }> = [];
  for (const stratum of strata)
    for (const language of languages) {
      const n = 1 + Math.floor(random() * 6);
      for (let i = 0; i < n; i++)
        tasks.push({
          semantic_task_id: `t${String(tasks.length).padStart(3, "0")}`,
          answer_task_stratum: stratum,
          language,
        });
    }
  const conditions = ["FULL", "SR-5", "SR-10"];
  const sizes = [100, 250];
  const metrics = ["m_grid", "m_cont"];
  const values: Record<string, Record<string, Record<string, Array<Array<number | null>>>>> = {};
  for (const condition of conditions) {
    values[condition] = {};
    for (const size of sizes) {
      const byMetric: Record<string, Array<Array<number | null>>> = {};
      for (const metric of metrics)
        byMetric[metric] = tasks.map((t) =>
          [0, 1].map(() => {
            if (random() < 0.08) return null;
            // The (b, ko) cell is constant under every condition: its deviations must be exactly 0.
            if (t.answer_task_stratum === "b" && t.language === "ko") return 0.5;
            return metric === "m_grid" ? Math.floor(random() * 5) / 4 : random();
          }),
        );
      (values[condition] as Record<string, unknown>)[String(size)] = byMetric;
    }
  }
  return {
    format: "fabench-bootstrap-input/v1",
    iterations: 200,
    seed: 7,
    conditions,
    catalog_sizes: sizes,
    metrics,
    tasks,
    values,
  };
}

describe("npm run bench:bootstrap -- --methods all", () => {
  const tempDir = useTempDir();
  it("prints every method's bounds, and skew_t agrees with an independent implementation to 1e-12", () => {
    const dir = tempDir();
    for (const seed of [1, 2, 3]) {
      const data = input(seed);
      const file = join(dir, `input-${seed}.json`);
      writeFileSync(file, JSON.stringify(data));
      const run = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/bench/bootstrap.ts",
          "--data",
          file,
          "--methods",
          "all",
          "--warmup",
          "0",
        ],
        { encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const printed = JSON.parse(run.stdout) as {
        intervals: Record<string, { methods: Record<string, { low: number | null; high: number | null }> }>;
      };
      // The per-task values are the library's (that is not what is tested here); the interval is not.
      const statistics = buildStatistics({
        taskCount: data.tasks.length,
        conditions: data.conditions,
        baseline: "FULL",
        sizes: data.catalog_sizes,
        metrics: data.metrics,
        values: (condition, size, metric, task) => data.values[condition]?.[String(size)]?.[metric]?.[task],
      });
      expect(Object.keys(printed.intervals).sort()).toEqual(statistics.map((s) => s.key).sort());
      let compared = 0;
      for (const statistic of statistics) {
        const methods = printed.intervals[statistic.key]?.methods ?? {};
        expect(Object.keys(methods)).toEqual([...INTERVAL_METHODS]);
        const cells = new Map<string, Array<number | null>>();
        data.tasks.forEach((t, i) => {
          const key = `${t.answer_task_stratum}|${t.language}`;
          cells.set(key, [...(cells.get(key) ?? []), statistic.values[i] ?? null]);
        });
        const expected = skewTReference([...cells.values()]);
        const got = methods["skew_t"] as { low: number | null; high: number | null };
        for (const side of ["low", "high"] as const) {
          const e = expected[side];
          if (e === null) expect(got[side]).toBeNull();
          else {
            expect(got[side]).not.toBeNull();
            expect(Math.abs((got[side] as number) - e)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(e)));
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(40);
    }
  }, 60_000);

  it("refuses an unknown --methods value with exit 2", () => {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/bench/bootstrap.ts", "--methods", "some"],
      { encoding: "utf8" },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("bench:bootstrap: usage_error: --methods takes percentile or all\n");
  });
});
