import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { FabenchError, formatProblem } from "../../src/core/index.ts";
import { REFERENCE_DIR } from "./fixtures/reference.ts";
import { parseRecords } from "../../src/discover-call/index.ts";
import type { PublicRecord, RawRecord } from "../../src/discover-call/records.ts";
import {
  type DiscoverCallSummary,
  discoverCallSummarySchema,
  type ModelSummary,
  type ScoredRecord,
} from "../../src/discover-call/summary.ts";

const REF = REFERENCE_DIR;
const SHA = "a".repeat(64);

/** A raw record as the runner writes it: key order and all. */
const raw = {
  schema_version: 1,
  benchmark_version: "v2",
  run_id: "00000000-0000-4000-8000-000000000001",
  model: "model-a",
  metadata: {
    lane: "configured-model",
    model_revision: "unreported",
    adapter_revision: "adapter-1",
    toolkit_revision: "b".repeat(40),
    task_set_sha256: SHA,
    api_base_url: "https://qveris.ai/api/v1",
    api_revision: "2026-07-23.2",
    catalog_revision: "unreported",
    catalog_observation_sha256: "c".repeat(64),
    runtime: { node: "v20.20.2", platform: "linux", arch: "x64" },
    discovery_limit: 10,
    execute: true,
  },
  task_id: "weather-london",
  trial: 1,
  started_at: "2026-07-24T04:09:48.336Z",
  status: "completed",
  discovery: { result_tool_ids: ["w.v1", "x.v1"] },
  selection: { tool_id: "w.v1" },
  inspection: { returned_tool_ids: ["w.v1"], required_parameters: ["city", ["lat", "q"]] },
  parameters: { city: "London" },
  call: { attempted: true, success: true, result_nonempty: true },
  finished_at: "2026-07-24T04:09:58.336Z",
};

/** The same trial as the publication step writes it. */
const published = {
  schema_version: 1,
  benchmark_version: "v2",
  run_id: raw.run_id,
  model: "model-a",
  metadata: { ...raw.metadata, publication_policy: "public-artifact-v1" },
  task_id: "weather-london",
  trial: 1,
  started_at: raw.started_at,
  status: "completed",
  discovery: { result_count: 2, snapshot_sha256: SHA, selection_grounded: true },
  selection: { tool_id: "w.v1" },
  inspection: { selection_grounded: true },
  parameterization: { required_parameter_accuracy: 0.5, constraint_accuracy: 1 },
  call: { attempted: true, success: true, result_nonempty: true },
  finished_at: raw.finished_at,
  source_record_sha256: SHA,
};

const jsonl = (...values: unknown[]) => Buffer.from(values.map((v) => JSON.stringify(v)).join("\n"), "utf8");

function problemLines(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof FabenchError && error.kind === "input") return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error("expected an input error");
}

describe("reading a record file", () => {
  it("reads raw records as written, in the writer's key order", () => {
    const file = parseRecords(jsonl(raw, { ...raw, trial: 2, run_id: "r2" }), "runs.jsonl");
    expect(file.kind).toBe("raw");
    expect(file.lines).toEqual([1, 2]);
    expect(Object.keys(file.records[0]?.metadata ?? {})).toEqual(Object.keys(raw.metadata));
  });

  it("reads public records", () => {
    const file = parseRecords(jsonl(published), "public.jsonl");
    expect(file.kind).toBe("public");
    expect(file.records[0]).toEqual(published);
  });

  it("accepts what a run in progress writes: pending revisions and a legacy result_valid", () => {
    const pending = {
      ...raw,
      metadata: { ...raw.metadata, api_revision: "pending", catalog_observation_sha256: "pending" },
      call: { attempted: true, success: true, result_valid: true },
    };
    expect(parseRecords(jsonl(pending), "r").records).toHaveLength(1);
  });
});

