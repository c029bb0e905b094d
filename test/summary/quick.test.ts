/**
 * The summary's quick read: whatever quickSummary accepts, the schema accepts and returns as the
 * same value (keys in the same order, facts frozen); whatever it is not sure of, it leaves to zod.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { EpisodeRow } from "../../src/metrics/index.ts";
import { buildSummary, quickSummary, summarySchema, type Summary } from "../../src/summary/index.ts";
import { METADATA } from "../export/fixtures.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const CONDITIONS = ["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"];
const FACT = {
  index: 0,
  key: "modulus",
  licensed: true,
  value_ok: true,
  unit_ok: null,
  source_ok: false,
  duplicate: false,
  contradicts: false,
  reason: "wrong source",
};

function summaryJson(): Record<string, unknown> {
  const rows: EpisodeRow[] = ["t-1", "t-2"].flatMap((task) =>
    [100, 250].flatMap((size) =>
      CONDITIONS.map((condition) => ({
        semantic_task_id: task,
        answer_task_stratum: "single_property_value_unit_provenance",
        language: "en",
        catalog_size: size,
        condition,
        trial: 1,
        status: "completed" as const,
        error_code: null,
        malformed_reason: null,
        metrics: { required_fact_recall: condition === "SR-5" ? 0.5 : 1, unsupported_fact_rate: null },
        facts: [FACT],
      })),
    ),
  );
  const tasks = new Map(
    ["t-1", "t-2"].map((id) => [
      id,
      { semantic_task_id: id, answer_task_stratum: "single_property_value_unit_provenance", language: "en" },
    ]),
  ) as unknown as Map<string, Task>;
  const result = buildSummary({
    protocol,
    protocolSha256: "0".repeat(64),
    preregistered: true,
    metadata: METADATA,
    records: rows.map((r) => ({ ...r, turns: [] })),
    runFiles: [{ path: "r.jsonl", sha256: "1".repeat(64) }],
    rows,
    tasks,
    prerequisite: { satisfied: true, blocking: [] },
    rng: "seedrandom",
    allowIncomplete: false,
    allowMixedModels: false,
  });
  if (!result.ok) throw new Error("the fixture summary was refused");
  return JSON.parse(JSON.stringify(result.summary));
}

const SUMMARY = summaryJson();
const copy = () => JSON.parse(JSON.stringify(SUMMARY)) as Record<string, unknown>;
const scores = (s: Record<string, unknown>) => s["episode_scores"] as Array<Record<string, unknown>>;

describe("quickSummary", () => {
  it("reads a summary exactly as its schema does", () => {
    const quick = quickSummary(copy());
    const parsed = summarySchema.parse(copy());
    expect(quick).not.toBeNull();
    expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed));
    expect(Object.isFrozen((quick as Summary).episode_scores[0]?.facts)).toBe(true);
  });

  it("leaves to zod every summary zod refuses or would change", () => {
    const mutations: Array<(s: Record<string, unknown>) => void> = [
      (s) => ((scores(s)[0] as Record<string, unknown>)["extra"] = 1),
      (s) => delete (scores(s)[1] as Record<string, unknown>)["facts"],
      (s) => ((scores(s)[2] as Record<string, unknown>)["trial"] = 0),
      (s) => ((scores(s)[2] as Record<string, unknown>)["status"] = "done"),
      (s) => ((scores(s)[3] as Record<string, unknown>)["metrics"] = { recall: "1" }),
      (s) => ((scores(s)[3] as Record<string, unknown>)["metrics"] = JSON.parse('{"__proto__":{"a":1}}')),
      (s) => ((scores(s)[4] as Record<string, unknown>)["facts"] = [{ ...FACT, index: -1 }]),
      (s) => ((scores(s)[4] as Record<string, unknown>)["facts"] = [{ ...FACT, licensed: null }]),
      (s) => {
        const { semantic_task_id, ...rest } = scores(s)[5] as Record<string, unknown>;
        scores(s)[5] = { ...rest, semantic_task_id }; // valid, but zod would reorder the keys
      },
      (s) => (s["episode_scores"] = {}),
      (s) => {
        const intervals = (s["bootstrap"] as Record<string, Record<string, Record<string, unknown>>>)[
          "intervals"
        ];
        const first = Object.values(intervals ?? {})[0] as Record<string, unknown>;
        first["n"] = -1;
      },
      (s) => {
        const intervals = (s["bootstrap"] as Record<string, Record<string, Record<string, unknown>>>)[
          "intervals"
        ];
        const first = Object.values(intervals ?? {})[0] as Record<string, Record<string, unknown>>;
        (first["calibrated"] as Record<string, unknown>)["skew_t"] = { low: 0 };
      },
      (s) => {
        const byStratum = (s["breakdowns"] as Record<string, Record<string, Record<string, unknown>>>)[
          "by_stratum"
        ];
        (Object.values(byStratum ?? {})[0] as Record<string, unknown>)["tasks"] = "2";
      },
      (s) => ((s["breakdowns"] as Record<string, unknown>)["by_task"] = {}),
      (s) => delete (s["bootstrap"] as Record<string, unknown>)["intervals"],
      (s) => (s["extra"] = true),
    ];
    for (const mutate of mutations) {
      const s = copy();
      mutate(s);
      expect(quickSummary(s), String(mutate)).toBeNull();
    }
  });
});
