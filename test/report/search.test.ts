/**
 * Search conditions (#34) in the summary, `score`'s headline, the Markdown and the HTML report:
 * shown beside the routers with their searches per episode, and labelled not preregistered.
 */
import { describe, expect, it } from "vitest";
import type { Protocol, Task } from "../../src/authoring/index.ts";
import { RECORD_FORMAT, type RunMetadata } from "../../src/conditions/runner/index.ts";
import { CONDITIONS_NOT_PREREGISTERED } from "../../src/gates/index.ts";
import type { EpisodeRow } from "../../src/metrics/index.ts";
import { renderHeadline, renderHtml, renderMarkdown } from "../../src/report/index.ts";
import { buildSummary, summarySchema, type Summary } from "../../src/summary/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const withSearch: Protocol = {
  ...protocol,
  // Fewer iterations: these tests read labels and means, not intervals.
  statistics: { ...protocol.statistics, iterations: 200 },
  conditions: [
    ...protocol.conditions,
    {
      id: "SEARCH-BM25",
      deployable: true,
      visibility: { kind: "search", engine: "bm25", k: 5, executor: "fabench" },
    } as unknown as Protocol["conditions"][number],
  ],
};
const CONDITIONS = withSearch.conditions.map((c) => c.id);
const TASKS = ["t-1", "t-2"];
/** SEARCH-BM25's searches per episode: t-1 and t-2 at 100, then at 250 (mean 1.5, 3 of 4 searched). */
const SEARCHES: Record<string, number> = { "t-1|100": 1, "t-2|100": 3, "t-1|250": 0, "t-2|250": 2 };

function rows(search: boolean): EpisodeRow[] {
  return TASKS.flatMap((task) =>
    [100, 250].flatMap((size) =>
      CONDITIONS.filter((c) => search || c !== "SEARCH-BM25").map((condition) => ({
        semantic_task_id: task,
        answer_task_stratum: "single_property_value_unit_provenance",
        language: "en",
        catalog_size: size,
        condition,
        trial: 1,
        status: "completed" as const,
        error_code: null,
        malformed_reason: null,
        metrics: {
          required_fact_recall: 1,
          required_evidence_coverage: 1,
          provenance_accuracy: 1,
          unsupported_fact_rate: 0,
          contradiction_count: 0,
          tool_schema_tokens: condition === "FULL" ? 1000 : 100,
          input_tokens: condition === "FULL" ? 5000 : 1000,
          ...(condition === "SEARCH-BM25"
            ? {
                search_count: SEARCHES[`${task}|${size}`] as number,
                searched: (SEARCHES[`${task}|${size}`] as number) > 0 ? 1 : 0,
              }
            : {}),
        },
        facts: [],
      })),
    ),
  );
}

const SHA = "2".repeat(64);
/** Run metadata as a run writes it (the values are placeholders: nothing here reads them). */
const METADATA: RunMetadata = {
  format: RECORD_FORMAT,
  tool: "fabench",
  tool_version: "0.0.0",
  git_revision: null,
  agent: "reference",
  model: null,
  agent_settings: {},
  tokenizer: "none",
  protocol_id: "fabench-pilot",
  protocol_sha256: SHA,
  plan_slots_sha256: SHA,
  corpus_tasks_sha256: SHA,
  corpus_file_sha256: SHA,
  catalogs: [
    { size: 100, sha256: SHA },
    { size: 250, sha256: SHA },
  ],
  condition_manifest_sha256: SHA,
  router_id: "router",
  router_config_sha256: SHA,
  system_prompt_sha256: SHA,
  max_turns: 12,
  trials: 1,
  selection: {
    conditions: CONDITIONS,
    catalog_sizes: [100, 250],
    tasks: null,
    task_count: 2,
    task_ids_sha256: SHA,
  },
};

function summary(search: boolean): Summary {
  const episodes = rows(search);
  const task = { answer_task_stratum: "single_property_value_unit_provenance", language: "en" };
  const result = buildSummary({
    protocol: search ? withSearch : { ...withSearch, conditions: protocol.conditions },
    protocolSha256: "0".repeat(64),
    preregistered: false,
    conditionsNotPreregistered: search ? ["SEARCH-BM25"] : [],
    metadata: METADATA,
    records: episodes.map((r) => ({ ...r, turns: [] })),
    runFiles: [{ path: "r.jsonl", sha256: "1".repeat(64) }],
    rows: episodes,
    tasks: new Map(TASKS.map((id) => [id, { ...task, semantic_task_id: id } as unknown as Task])),
    prerequisite: { satisfied: true, blocking: [] },
    rng: "seedrandom",
    allowIncomplete: false,
    allowMixedModels: false,
  });
  if (!result.ok) throw new Error(result.advice);
  return result.summary;
}

