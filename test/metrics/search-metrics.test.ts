/**
 * A search condition's episodes (#34): their search counts are scored beside the other metrics, so
 * a summary gives searches per episode and the share of episodes with a search; every other
 * condition's episode scores are as they were.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { aggregate, isSearchCondition, scoreRecord } from "../../src/metrics/index.ts";
import type { ScoredRecord } from "../../src/metrics/scored-records.ts";
import { bundled } from "../helpers/bundled.ts";

const units = await loadUnitConverter();
const task = bundled().corpus.tasks[0] as Task;

/**
 * A search episode by hand: nothing loaded at first, then every required route loaded by the
 * searches (5 routes loaded in all), an empty answer.
 */
function record(condition: string, search_count?: number): ScoredRecord {
  return {
    semantic_task_id: task.semantic_task_id,
    catalog_size: 100,
    condition,
    trial: 1,
    status: "completed",
    error_code: null,
    final_text: "",
    attempts: [],
    candidate_history: [
      { visible_route_count: 0, required_routes_visible: [] },
      { visible_route_count: 5, required_routes_visible: [...task.required_routes] },
    ],
    expansions: 0,
    required_route_call_coverage: 1,
    unauthorized_destructive_attempts: 0,
    unauthorized_destructive_executions: 0,
    tokens: { input: 1200, output: 80, tool_schema: 300 },
    ...(search_count === undefined ? {} : { search_count }),
  };
}

describe("search counts in episode scores", () => {
  it("scores the searches of a search episode and whether it searched", () => {
    const row = scoreRecord(record("SEARCH-BM25", 2), task, units);
    expect(row.metrics["search_count"]).toBe(2);
    expect(row.metrics["searched"]).toBe(1);
    // The router diagnostics read the loaded set: none loaded at first, all at the end.
    expect(row.metrics["initial_required_route_recall"]).toBe(0);
    expect(row.metrics["recovered"]).toBe(1);
    expect(row.metrics["final_candidate_count"]).toBe(5);
    expect(row.metrics["tool_schema_tokens"]).toBe(300);
    expect(scoreRecord(record("SEARCH-BM25", 0), task, units).metrics["searched"]).toBe(0);
  });

  it("reads an absent count as 0 under a search condition, and adds nothing under any other", () => {
    const absent = scoreRecord(record("SEARCH-REGEX"), task, units, { search: true });
    expect([absent.metrics["search_count"], absent.metrics["searched"]]).toEqual([0, 0]);
    const router = scoreRecord(record("SR-5"), task, units);
    expect(isSearchCondition(router.metrics)).toBe(false);
    const { search_count: _c, searched: _s, ...rest } = scoreRecord(record("SR-5", 3), task, units).metrics;
    expect(router.metrics).toEqual(rest);
  });

  it("averages to searches per episode and the share of episodes with a search, for search conditions only", () => {
    const rows = [
      ...[0, 1, 5].map((n, i) => ({ ...scoreRecord(record("SEARCH-BM25", n), task, units), trial: i + 1 })),
      scoreRecord(record("FULL"), task, units),
    ];
    const a = aggregate(rows, ["FULL", "SEARCH-BM25"], [100]);
    const bm25 = a["pooled"]!["SEARCH-BM25"]!;
    expect(bm25.episodes).toBe(3);
    expect(bm25.means["search_count"]).toBe(2);
    expect(bm25.means["searched"]).toBeCloseTo(2 / 3, 12);
    expect(isSearchCondition(bm25.means)).toBe(true);
    expect(isSearchCondition(a["100"]!["FULL"]!.means)).toBe(false);
  });
});
