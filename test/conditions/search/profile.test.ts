import { describe, expect, it } from "vitest";
import { renderSearchProfile, searchProfile } from "../../../src/conditions/search/index.ts";
import { endpoint } from "./fixtures.ts";

const CATALOG = [
  endpoint("alpha.get", "Alpha tool.", "Reads weather."),
  endpoint("beta.get", "Beta tool.", "Weather and weather."),
  endpoint("gamma.put", "Gamma tool.", "Writes files."),
];
const task = (id: string, stratum: string, language: string, query: string, required: string[]) => ({
  semantic_task_id: id,
  answer_task_stratum: stratum,
  language,
  query,
  required_routes: required,
});
const TASKS = [
  // BM25 top 1 for "weather": beta; regex "(?i)weather": alpha, beta by description then route id.
  task("t1", "s1", "en", "weather", ["alpha.get", "gamma.put"]),
  task("t2", "s1", "ja", "ファイルを書く", ["gamma.put"]),
  task("t3", "s2", "en", "Writes files", ["gamma.put"]),
];

describe("searchProfile", () => {
  const profile = searchProfile({ tasks: TASKS, catalogs: [{ size: 3, endpoints: CATALOG }], k: 1 });
  const row = (engine: string, scope: string, group: string) =>
    profile.rows.find((r) => r.engine === engine && r.scope === scope && r.group === group);

  it("measures recall@k of the required routes per engine, stratum and language (by hand)", () => {
    // bm25, k = 1: t1 finds beta (0 of 2), t2 nothing (0 of 1), t3 gamma (1 of 1).
    expect(row("bm25", "all", "all")).toMatchObject({
      tasks: 3,
      recall: 1 / 3,
      all_found: 1 / 3,
      refused: 0,
    });
    expect(row("bm25", "stratum", "s1")).toMatchObject({ tasks: 2, recall: 0, all_found: 0 });
    expect(row("bm25", "language", "en")).toMatchObject({ tasks: 2, recall: 0.5, all_found: 0.5 });
    // regex, k = 1: t1 "(?i)weather" → alpha (1 of 2); t2 has no word to search with (refused);
    // t3 "(?i)Writes|files" → gamma (1 of 1).
    expect(row("regex", "all", "all")).toMatchObject({
      recall: 0.5,
      all_found: 1 / 3,
      refused: 1,
      refused_by: { empty_query: 1 },
    });
  });

  it("renders one table, a column per engine and size", () => {
    const text = renderSearchProfile(profile);
    expect(text).toContain("bm25 @ 3");
    expect(text).toContain("regex @ 3");
    expect(text).toMatch(/all tasks\s+0\.333 \/ 0\.333\s+0\.500 \/ 0\.333/);
    expect(text).toContain("regex @ 3: 1 task queries refused, counted as finding nothing (empty_query 1)");
  });
});
