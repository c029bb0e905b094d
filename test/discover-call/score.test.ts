import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { discoverCallScore } from "../../src/commands/discover-call/score.ts";
import { createDraw, FabenchError, formatProblem } from "../../src/core/index.ts";
import { lcgIndexDraw, taskClusterInterval } from "../../src/discover-call/bootstrap.ts";
import { constraintAccuracy, requiredParameterAccuracy } from "../../src/discover-call/constraints.ts";
import { parseRecords, parseTaskSet, scoreDiscoverCall } from "../../src/discover-call/index.ts";
import type { RawRecord } from "../../src/discover-call/records.ts";
import { earliestFailedGate, scoreRecord, summarizeRecords } from "../../src/discover-call/score.ts";
import type { DiscoverCallSummary } from "../../src/discover-call/summary.ts";
import type { DiscoverCallTask, TaskSet } from "../../src/discover-call/tasks.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { hasReference, REFERENCE_DIR } from "./fixtures/reference.ts";

const REF = REFERENCE_DIR;
const HAS_REF = hasReference && existsSync(`${REF}/src/scoring.mjs`);
const GENERATED_AT = "2026-08-01T12:00:00.000Z";

// ---------------------------------------------------------------------------------------------
// Hand-made tasks, records and files

const weather = {
  id: "weather",
  prompt: "Weather for London",
  constraints: [{ id: "location", aliases: ["city", "location"], value: "London" }],
};
const exchange = {
  id: "exchange",
  prompt: "USD to EUR",
  constraints: [
    { id: "base", aliases: ["base", "from"], composite_aliases: ["symbol", "pair"], value: "USD" },
    { id: "quote", aliases: ["quote", "to"], composite_aliases: ["symbol", "pair"], value: "EUR" },
  ],
};
const news = {
  id: "news",
  prompt: "AI news",
  constraints: [
    {
      id: "q",
      aliases: ["q"],
      value: "artificial intelligence",
      match: "contains",
      normalizers: ["url_decode"],
    },
  ],
};
const crypto = {
  id: "crypto",
  prompt: "BTC price",
  constraints: [
    { id: "symbol", aliases: ["symbol", "id"], value: "BTC", match: "contains", alias_values: { id: ["1"] } },
  ],
};
const air = {
  id: "air",
  prompt: "Air at 51.5, season 2025, live",
  constraints: [
    { id: "lat", aliases: ["lat"], value: 51.5 },
    { id: "season", aliases: ["season"], value: 2025 },
    { id: "live", aliases: ["live"], value: true },
  ],
};

const taskFile = (...tasks: unknown[]) => Buffer.from(`${tasks.map((t) => JSON.stringify(t)).join("\n")}\n`);
const SMALL = parseTaskSet(taskFile(weather, exchange), "tasks.jsonl");
const ONE = parseTaskSet(taskFile(weather), "one.jsonl");
const ALL = parseTaskSet(taskFile(weather, exchange, news, crypto, air), "all.jsonl");
const task = (id: string) => ALL.tasks.find((t) => t.id === id) as DiscoverCallTask;

const metadata = (set: TaskSet) => ({
  lane: "configured-model" as const,
  model_revision: "unreported",
  adapter_revision: "adapter-1",
  toolkit_revision: "b".repeat(40),
  task_set_sha256: set.sha256,
  api_base_url: "https://qveris.ai/api/v1",
  api_revision: "2026-07-23.2",
  catalog_revision: "unreported",
  catalog_observation_sha256: "c".repeat(64),
  runtime: { node: "v20.20.2", platform: "linux", arch: "x64" },
  discovery_limit: 10,
  execute: true,
});

/** A completed, grounded, successful trial of `taskId`, changed by `over`. */
function trial(taskId: string, n: number, over: Partial<RawRecord> = {}, set: TaskSet = SMALL): RawRecord {
  const model = over.model ?? "model-a";
  return {
    schema_version: 1,
    benchmark_version: "v2",
    run_id: `${model}-${taskId}-${n}`,
    model,
    metadata: metadata(set),
    task_id: taskId,
    trial: n,
    started_at: "2026-07-24T04:00:00.000Z",
    status: "completed",
    discovery: { result_tool_ids: ["tool.a", "tool.b"] },
    selection: { tool_id: "tool.a" },
    inspection: { returned_tool_ids: ["tool.a"], required_parameters: [] },
    parameters: {},
    call: { attempted: true, success: true, result_nonempty: true },
    finished_at: "2026-07-24T04:00:05.000Z",
    ...over,
  };
}

