/**
 * What `discover-call score` prints (issue #25): per model, workflow success with its task-cluster
 * interval and the failures by stage, checked against figures worked out by hand for a six-record
 * file; and at most 50 problem lines per bad input file from `score` and `validate`, then one line
 * counting the rest by code.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTaskSet } from "../../src/discover-call/index.ts";
import type { RawRecord } from "../../src/discover-call/records.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const TASKS = [
  {
    id: "weather",
    prompt: "Weather for London",
    constraints: [{ id: "city", aliases: ["city"], value: "London" }],
  },
  { id: "news", prompt: "News about London", constraints: [{ id: "q", aliases: ["q"], value: "London" }] },
  { id: "stock", prompt: "AAPL quote", constraints: [{ id: "s", aliases: ["symbol"], value: "AAPL" }] },
];
const TASK_FILE = `${TASKS.map((t) => JSON.stringify(t)).join("\n")}\n`;
const SHA = parseTaskSet(Buffer.from(TASK_FILE), "tasks.jsonl").sha256;

function record(taskId: string, trial: number, over: Partial<RawRecord> = {}, execute = true): RawRecord {
  return {
    schema_version: 1,
    benchmark_version: "v2",
    run_id: `run-${taskId}-${trial}`,
    model: "model-a",
    metadata: {
      lane: "configured-model",
      model_revision: "unreported",
      adapter_revision: "adapter-1",
      toolkit_revision: "b".repeat(40),
      task_set_sha256: SHA,
      api_base_url: "https://qveris.ai/api/v1",
      api_revision: "unreported",
      catalog_revision: "unreported",
      catalog_observation_sha256: "c".repeat(64),
      runtime: { node: "v20.0.0", platform: "linux", arch: "x64" },
      discovery_limit: 10,
      execute,
    },
    task_id: taskId,
    trial,
    started_at: "2026-07-24T04:00:00.000Z",
    status: "completed",
    discovery: { result_tool_ids: ["tool.a", "tool.b"] },
    selection: { tool_id: "tool.a" },
    inspection: { returned_tool_ids: ["tool.a"], required_parameters: [] },
    parameters: {},
    call: execute
      ? { attempted: true, success: true, result_nonempty: true }
      : { attempted: false, success: null },
    finished_at: "2026-07-24T04:00:05.000Z",
    ...over,
  };
}

const selectFailure = (tool_id: string | null, reason_code: string): Partial<RawRecord> => ({
  status: "failed",
  selection: { tool_id },
  parameters: null,
  inspection: { returned_tool_ids: [], required_parameters: [] },
  call: { attempted: false, success: null },
  error: { stage: "select", reason_code, message: "Adapter selected a tool outside the discovery results" },
});

/**
 * weather: both trials succeed. news: trial 1 selects a tool discover did not return
 * (select/ungrounded_tool_id), trial 2 selects none (select/missing_tool_id). stock: trial 1
 * succeeds, trial 2's call succeeds with an empty result (result/empty_result).
 *
 * By hand: 3 of 6 trials succeed, workflow success 0.5000. Per task 1, 0 and 0.5. A bootstrap draw
 * of three tasks is all-news with probability 1/27 (3.7%) and all-weather likewise, both above
 * 2.5%: of 20,000 draws about 741 have mean 0 and 741 mean 1, so the 500th and the 19,500th of the
 * sorted means are 0 and 1 — the interval is [0, 1]. Failures: select 2 (one of each code),
 * result 1.
 */
const RECORDS: RawRecord[] = [
  record("weather", 1, { parameters: { city: "London" } }),
  record("weather", 2, { parameters: { city: "London" } }),
  record("news", 1, selectFailure("tool.x", "ungrounded_tool_id")),
  record("news", 2, selectFailure(null, "missing_tool_id")),
  record("stock", 1, { parameters: { symbol: "AAPL" } }),
  record("stock", 2, {
    parameters: { symbol: "AAPL" },
    call: { attempted: true, success: true, result_nonempty: false },
  }),
];

/** Parameters that meet each task's constraint. */
const GOOD: Readonly<Record<string, NonNullable<RawRecord["parameters"]>>> = {
  weather: { city: "London" },
  news: { q: "London" },
  stock: { symbol: "AAPL" },
};

