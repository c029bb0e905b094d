import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { bootstrap, type EpisodeRow } from "../../src/metrics/index.ts";
import { summarizeEpisodes } from "../../src/summary/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();

describe("breakdowns by language and by stratum", () => {
  // 2 strata × 2 languages × 4 tasks; SR-5 loses recall on a few tasks, differently per catalog size.
  const ids = ["a", "b"].flatMap((s) =>
    ["en", "ko"].flatMap((l) =>
      [0, 1, 2, 3].map((k) => ({ id: `t-${s}-${l}-${k}`, stratum: s, language: l })),
    ),
  );
  const tasks = new Map(
    ids.map((t) => [
      t.id,
      { semantic_task_id: t.id, answer_task_stratum: t.stratum, language: t.language } as unknown as Task,
    ]),
  );
  const recall = (i: number, condition: string, size: number) =>
    condition === "FULL" ? 1 : i % 3 === 0 ? (size === 100 ? 0.5 : 0) : i % 5 === 0 ? 0.75 : 1;
  const rows: EpisodeRow[] = ids.flatMap((t, i) =>
    ["FULL", "SR-5"].flatMap((condition) =>
      [100, 250].map((size) => ({
        semantic_task_id: t.id,
        answer_task_stratum: t.stratum,
        language: t.language,
        catalog_size: size,
        condition,
        trial: 1,
        status: "completed" as const,
        error_code: null,
        malformed_reason: null,
        metrics: { required_fact_recall: recall(i, condition, size) },
        facts: [],
      })),
    ),
  );
  const stats = summarizeEpisodes(rows, tasks, protocol, "seedrandom");

  it("gives each group's recall delta the interval of a bootstrap of that group's tasks alone", () => {
    const ko = ids.map((t, i) => ({ ...t, i })).filter((t) => t.language === "ko");
    const deltas = ko.map((t) => (recall(t.i, "SR-5", 100) + recall(t.i, "SR-5", 250)) / 2 - 1);
    const s = protocol.statistics;
    const direct = bootstrap(
      ko.map((t) => ({ id: t.id, stratum: t.stratum, language: t.language })),
      [{ key: "d", values: deltas }],
      {
        iterations: s.iterations,
        seed: s.seed,
        rng: "seedrandom",
        confidence: s.confidence_level,
        calibrated: true,
      },
    ).intervals["d"]!;
    const group = stats.breakdowns.by_language["ko"]!;
    expect(group.tasks).toBe(8);
    expect(group.deltas["SR-5"]?.["required_fact_recall"]).toBeCloseTo(
      deltas.reduce((a, b) => a + b, 0) / 8,
      12,
    );
    const interval = group.delta_intervals["SR-5"]!["required_fact_recall"]!;
    expect(interval).toEqual(direct);
    expect(interval.low as number).toBeLessThan(interval.high as number);
  });

  it("has intervals for every group and non-baseline condition, and none for the baseline", () => {
    for (const groups of [stats.breakdowns.by_language, stats.breakdowns.by_stratum])
      for (const g of Object.values(groups)) expect(Object.keys(g.delta_intervals)).toEqual(["SR-5"]);
  });

  it("of a run holding the baseline alone: levels, and no deltas or intervals (nothing to compare)", () => {
    const fullOnly = summarizeEpisodes(
      rows.filter((r) => r.condition === "FULL"),
      tasks,
      protocol,
      "seedrandom",
    );
    for (const groups of [fullOnly.breakdowns.by_language, fullOnly.breakdowns.by_stratum])
      for (const g of Object.values(groups)) {
        expect(g.levels).toEqual({ FULL: { ...g.levels["FULL"], required_fact_recall: 1 } });
        expect([g.deltas, g.delta_intervals]).toEqual([{}, {}]);
      }
    // The levels the gate reads are there; no delta statistic is.
    const keys = Object.keys(fullOnly.bootstrap.intervals);
    expect(keys).toContain("pooled|FULL|required_fact_recall|level");
    expect(keys.filter((k) => k.endsWith("|delta"))).toEqual([]);
  });
});