const failedAt = (stage: string, reason: string | null): Partial<RawRecord> => ({
  status: "failed",
  selection: { tool_id: null },
  inspection: { returned_tool_ids: [], required_parameters: [] },
  parameters: null,
  call: { attempted: false, success: null },
  error: { stage, reason_code: reason, message: "Adapter invocation failed" },
});

const jsonl = (records: readonly unknown[]) =>
  Buffer.from(`${records.map((r) => JSON.stringify(r)).join("\n")}\n`, "utf8");

/** Through the same reader the command uses, then scored. */
function summarize(records: readonly RawRecord[], set: TaskSet = SMALL): DiscoverCallSummary {
  return scoreDiscoverCall({
    taskSet: set,
    records: parseRecords(jsonl(records), "runs.jsonl"),
    generatedAt: GENERATED_AT,
  });
}

function refusals(records: readonly unknown[], set: TaskSet = SMALL): string[] {
  const result = summarizeRecords({
    taskSet: set,
    records: parseRecords(jsonl(records), "runs.jsonl"),
    generatedAt: GENERATED_AT,
  });
  if (result.ok) throw new Error("expected the records to be refused");
  return result.problems.map(formatProblem);
}

/** Both tasks of SMALL, trials 1..n each, all successful unless changed. */
const complete = (n: number, over: Partial<RawRecord> = {}) =>
  [weather, exchange].flatMap((t) =>
    Array.from({ length: n }, (_, i) =>
      trial(t.id, i + 1, {
        parameters: t.id === "weather" ? { city: "London" } : { symbol: "USD/EUR" },
        ...over,
      }),
    ),
  );

// ---------------------------------------------------------------------------------------------

describe("constraint accuracy", () => {
  const accuracy = (id: string, parameters: Record<string, unknown>) =>
    constraintAccuracy(task(id), parameters);

  it("matches a plain constraint on any alias, trimmed and case-folded", () => {
    expect(accuracy("weather", { city: " LONDON " })).toBe(1);
    expect(accuracy("weather", { location: "london" })).toBe(1);
    expect(accuracy("weather", { city: "Paris", location: "London" })).toBe(1);
    expect(accuracy("weather", { city: "London, UK" })).toBe(0);
    expect(accuracy("weather", { place: "London" })).toBe(0);
  });

  it("matches a composite alias only as the values in task order, joined by nothing or one separator", () => {
    for (const symbol of ["USD/EUR", "usd-eur", "USDEUR", " usd_eur ", "USD:EUR", "USD EUR"])
      expect(accuracy("exchange", { symbol }), symbol).toBe(1);
    for (const symbol of ["EUR/USD", "USDT/EUR", "USD/EUR/GBP", "USD.EUR", "USD / EUR"])
      expect(accuracy("exchange", { symbol }), symbol).toBe(0);
    expect(accuracy("exchange", { pair: "usd/eur" })).toBe(1);
    expect(accuracy("exchange", { base: "USD", to: "eur" })).toBe(1);
    expect(accuracy("exchange", { base: "USD" })).toBe(0.5);
  });

  it("URL-decodes when asked: + as a space, then up to twice, never a third time", () => {
    expect(accuracy("news", { q: "latest artificial intelligence news" })).toBe(1);
    expect(accuracy("news", { q: "%22artificial%20intelligence%22" })).toBe(1);
    expect(accuracy("news", { q: "artificial+intelligence" })).toBe(1);
    expect(accuracy("news", { q: "artificial%2520intelligence" })).toBe(1);
    expect(accuracy("news", { q: "artificial%252520intelligence" })).toBe(0);
    // A sequence that does not decode stops decoding; the text so far still counts.
    expect(accuracy("news", { q: "artificial intelligence %zz" })).toBe(1);
    // Decoding comes after lower-casing, so an encoded capital stays a capital.
    expect(accuracy("news", { q: "%41rtificial intelligence" })).toBe(0);
  });

  it("accepts an alias's provider-specific values exactly, even under contains", () => {
    expect(accuracy("crypto", { id: 1 })).toBe(1);
    expect(accuracy("crypto", { id: "1" })).toBe(1);
    expect(accuracy("crypto", { id: 10 })).toBe(0);
    expect(accuracy("crypto", { symbol: "BTCUSDT" })).toBe(1);
    expect(accuracy("crypto", { symbol: 1 })).toBe(0);
  });

  it("compares numbers and booleans as their String(v)", () => {
    expect(accuracy("air", { lat: "51.5", season: "2025", live: "true" })).toBe(1);
    expect(accuracy("air", { lat: 51.5, season: 2025, live: true })).toBe(1);
    expect(accuracy("air", { lat: 51.49, season: 2025, live: false })).toBeCloseTo(1 / 3, 12);
  });

  it("does not count null, empty or inherited parameters as supplied", () => {
    expect(accuracy("weather", { city: null, location: "" })).toBe(0);
    const proto = parseTaskSet(
      taskFile({
        id: "p",
        prompt: "p",
        constraints: [{ id: "p", aliases: ["__proto__", "toString"], value: "{}" }],
      }),
      "p",
    ).tasks[0] as DiscoverCallTask;
    expect(constraintAccuracy(proto, {})).toBe(0);
    expect(constraintAccuracy(proto, JSON.parse('{"__proto__": "{}"}'))).toBe(1);
  });
});