describe("a bad record file", () => {
  it("is refused with every problem at its line, a torn last line included", () => {
    const { started_at: _dropped, ...noStart } = raw;
    const text = Buffer.concat([
      jsonl(
        raw,
        { ...raw, status: "failed" },
        { ...noStart, trial: 0, session_id: "secret" },
        { ...raw, metadata: { ...raw.metadata, task_set_sha256: "ABC", discovery_limit: 0 } },
        { ...raw, error: { stage: "Adapter", reason_code: "x", message: "m".repeat(501) } },
      ),
      Buffer.from('\n{"schema_version":1,"benchmark_vers', "utf8"),
    ]);
    expect(problemLines(() => parseRecords(text, "runs.jsonl"))).toEqual([
      "runs.jsonl:2: invalid_record: raw record: error: a failed trial needs an error",
      "runs.jsonl:3: invalid_record: raw record: trial: Too small: expected number to be >=1",
      "runs.jsonl:3: invalid_record: raw record: started_at: Invalid input: expected string, received undefined",
      'runs.jsonl:3: invalid_record: raw record: (root): Unrecognized key: "session_id"',
      "runs.jsonl:4: invalid_record: raw record: metadata.task_set_sha256: must be a lowercase hex SHA-256",
      "runs.jsonl:4: invalid_record: raw record: metadata.discovery_limit: Too small: expected number to be >=1",
      "runs.jsonl:5: invalid_record: raw record: error.stage: must be a code like missing_tool_id",
      "runs.jsonl:5: invalid_record: raw record: error.reason_code: must be a code like missing_tool_id",
      "runs.jsonl:5: invalid_record: raw record: error.message: Too big: expected string to have <=500 characters",
      "runs.jsonl:5: invalid_record: raw record: error: a completed trial has no error",
      "runs.jsonl:6: invalid_json: not valid JSON: unterminated string at column 21 (the line is cut off: a torn last line)",
    ]);
  });

  it("is refused when it mixes raw and public records", () => {
    expect(problemLines(() => parseRecords(jsonl(raw, published), "mixed.jsonl"))).toEqual([
      "mixed.jsonl:2: mixed_record_kinds: raw records (from line 1) and public records (from line 2) in one file; score each form on its own",
    ]);
  });

  it("is refused when a public record carries a field the public form does not have", () => {
    const leaky = {
      ...published,
      parameters: { city: "London" },
      call: { ...published.call, execution_id: "e" },
    };
    expect(problemLines(() => parseRecords(jsonl(leaky), "p.jsonl"))).toEqual([
      'p.jsonl:1: invalid_record: public record: call: Unrecognized key: "execution_id"',
      'p.jsonl:1: invalid_record: public record: (root): Unrecognized key: "parameters"',
    ]);
  });

  it("is refused when it holds no record", () => {
    expect(problemLines(() => parseRecords(Buffer.from("\n"), "e.jsonl"))).toEqual([
      "e.jsonl: no_records: the file holds no records",
    ]);
  });
});

describe.skipIf(!existsSync(`${REF}/results`))("the reference implementation's published artefacts", () => {
  const results = existsSync(`${REF}/results`) ? readdirSync(`${REF}/results`) : [];

  it("every published run file reads as public records", () => {
    const runs = results.filter((f) => f.endsWith(".runs.jsonl"));
    expect(runs.length).toBeGreaterThanOrEqual(7);
    for (const name of runs) {
      const file = parseRecords(readFileSync(`${REF}/results/${name}`), name);
      expect(file.kind).toBe("public");
      expect(file.records).toHaveLength(54);
    }
  });

  it("every published summary passes the summary schema", () => {
    for (const name of results.filter((f) => f.endsWith(".summary.json"))) {
      const parsed = discoverCallSummarySchema.safeParse(
        JSON.parse(readFileSync(`${REF}/results/${name}`, "utf8")),
      );
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });
});

describe("the record and summary types", () => {
  it("are inferred from the schemas", () => {
    expectTypeOf<RawRecord["parameters"]>().toEqualTypeOf<Record<
      string,
      import("zod").z.core.util.JSONType
    > | null>();
    expectTypeOf<RawRecord["inspection"]["required_parameters"]>().toEqualTypeOf<Array<string | string[]>>();
    expectTypeOf<PublicRecord["parameterization"]>().toEqualTypeOf<{
      required_parameter_accuracy: number;
      constraint_accuracy: number;
    }>();
    expectTypeOf<ScoredRecord["workflow_success"]>().toEqualTypeOf<boolean | null>();
    expectTypeOf<ModelSummary["workflow_success_task_cluster_bootstrap_95"]>().toEqualTypeOf<
      [number, number] | null
    >();
    expectTypeOf<DiscoverCallSummary["methodology"]>().toEqualTypeOf<
      "discover-call-v1" | "discover-call-v2"
    >();
  });
});