const jsonl = (records: readonly unknown[]) => `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;

describe("discover-call score prints workflow success, its interval and the failures by stage", () => {
  const temp = useTempDir();
  const files = (records: readonly RawRecord[], tasks = TASK_FILE) => {
    const tasksPath = join(temp(), "tasks.jsonl");
    const runs = join(temp(), "runs.jsonl");
    writeFileSync(tasksPath, tasks);
    writeFileSync(runs, jsonl(records));
    return { tasks: tasksPath, runs };
  };

  it("beside --out, on stdout: the figures worked out by hand", async () => {
    const { tasks, runs } = files(RECORDS);
    const output = join(temp(), "summary.json");
    const run = await runCli([
      "discover-call",
      "score",
      "--tasks",
      tasks,
      "--runs",
      runs,
      "--out",
      output,
    ]);
    expect([run.code, run.err]).toEqual([0, ""]);
    expect(run.out.split("\n")).toEqual([
      "model-a (configured-model, 3 tasks × 2 trials): workflow success 0.5000 (task-cluster bootstrap 95% [0.0000, 1.0000])",
      "  failures by stage: select 2 (missing_tool_id 1, ungrounded_tool_id 1), result 1 (empty_result 1)",
      `wrote ${output}: discover-call-v2, 6 records, 1 model(s)`,
      "",
    ]);
    // The printed figures are the summary's.
    const model = JSON.parse(readFileSync(output, "utf8")).models[0];
    expect(model).toMatchObject({
      workflow_success_rate: 0.5,
      workflow_success_task_cluster_bootstrap_95: [0, 1],
      failures_by_stage: { select: 2, result: 1 },
    });
  });

  it("without --out, on stderr: stdout stays the summary JSON alone", async () => {
    const { tasks, runs } = files(RECORDS);
    const run = await runCli(["discover-call", "score", "--tasks", tasks, "--runs", runs]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).models[0].workflow_success_rate).toBe(0.5);
    expect(run.err).toBe(
      "model-a (configured-model, 3 tasks × 2 trials): workflow success 0.5000 (task-cluster bootstrap 95% [0.0000, 1.0000])\n" +
        "  failures by stage: select 2 (missing_tool_id 1, ungrounded_tool_id 1), result 1 (empty_result 1)\n",
    );
  });

  it("says when a dry run cannot succeed, and when success is unknown", async () => {
    const dry = files(TASKS.map((t) => record(t.id, 1, { parameters: GOOD[t.id] ?? null }, false)));
    const run = await runCli(["discover-call", "score", "--tasks", dry.tasks, "--runs", dry.runs]);
    expect(run.code).toBe(0);
    expect(run.err.split("\n")).toEqual([
      "model-a (configured-model, 3 tasks × 1 trial): workflow success 0.0000 (task-cluster bootstrap 95% [0.0000, 0.0000])",
      "  failures by stage: none",
      "  a dry run: no trial made its call, so none counts as a workflow success (run with --execute)",
      "",
    ]);
    // A successful call without result evidence: success is unknown, and there is no interval.
    const unknown = files(
      TASKS.map((t) =>
        record(t.id, 1, {
          parameters: GOOD[t.id] ?? null,
          call: { attempted: true, success: true },
        }),
      ),
    );
    const second = await runCli(["discover-call", "score", "--tasks", unknown.tasks, "--runs", unknown.runs]);
    expect(second.code).toBe(0);
    expect(second.err.split("\n")[0]).toBe(
      "model-a (configured-model, 3 tasks × 1 trial): workflow success unknown (a successful call has no result evidence)",
    );
  });
});

describe("discover-call score and validate list at most 50 problems per input file", () => {
  const temp = useTempDir();
  /** 60 lines that are not JSON: 60 problems of one file. */
  const garbage = () => {
    const path = join(temp(), "garbage.jsonl");
    writeFileSync(path, Array.from({ length: 60 }, (_, i) => `not json ${i + 1}`).join("\n") + "\n");
    return path;
  };
  const tasks = () => {
    const path = join(temp(), "tasks.jsonl");
    writeFileSync(path, TASK_FILE);
    return path;
  };

  const expectCapped = (err: string, file: string) => {
    const lines = err.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(51);
    expect(lines.slice(0, 50).every((l, i) => l.startsWith(`${file}:${i + 1}: invalid_json: `))).toBe(true);
    expect(lines[50]).toBe("… and 10 more: invalid_json ×10");
  };

  it("score", async () => {
    const runs = garbage();
    const run = await runCli(["discover-call", "score", "--tasks", tasks(), "--runs", runs]);
    expect([run.code, run.out]).toEqual([2, ""]);
    expectCapped(run.err, runs);
  });

  it("validate", async () => {
    const runs = garbage();
    const summary = join(temp(), "summary.json");
    writeFileSync(summary, "{}\n");
    const run = await runCli([
      "discover-call",
      "validate",
      "--tasks",
      tasks(),
      "--runs",
      runs,
      "--summary",
      summary,
    ]);
    expect([run.code, run.out]).toEqual([2, ""]);
    expectCapped(run.err, runs);
  });
});