describe("required-parameter accuracy", () => {
  it("counts each required name, and each one-of group once", () => {
    const required = ["city", ["query", "url"]];
    expect(requiredParameterAccuracy(required, { city: "London", url: "https://x" })).toBe(1);
    expect(requiredParameterAccuracy(required, { city: "London" })).toBe(0.5);
    expect(requiredParameterAccuracy(required, { city: "", query: null })).toBe(0);
    expect(requiredParameterAccuracy(["toString"], {})).toBe(0);
    expect(requiredParameterAccuracy([], {})).toBe(1);
    expect(requiredParameterAccuracy(["n", "b"], { n: 0, b: false })).toBe(1);
  });
});

describe("one trial's scores and its earliest failed gate", () => {
  const score = (record: RawRecord) => scoreRecord(task(record.task_id), record);
  const gate = (record: RawRecord) => earliestFailedGate(score(record));
  const ok: Partial<RawRecord> = {
    parameters: { city: "London" },
    inspection: { returned_tool_ids: ["tool.a"], required_parameters: ["city"] },
  };

  it("scores a grounded, complete, successful trial as a success with no failed gate", () => {
    const scored = score(trial("weather", 1, ok));
    expect(scored).toMatchObject({
      completed: true,
      executed: true,
      selection_grounded: true,
      inspection_grounded: true,
      required_parameter_accuracy: 1,
      constraint_accuracy: 1,
      call_success: true,
      result_nonempty: true,
      pre_result_gate_workflow_success: true,
      workflow_success: true,
      error_stage: null,
      error_reason: null,
    });
    expect(earliestFailedGate(scored)).toBeNull();
  });

  it("grounds selection in the discovery results and inspection in the returned tools", () => {
    const outside = score(trial("weather", 1, { ...ok, selection: { tool_id: "tool.z" } }));
    expect([outside.selection_grounded, outside.inspection_grounded]).toEqual([false, false]);
    const notReturned = score(
      trial("weather", 1, { ...ok, inspection: { returned_tool_ids: ["tool.b"], required_parameters: [] } }),
    );
    expect([notReturned.selection_grounded, notReturned.inspection_grounded]).toEqual([true, false]);
    const none = score(trial("weather", 1, failedAt("select", "missing_tool_id")));
    expect([none.selection_grounded, none.inspection_grounded]).toEqual([false, false]);
  });

  it("attributes each failure to the earliest gate it did not pass", () => {
    const cases: Array<[Partial<RawRecord>, { stage: string; reason: string | null }]> = [
      [failedAt("adapter", "tool_use_rejected"), { stage: "adapter", reason: "tool_use_rejected" }],
      [failedAt("api", null), { stage: "api", reason: null }],
      [
        { ...ok, selection: { tool_id: "tool.z" } },
        { stage: "select", reason: "ungrounded_selection" },
      ],
      [
        { ...ok, inspection: { returned_tool_ids: [], required_parameters: ["city"] } },
        { stage: "inspect", reason: "ungrounded_inspection" },
      ],
      [
        { ...ok, parameters: { location: "London" } },
        { stage: "parameterize", reason: "incomplete_required_parameters" },
      ],
      [
        { ...ok, parameters: { city: "Paris" } },
        { stage: "parameterize", reason: "constraint_mismatch" },
      ],
      [
        { ...ok, call: { attempted: true, success: false, result_nonempty: false } },
        { stage: "call", reason: "tool_returned_failure" },
      ],
      [
        { ...ok, call: { attempted: true, success: true, result_nonempty: false } },
        { stage: "result", reason: "empty_result" },
      ],
    ];
    for (const [over, expected] of cases) expect(gate(trial("weather", 1, over))).toEqual(expected);
    // A failed trial without an error is refused by the record schema; the scorer still places it.
    const { error: _none, ...silent } = trial("weather", 1, { ...ok, ...failedAt("x", null) });
    expect(gate(silent as RawRecord)).toEqual({ stage: "unknown", reason: "incomplete_trial" });
  });

  it("never counts a dry run as a success, and blames no gate for it", () => {
    const scored = score(trial("weather", 1, { ...ok, call: { attempted: false, success: null } }));
    expect(scored).toMatchObject({ executed: false, call_success: null, result_nonempty: null });
    expect([scored.pre_result_gate_workflow_success, scored.workflow_success]).toEqual([false, false]);
    expect(earliestFailedGate(scored)).toBeNull();
  });

  it("leaves workflow success unknown when a successful call recorded no result evidence", () => {
    const scored = score(trial("weather", 1, { ...ok, call: { attempted: true, success: true } }));
    expect([
      scored.result_nonempty,
      scored.pre_result_gate_workflow_success,
      scored.workflow_success,
    ]).toEqual([null, true, null]);
    const legacy = score(
      trial("weather", 1, { ...ok, call: { attempted: true, success: true, result_valid: true } }),
    );
    expect(legacy.workflow_success).toBe(true);
  });

  it("takes a public record's grounding and accuracies from its attestations", () => {
    const { parameters: _raw, ...rest } = trial("weather", 1);
    const publicRecord = {
      ...rest,
      discovery: { result_count: 2, snapshot_sha256: "d".repeat(64), selection_grounded: true },
      inspection: { selection_grounded: false },
      parameterization: { required_parameter_accuracy: 0.5, constraint_accuracy: 0.25 },
      metadata: { ...metadata(SMALL), publication_policy: "p" },
      source_record_sha256: "e".repeat(64),
    };
    const [record] = parseRecords(jsonl([publicRecord]), "p").records;
    const scored = scoreRecord(task("weather"), record as never);
    expect(scored).toMatchObject({
      selection_grounded: true,
      inspection_grounded: false,
      required_parameter_accuracy: 0.5,
      constraint_accuracy: 0.25,
      workflow_success: false,
    });
  });
});

