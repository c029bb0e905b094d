/** A hand-made episode (record, task, score) and the summary around it, for the export's pure tests. */
import type { RunRecord } from "../../src/conditions/runner/index.ts";
import type { Summary } from "../../src/summary/index.ts";
import { makeTask } from "../helpers/task.ts";

const SHA = (c: string) => c.repeat(64);

export const TASK = makeTask({ query: "What is the modulus of MAT-1?" });

export const METADATA: RunRecord["metadata"] = {
  format: "fabench-run-record/v1",
  tool: "fabench",
  tool_version: "0.1.0",
  git_revision: "abc123",
  agent: "reference",
  model: null,
  agent_settings: { version: 3 },
  tokenizer: "gpt-tokenizer@4.0.0/o200k_base",
  protocol_id: "proto-v1",
  protocol_sha256: SHA("a"),
  plan_slots_sha256: SHA("b"),
  corpus_tasks_sha256: SHA("c"),
  corpus_file_sha256: SHA("d"),
  catalogs: [{ size: 100, sha256: SHA("e") }],
  condition_manifest_sha256: SHA("f"),
  router_id: "word-overlap",
  router_config_sha256: SHA("1"),
  system_prompt_sha256: SHA("2"),
  max_turns: 10,
  trials: 1,
  selection: {
    conditions: ["SR-5"],
    catalog_sizes: [100],
    tasks: null,
    task_count: 1,
    task_ids_sha256: SHA("3"),
  },
  unlocked_by: null,
};

export const OBSERVATION = { status: "ok", sources: [{ source_id: "SRC-A", payload: { modulus: 144 } }] };
export const REFUSED = { status: "error", error: "unknown tool" };
export const FINAL = JSON.stringify({
  answer: "144 GPa",
  facts: [{ key: "youngs_modulus", value: 144, unit: "GPa", source_id: "SRC-A" }],
  sources: ["SRC-A"],
});

/** Three turns: two calls (one refused, a hidden route), a request for more tools, the answer. */
export function makeRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  const tokens = { input: 100, output: 10, tool_schema: 50 };
  return {
    semantic_task_id: TASK.semantic_task_id,
    answer_task_stratum: TASK.answer_task_stratum,
    language: "en",
    catalog_size: 100,
    condition: "SR-5",
    trial: 1,
    status: "completed",
    error_code: null,
    final_text: FINAL,
    end_reason: "final_answer",
    turns: [
      {
        turn: 1,
        text: "",
        tool_calls: [
          { name: "materials__current", arguments: { material_id: "MAT-1" } },
          { name: "materials__history", arguments: "not an object" },
        ],
        observations: [OBSERVATION, REFUSED],
        event: "tool_call",
        tokens,
      },
      {
        turn: 2,
        text: "REQUEST_MORE_TOOLS",
        tool_calls: [],
        observations: [],
        event: "more_tools_shown",
        tokens,
      },
      { turn: 3, text: FINAL, tool_calls: [], observations: [], event: "final_answer", tokens },
    ],
    attempts: [
      { turn: 1, call_index: 0, name: "materials__current", outcome: "observation", error_code: null },
      {
        turn: 1,
        call_index: 1,
        name: "materials__history",
        outcome: "error",
        error_code: "unavailable_tool",
      },
    ],
    candidate_history: [],
    expansions: 1,
    required_routes_advanced: [],
    required_route_call_coverage: 1,
    unauthorized_destructive_attempts: 0,
    unauthorized_destructive_executions: 0,
    tokens: { input: 300, output: 30, tool_schema: 150 },
    timings: { started_at: "2026-01-02T03:04:05.000Z", duration_ms: 1500 },
    shard: null,
    metadata: METADATA,
    ...overrides,
  };
}

/** The parts of a summary the export reads (the rest of the schema is not its business). */
export function makeSummary(records: readonly RunRecord[]): Summary {
  return {
    protocol_id: "proto-v1",
    protocol_sha256: SHA("a"),
    preregistered: false,
    complete: true,
    run: METADATA,
    run_files: [{ path: "runs/r.jsonl", sha256: SHA("9") }],
    gate: { status: "FAIL" },
    aggregates: {
      "100": {
        "SR-5": { episodes: 1, means: { required_fact_recall: 0.5, recovered: null } },
      },
    },
    episode_scores: records.map((r) => ({
      semantic_task_id: r.semantic_task_id,
      answer_task_stratum: r.answer_task_stratum,
      language: r.language,
      catalog_size: r.catalog_size,
      condition: r.condition,
      trial: r.trial,
      status: r.status,
      error_code: r.error_code,
      malformed_reason: null,
      metrics: { required_fact_recall: 0.5, recovered: null, tool_calls: 2 },
      facts: [],
    })),
  } as unknown as Summary;
}