const searched = summary(true);

describe("search conditions in the summary and the reports", () => {
  it("keeps searches per episode and the share with a search in the summary, which its schema accepts", () => {
    expect(summarySchema.safeParse(searched).success).toBe(true);
    const bm25 = searched.aggregates["pooled"]!["SEARCH-BM25"]!;
    expect(bm25.means["search_count"]).toBe(1.5);
    expect(bm25.means["searched"]).toBe(0.75);
    expect(searched.aggregates["250"]!["SEARCH-BM25"]!.means["search_count"]).toBe(1);
    expect("search_count" in searched.aggregates["pooled"]!["SR-5"]!.means).toBe(false);
    expect(searched.gate.conditions_not_preregistered).toEqual(["SEARCH-BM25"]);
    expect(searched.gate.conditions["SEARCH-BM25"]!.checks["required_evidence_coverage"]!.value).toBe(1);
  });

  it("shows them in score's headline beside the routers, marked not preregistered", () => {
    const lines = renderHeadline(searched, "out.json").split("\n");
    expect(lines).toContain(
      "pooled means        recall  numeric  unit   provenance  unsupported  schema tokens  searches  with a search",
    );
    expect(lines).toContain(
      "SEARCH-BM25 *        1.000        –      –       1.000        0.000            100      1.50          0.750",
    );
    expect(lines).toContain(
      "SR-5                 1.000        –      –       1.000        0.000            100         –              –",
    );
    expect(lines).toContain(`* not preregistered: ${CONDITIONS_NOT_PREREGISTERED}`);
    expect(lines.find((l) => l.startsWith("gate: "))).toContain(
      `NOT PREREGISTERED conditions: SEARCH-BM25 (${CONDITIONS_NOT_PREREGISTERED})`,
    );
  });

  it("leaves a routers-only headline as it was", () => {
    const text = renderHeadline(summary(false), "out.json");
    expect(text).toContain(
      "\npooled means        recall  numeric  unit   provenance  unsupported  schema tokens\n",
    );
    expect(text).not.toContain("search");
    expect(text).not.toContain("*");
  });

  it("shows them in the Markdown's tables, labelled", () => {
    const md = renderMarkdown(searched);
    expect(md.split("\n")[0]).toBe("## fabench: **PASS** — not preregistered");
    expect(md).toContain(
      "| check | needs | SR-5 | SR-10 | SR-PROGRESSIVE | SEARCH-BM25 (not preregistered) |",
    );
    expect(md).toContain(
      "| condition | recall | tool-schema tokens | input tokens | searches / episode | episodes with a search |",
    );
    expect(md).toContain("| SEARCH-BM25 (not preregistered) | 1.0000 | 100 | 1000 | 1.5000 | 0.7500 |");
    expect(md).toContain("| FULL | 1.0000 | 1000 | 5000 | – | – |");
    expect(renderMarkdown(summary(false))).not.toContain("searches / episode");
  });

  it("gives the HTML report a search section and labels the condition in its header and gate table", () => {
    const html = renderHtml(searched, withSearch);
    expect(html).toContain(
      `<p id="conditions-not-preregistered" class="pilot-note">NOT PREREGISTERED conditions: SEARCH-BM25 — ${CONDITIONS_NOT_PREREGISTERED}.</p>`,
    );
    expect(html).toContain('<th>SEARCH-BM25 <span class="pilot">not preregistered</span></th>');
    expect(html).toContain('<h2 id="search">Tool search beside the routers</h2>');
    // Pooled row: 4 episodes, 1.50 searches, 0.750 with a search, coverage 1, recall 1, 100 tokens.
    expect(html).toContain(
      '<tr><td>SEARCH-BM25 (not preregistered)</td><td data-label="catalog">pooled</td><td data-label="episodes">4</td><td data-label="searches / episode">1.50</td><td data-label="episodes with a search">0.750</td>',
    );
    expect(html).toContain(
      '<tr><td>SR-5</td><td data-label="catalog">pooled</td><td data-label="episodes">4</td><td data-label="searches / episode">–</td>',
    );
    expect(renderHtml(summary(false), protocol)).not.toContain('id="search"');
  });
});