describe("the summary", () => {
  it("matches a hand-computed summary of two tasks, two trials each", () => {
    const required = { returned_tool_ids: ["tool.a"], required_parameters: ["city"] };
    const records = [
      trial("weather", 1, { inspection: required, parameters: { city: "London" } }),
      trial("weather", 2, { inspection: required, parameters: { city: "Paris" } }),
      trial("exchange", 1, {
        inspection: { returned_tool_ids: ["tool.a"], required_parameters: ["base", ["quote", "symbol"]] },
        parameters: { base: "USD" },
        call: { attempted: true, success: false, result_nonempty: false },
      }),
      trial("exchange", 2, failedAt("select", "missing_tool_id")),
    ];
    const summary = summarize(records);
    expect({ ...summary, records: summary.records.length }).toEqual({
      schema_version: 1,
      methodology: "discover-call-v2",
      generated_at: GENERATED_AT,
      models: [
        {
          model: "model-a",
          lane: "configured-model",
          tasks: 2,
          trials_per_task: 2,
          runs: 4,
          completed: 3,
          executed: 3,
          selection_grounded_rate: 0.75, // 3 of 4: the failed selection is not grounded
          inspection_grounded_rate: 0.75,
          required_parameter_accuracy: 0.875, // (1 + 1 + 0.5 + 1) / 4: nothing inspected is nothing required
          constraint_accuracy: 0.375, // (1 + 0 + 0.5 + 0) / 4
          call_success_rate: 0.6667, // 2 of the 3 executed
          result_nonempty_rate: 0.6667, // a failed call has no result
          pre_result_gate_workflow_success_rate: 0.25,
          workflow_success_rate: 0.25,
          // Task rates 0.5 and 0: means of two draws are 0, 0.25, 0.5 with chances ¼, ½, ¼, so the
          // 500th and 19,500th of 20,000 sorted estimates are 0 and 0.5.
          workflow_success_task_cluster_bootstrap_95: [0, 0.5],
          failures_by_stage: { parameterize: 2, select: 1 },
          failures_by_reason: {
            constraint_mismatch: 1,
            incomplete_required_parameters: 1,
            missing_tool_id: 1,
          },
        },
      ],
      records: 4,
    });
    expect(summary.records.map((r) => [r.task_id, r.trial, r.workflow_success])).toEqual([
      ["weather", 1, true],
      ["weather", 2, false],
      ["exchange", 1, false],
      ["exchange", 2, false],
    ]);
    expect(summary.records[0]?.metadata).toEqual(metadata(SMALL));
  });

  it("gives one task a degenerate interval [v, v]", () => {
    const records = [1, 2, 3].map((n) =>
      trial("weather", n, { parameters: { city: n === 3 ? "Paris" : "London" } }, ONE),
    );
    const model = summarize(records, ONE).models[0];
    expect(model?.workflow_success_rate).toBe(0.6667);
    expect(model?.workflow_success_task_cluster_bootstrap_95).toEqual([0.6667, 0.6667]);
  });

  it("reports null, not zero, where the records cannot tell: no evidence, no call", () => {
    const unknown = complete(1);
    unknown[0] = { ...(unknown[0] as RawRecord), call: { attempted: true, success: true } };
    const model = summarize(unknown).models[0];
    expect(model).toMatchObject({
      result_nonempty_rate: null,
      workflow_success_rate: null,
      workflow_success_task_cluster_bootstrap_95: null,
      pre_result_gate_workflow_success_rate: 1,
      call_success_rate: 1,
    });
    const dry = summarize(complete(1, { call: { attempted: false, success: null } })).models[0];
    expect(dry).toMatchObject({
      executed: 0,
      call_success_rate: null,
      result_nonempty_rate: null,
      workflow_success_rate: 0,
      workflow_success_task_cluster_bootstrap_95: [0, 0],
      failures_by_stage: {},
    });
  });

  it("summarises each model on its own line, in order of first appearance", () => {
    const records = [...complete(1, { model: "model-b" }), ...complete(2)];
    const summary = summarize(records);
    expect(summary.models.map((m) => [m.model, m.runs, m.trials_per_task])).toEqual([
      ["model-b", 2, 1],
      ["model-a", 4, 2],
    ]);
  });
});

describe("the task-cluster bootstrap", () => {
  it("draws from the 32-bit LCG with seed 0x51f15e", () => {
    let state = 0x51f15en;
    const expected: number[] = [];
    for (let i = 0; i < 5; i++) {
      state = (state * 1664525n + 1013904223n) % 2n ** 32n;
      expected.push(Number((state * 7n) / 2n ** 32n));
    }
    const draw = lcgIndexDraw(0x51f15e);
    expect(expected.map(() => draw(7))).toEqual(expected);
  });

  it("averages trials per task, then takes the ⌊0.025·N⌋-th and ⌊0.975·N⌋-th sorted estimates", () => {
    // Rates [1, 0, 0.5]; the LCG's first 12 indices below 3 are 1 0 0 | 0 1 0 | 0 2 1 | 2 2 0, so the
    // 4 estimates are 2/3, 2/3, 1/2, 2/3; sorted, elements 0 and 3.
    const outcomes: Array<[string, boolean]> = [
      ["a", true],
      ["b", false],
      ["c", true],
      ["c", false],
    ];
    expect(taskClusterInterval(outcomes, { iterations: 4, seed: 0x51f15e })).toEqual([0.5, 2 / 3]);
  });

  it("gives [v, v] for one task and [0, 0] for none", () => {
    expect(
      taskClusterInterval([
        ["a", true],
        ["a", false],
      ]),
    ).toEqual([0.5, 0.5]);
    expect(taskClusterInterval([])).toEqual([0, 0]);
  });
});

describe("records the summary refuses to average", () => {
  it("refuses another task set's records", () => {
    const other = complete(1).map((r) => ({
      ...r,
      metadata: { ...r.metadata, task_set_sha256: "f".repeat(64) },
    }));
    expect(refusals(other)).toEqual([
      `runs.jsonl:1: task_set_mismatch: 2 records name task set ${"f".repeat(64)}, but tasks.jsonl has SHA-256 ${SMALL.sha256}; score records with the task file they were run with`,
    ]);
  });

  it("refuses records of several methodologies", () => {
    const records = [...complete(1), ...complete(1, { model: "m2", benchmark_version: "v1" })];
    expect(refusals(records)).toEqual([
      "runs.jsonl:3: mixed_methodology: records of several methodologies (v2 ×2 from line 1, v1 ×2 from line 3); a summary covers one",
    ]);
  });

  it("refuses a repeated run id", () => {
    const records = complete(2);
    records[3] = { ...(records[3] as RawRecord), run_id: (records[0] as RawRecord).run_id };
    expect(refusals(records)).toEqual([
      "runs.jsonl:4: duplicate_run_id: run id model-a-weather-1 is already used on line 1",
    ]);
  });

  it("refuses a task the set does not have, and a task without records", () => {
    const records = [trial("weather", 1), trial("ghost", 1), trial("ghost", 2)];
    expect(refusals(records)).toEqual([
      "runs.jsonl:2: unknown_task: 2 records of task ghost, which tasks.jsonl does not have",
      "runs.jsonl: missing_task: model model-a has no record of task exchange",
    ]);
  });

  it("refuses unequal and non-consecutive trials", () => {
    const records = [trial("weather", 1), trial("weather", 2), trial("exchange", 1), trial("exchange", 3)];
    expect(refusals(records)).toEqual([
      "runs.jsonl:3: nonconsecutive_trials: model model-a has trials 1, 3 of task exchange; expected 1 to 2, once each",
    ]);
    const uneven = [
      trial("weather", 1),
      trial("weather", 2),
      trial("exchange", 1),
      trial("exchange", 1, { run_id: "x" }),
    ];
    expect(refusals(uneven)).toEqual([
      "runs.jsonl:3: nonconsecutive_trials: model model-a has trials 1, 1 of task exchange; expected 1 to 2, once each",
    ]);
    expect(refusals([trial("weather", 1), trial("weather", 2), trial("exchange", 1)])).toEqual([
      "runs.jsonl:3: unequal_trials: model model-a has 1 trial of task exchange but 2 of weather; every task needs the same number",
    ]);
  });

  it("refuses metadata that varies within a model, and allows it across models", () => {
    const records = complete(1);
    const changed = { ...(records[1] as RawRecord) };
    changed.metadata = {
      ...changed.metadata,
      runtime: { node: "v22.0.0", platform: "linux", arch: "x64" },
      execute: false,
    };
    expect(refusals([records[0], changed])).toEqual([
      'runs.jsonl:2: mixed_metadata: model model-a mixes metadata.runtime values ({"arch":"x64","node":"v20.20.2","platform":"linux"} ×1 from line 1, {"arch":"x64","node":"v22.0.0","platform":"linux"} ×1 from line 2); records of different conditions are not averaged',
      "runs.jsonl:2: mixed_metadata: model model-a mixes metadata.execute values (true ×1 from line 1, false ×1 from line 2); records of different conditions are not averaged",
    ]);
    const otherModel = complete(1, { model: "m2" }).map((r) => ({
      ...r,
      metadata: { ...r.metadata, lane: "reference" as const },
    }));
    expect(summarize([...complete(1), ...otherModel]).models.map((m) => m.lane)).toEqual([
      "configured-model",
      "reference",
    ]);
  });

  it("lists every refusal at once", () => {
    const records = [
      trial("weather", 1),
      trial("weather", 1, { model: "m2", run_id: "model-a-weather-1", benchmark_version: "v1" }),
      trial("ghost", 1),
    ];
    expect(refusals(records).map((line) => line.split(": ")[1])).toEqual([
      "mixed_methodology",
      "duplicate_run_id",
      "unknown_task",
      "missing_task",
      "missing_task",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the reference implementation

/** The summary without its time, through JSON as a file would carry it. */
const comparable = (summary: unknown) => {
  const { generated_at: _time, ...rest } = JSON.parse(JSON.stringify(summary)) as Record<string, unknown>;
  return rest;
};

describe.skipIf(!HAS_REF)("the reference implementation's published results", () => {
  const taskSets = HAS_REF
    ? readdirSync(`${REF}/tasks`).map((name) =>
        parseTaskSet(readFileSync(`${REF}/tasks/${name}`), `${REF}/tasks/${name}`),
      )
    : [];
  const runFiles = HAS_REF
    ? readdirSync(`${REF}/results`).filter((name) => name.endsWith(".runs.jsonl"))
    : [];

  it.each(runFiles)("%s: our summary equals the published one in every field but generated_at", (name) => {
    const records = parseRecords(readFileSync(`${REF}/results/${name}`), name);
    // The task file a result was run with is the one whose bytes hash to the records' digest.
    const taskSet = taskSets.find((set) => set.sha256 === records.records[0]?.metadata.task_set_sha256);
    expect(taskSet?.file.replace(/.*\//, "")).toBe(`v${/-v(\d)\.runs\.jsonl$/.exec(name)?.[1]}.jsonl`);
    const ours = scoreDiscoverCall({ taskSet: taskSet as TaskSet, records, generatedAt: GENERATED_AT });
    const published = JSON.parse(
      readFileSync(`${REF}/results/${name.replace(".runs.jsonl", ".summary.json")}`, "utf8"),
    );
    expect(comparable(ours)).toStrictEqual(comparable(published));
  });
});

/** Random raw records: every field the scorer reads, drawn from values that hit its edge cases. */
function randomRun(seed: number, set: TaskSet): RawRecord[] {
  const draw = createDraw("seedrandom", seed);
  const pick = <T>(items: readonly T[]): T => items[draw(items.length)] as T;
  const tools = ["t1", "t2", "t3"];
  const subset = () => tools.filter(() => draw(2) === 1);
  const names = [
    "city",
    "location",
    "base",
    "quote",
    "to",
    "symbol",
    "pair",
    "q",
    "id",
    "lat",
    "season",
    "live",
  ];
  const values = [
    "London",
    " london ",
    "Paris",
    "USD",
    "eur",
    "USD/EUR",
    "EUR/USD",
    "usd-eur",
    "USDEUR",
    "USDT/EUR",
    "%22artificial%20intelligence%22",
    "artificial+intelligence",
    "artificial%2520intelligence",
    "%41rtificial intelligence",
    "",
    null,
    1,
    "1",
    10,
    51.5,
    "51.5",
    2025,
    "2025",
    true,
    "true",
    "BTCUSDT",
    ["London"],
    { a: 1 },
  ];
  const requirements = [
    [],
    ["city"],
    ["base", ["quote", "symbol"]],
    ["q"],
    [["id", "symbol"]],
    ["lat", "season"],
  ];
  const models = draw(3) === 0 ? ["m1", "m2"] : ["m1"];
  const trials = 1 + draw(3);
  const records: RawRecord[] = [];
  for (const model of models)
    for (const t of set.tasks)
      for (let n = 1; n <= trials; n++) {
        const failed = draw(4) === 0;
        const attempted = !failed && draw(4) !== 0;
        const parameters: Record<string, unknown> = {};
        for (const name of names) if (draw(3) === 0) parameters[name] = pick(values);
        const success = attempted ? draw(4) !== 0 : null;
        const evidence = pick([true, false, undefined]);
        records.push(
          trial(
            t.id,
            n,
            {
              model,
              run_id: `${seed}-${model}-${t.id}-${n}`,
              status: failed ? "failed" : "completed",
              discovery: { result_tool_ids: subset() },
              selection: { tool_id: pick([null, ...tools]) },
              inspection: { returned_tool_ids: subset(), required_parameters: pick(requirements) },
              parameters: draw(5) === 0 ? null : (parameters as RawRecord["parameters"]),
              call: {
                attempted,
                success,
                ...(attempted && evidence !== undefined ? { result_nonempty: evidence } : {}),
              },
              ...(failed
                ? {
                    error: {
                      stage: pick(["adapter", "api", "select"]),
                      reason_code: pick([null, "tool_use_rejected", "http_503"]),
                      message: "m",
                    },
                  }
                : {}),
            },
            set,
          ),
        );
      }
  return records;
}

describe.skipIf(!HAS_REF)("agreement with the reference scorer on generated raw records", () => {
  it("gives the same summary for 120 random runs", async () => {
    const reference = (await import(pathToFileURL(`${REF}/src/scoring.mjs`).href)) as {
      scoreRecords: (tasks: unknown[], records: unknown[], options: { taskSetSha256: string }) => unknown;
    };
    for (let seed = 1; seed <= 120; seed++) {
      const records = randomRun(seed, ALL);
      const ours = summarize(records, ALL);
      const theirs = reference.scoreRecords(
        JSON.parse(JSON.stringify(ALL.tasks)),
        JSON.parse(JSON.stringify(records)),
        {
          taskSetSha256: ALL.sha256,
        },
      );
      expect(comparable(ours), `seed ${seed}`).toStrictEqual(comparable(theirs));
    }
  });
});

describe.skipIf(!HAS_REF)("the reference scorer's command on a file these tests write", () => {
  const dir = useTempDir();

  it("prints the same summary, byte for byte but for generated_at", () => {
    const tasksPath = join(dir(), "tasks.jsonl");
    const runsPath = join(dir(), "runs.jsonl");
    writeFileSync(tasksPath, taskFile(weather, exchange, news, crypto, air));
    const records = [
      ...randomRun(7, ALL),
      ...randomRun(8, ALL).map((r) => ({ ...r, model: `${r.model}-b` })),
    ];
    writeFileSync(runsPath, jsonl(records));
    const theirs = spawnSync(
      process.execPath,
      [`${REF}/src/score.mjs`, "--tasks", tasksPath, "--runs", runsPath],
      {
        encoding: "utf8",
      },
    );
    expect(theirs.status, theirs.stderr).toBe(0);
    const out: string[] = [];
    const code = discoverCallScore(
      { tasks: tasksPath, runs: runsPath },
      { out: (t) => out.push(t), err: () => {} },
      () => new Date(GENERATED_AT),
    );
    expect(code).toBe(0);
    const time = /"generated_at": "[^"]*"/;
    expect(out.join("").replace(time, "")).toBe(theirs.stdout.replace(time, ""));
  });
});

// ---------------------------------------------------------------------------------------------
// The command shell

describe("discoverCallScore", () => {
  const dir = useTempDir();
  const files = (records: readonly unknown[]) => {
    const tasks = join(dir(), "tasks.jsonl");
    const runs = join(dir(), "runs.jsonl");
    writeFileSync(tasks, taskFile(weather, exchange));
    writeFileSync(runs, jsonl(records));
    return { tasks, runs };
  };
  const io = () => {
    const out: string[] = [];
    return { out, io: { out: (t: string) => void out.push(t), err: () => {} } };
  };
  const clock = () => new Date(GENERATED_AT);

  it("prints the summary, stamped by the injected clock", () => {
    const { out, io: cli } = io();
    expect(discoverCallScore(files(complete(1)), cli, clock)).toBe(0);
    const summary = JSON.parse(out.join(""));
    expect(summary.generated_at).toBe(GENERATED_AT);
    expect(summary.models[0].workflow_success_rate).toBe(1);
  });

  it("writes the summary to --out instead", () => {
    const { out, io: cli } = io();
    const output = join(dir(), "out", "summary.json");
    discoverCallScore({ ...files(complete(1)), output }, cli, clock);
    expect(JSON.parse(readFileSync(output, "utf8")).methodology).toBe("discover-call-v2");
    expect(out.join("")).toBe(
      [
        "model-a (configured-model, 2 tasks × 1 trial): workflow success 1.0000 (task-cluster bootstrap 95% [1.0000, 1.0000])",
        "  failures by stage: none",
        `wrote ${output}: discover-call-v2, 2 records, 1 model(s)`,
        "",
      ].join("\n"),
    );
  });

  it("refuses an output that is one of its inputs, before reading anything", () => {
    const paths = files(complete(1));
    const before = readFileSync(paths.runs);
    expect(() => discoverCallScore({ ...paths, output: paths.runs }, io().io, clock)).toThrow(
      expect.objectContaining({ kind: "usage", code: "output_is_input" }),
    );
    expect(readFileSync(paths.runs)).toEqual(before);
  });

  it("writes nothing when the records are malformed or refused, and lists every problem", () => {
    const output = join(dir(), "summary.json");
    const [first, second] = complete(1);
    const bad = files([first, { ...second, trial: 0, status: "done" }]);
    writeFileSync(bad.runs, `${readFileSync(bad.runs, "utf8")}{"torn`);
    let error: unknown;
    try {
      discoverCallScore({ ...bad, output }, io().io, clock);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FabenchError);
    expect((error as FabenchError).kind).toBe("input");
    expect((error as FabenchError).problems.map((p) => [p.line, p.code])).toEqual([
      [2, "invalid_record"],
      [2, "invalid_record"],
      [3, "invalid_json"],
    ]);
    expect(existsSync(output)).toBe(false);
    const badTasks = files(complete(1));
    writeFileSync(badTasks.tasks, `${JSON.stringify(weather)}\n${JSON.stringify(weather)}\n{}\n`);
    expect(() => discoverCallScore({ ...badTasks, output }, io().io, clock)).toThrow(
      expect.objectContaining({
        kind: "input",
        problems: [
          expect.objectContaining({ line: 2, code: "duplicate_task_id" }),
          expect.objectContaining({ line: 3, code: "invalid_task" }),
          expect.objectContaining({ line: 3, code: "invalid_task" }),
          expect.objectContaining({ line: 3, code: "invalid_task" }),
        ],
      }),
    );
    expect(existsSync(output)).toBe(false);
    const refused = files([trial("weather", 1)]);
    expect(() => discoverCallScore({ ...refused, output }, io().io, clock)).toThrow(
      expect.objectContaining({ code: "missing_task" }),
    );
    expect(existsSync(output)).toBe(false);
  });
});
