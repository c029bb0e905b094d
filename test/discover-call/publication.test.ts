import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { discoverCallPublish, discoverCallValidate } from "../../src/commands/discover-call/publish.ts";
import { type FileOps, nodeFileOps } from "../../src/commands/shell/write-together.ts";
import { createDraw, formatProblem, type Problem, sha256Hex } from "../../src/core/index.ts";
import { parseRecords, parseTaskSet } from "../../src/discover-call/index.ts";
import type { RawRecord } from "../../src/discover-call/records.ts";
import type { TaskSet } from "../../src/discover-call/tasks.ts";
import {
  checkPolicy,
  defaultPolicyPath,
  parsePolicy,
  type PublicationPolicy,
  REQUIRED_FORBIDDEN_FIELDS,
} from "../../src/discover-call/policy.ts";
import {
  preparePublication,
  publishRecords,
  validatePublication,
} from "../../src/discover-call/publication.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { hasReference, referenceHarness, referencePath } from "./fixtures/reference.ts";

type Json = Record<string, unknown>;
const GENERATED_AT = "2026-08-01T12:00:00.000Z";
const COMMIT = "a7f2aa60ef143dbbb35eaf9006ed8123d778fb13";
const API = "https://qveris.ai/api/v1";

// ---------------------------------------------------------------------------------------------
// Hand-made tasks, policy and raw records

const weather = {
  id: "weather",
  prompt: "Weather for London",
  constraints: [{ id: "location", aliases: ["city"], value: "London" }],
};
const exchange = {
  id: "exchange",
  prompt: "USD to EUR",
  constraints: [{ id: "pair", aliases: ["symbol"], value: "USD/EUR" }],
};
const taskBytes = (...tasks: unknown[]) => Buffer.from(`${tasks.map((t) => JSON.stringify(t)).join("\n")}\n`);
const TASKS = parseTaskSet(taskBytes(weather, exchange), "tasks.jsonl");

const POLICY = parsePolicy(readFileSync(defaultPolicyPath()), defaultPolicyPath());
const APPROVED = "visualcrossing.timeline.retrieve.v1";
const PRIVATE_TOOL = "tenant-private.weather.v9";

function raw(taskId: string, trial: number, over: Partial<RawRecord> = {}): RawRecord {
  return {
    schema_version: 1,
    benchmark_version: "v2",
    run_id: `run-${taskId}-${trial}`,
    model: "model-a",
    metadata: {
      lane: "configured-model",
      model_revision: "unreported",
      adapter_revision: `${COMMIT}/adapter`,
      toolkit_revision: COMMIT,
      task_set_sha256: TASKS.sha256,
      api_base_url: API,
      api_revision: "2026-07-23.2",
      catalog_revision: "unreported",
      catalog_observation_sha256: "pending",
      runtime: { node: "v20.20.2", platform: "linux", arch: "x64" },
      discovery_limit: 10,
      execute: true,
    },
    task_id: taskId,
    trial,
    started_at: "2026-07-24T04:00:00.000Z",
    status: "completed",
    discovery: { result_tool_ids: [APPROVED, PRIVATE_TOOL] },
    selection: { tool_id: APPROVED },
    inspection: {
      returned_tool_ids: [APPROVED],
      required_parameters: [taskId === "weather" ? "city" : "symbol"],
    },
    parameters: taskId === "weather" ? { city: "London" } : { symbol: "USD/EUR" },
    call: { attempted: true, success: true, result_nonempty: true },
    finished_at: "2026-07-24T04:00:05.000Z",
    ...over,
  };
}

/** Both tasks, trials 1..3: an official run. */
const run = (over: (taskId: string, trial: number) => Partial<RawRecord> = () => ({})) =>
  ["weather", "exchange"].flatMap((id) => [1, 2, 3].map((n) => raw(id, n, over(id, n))));

const jsonl = (records: readonly unknown[]) => `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
const rawFile = (records: readonly unknown[]) => parseRecords(Buffer.from(jsonl(records)), "raw.jsonl");

function publish(records: readonly unknown[], policy: PublicationPolicy = POLICY, tasks: TaskSet = TASKS) {
  const result = preparePublication({
    raw: rawFile(records),
    taskSet: tasks,
    policy,
    generatedAt: GENERATED_AT,
  });
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
  return result.value;
}

const codes = (problems: readonly Problem[]) => [...new Set(problems.map((p) => p.code))].sort();

/** The validator's problems after `change` edits a fresh copy of a valid publication. */
function tampered(change: (records: Json[], summary: Json) => void, official = true): Problem[] {
  const { records, summary } = publish(run());
  const copies = JSON.parse(JSON.stringify(records)) as Json[];
  const summaryCopy = JSON.parse(JSON.stringify(summary)) as Json;
  change(copies, summaryCopy);
  return validatePublication(copies, summaryCopy, TASKS, POLICY, { official });
}

// ---------------------------------------------------------------------------------------------

describe("the publication policy", () => {
  const policyText = (over: Json) =>
    Buffer.from(
      JSON.stringify({ ...JSON.parse(readFileSync(defaultPolicyPath(), "utf8")), ...over }, null, 2),
    );
  const problems = (over: Json) => {
    const checked = checkPolicy(policyText(over), "policy.json");
    return checked.ok ? [] : checked.problems.map(formatProblem);
  };

  it("ships fabench's own policy, under its own id, approving only the public API", () => {
    expect(POLICY.policy_id).toBe("fabench-public-artifact-v1");
    expect(POLICY.approved_api_base_urls).toEqual([API]);
    expect(POLICY.forbidden_fields).toEqual(expect.arrayContaining([...REQUIRED_FORBIDDEN_FIELDS]));
  });

  it("refuses a policy that would publish parameters, forget a protected field, or approve a loopback server", () => {
    expect(problems({ publish_parameters: true })).toEqual([
      expect.stringMatching(/^policy\.json:5: invalid_policy: publish_parameters: /),
    ]);
    expect(problems({ forbidden_fields: ["search_id"] }).join("\n")).toMatch(
      /must also forbid execution_id, session_id/,
    );
    for (const url of [
      "http://127.0.0.1:8787/api/v1",
      "https://localhost/api/v1",
      "https://qveris.ai/api/v1?x=1",
    ])
      expect(problems({ approved_api_base_urls: [url] }).join("\n")).toMatch(/approved_api_base_urls\[0\]/);
    expect(problems({ approved_api_base_urls: [] }).length).toBe(1);
  });

  it("refuses a field it does not know rather than ignore a rule", () => {
    expect(problems({ forbidden_value_patterns: ["sk-"] }).join("\n")).toMatch(/forbidden_value_patterns/);
  });
});

describe("publishing raw records", () => {
  it("keeps an approved selected tool and replaces any other by null and the id's SHA-256", () => {
    const { records } = publish(
      run((id, n) =>
        id === "exchange" && n === 2
          ? {
              selection: { tool_id: PRIVATE_TOOL },
              inspection: { returned_tool_ids: [PRIVATE_TOOL], required_parameters: ["symbol"] },
            }
          : {},
      ),
    );
    expect(records[0]?.selection).toEqual({ tool_id: APPROVED });
    expect(records[4]?.selection).toEqual({ tool_id: null, tool_id_sha256: sha256Hex(PRIVATE_TOOL) });
    expect(records[4]?.discovery.selection_grounded).toBe(true);
    expect(records[4]?.inspection.selection_grounded).toBe(true);
  });

  it("replaces discovery and parameters by counts, digests and recomputed attestations", () => {
    const { records } = publish(
      run((id, n) => (id === "weather" && n === 1 ? { parameters: { city: "Paris" } } : {})),
    );
    expect(records[0]).toMatchObject({
      discovery: {
        result_count: 2,
        snapshot_sha256: sha256Hex(JSON.stringify([APPROVED, PRIVATE_TOOL])),
        selection_grounded: true,
      },
      inspection: { selection_grounded: true },
      parameterization: { required_parameter_accuracy: 1, constraint_accuracy: 0 },
    });
    expect(records[1]?.parameterization).toEqual({ required_parameter_accuracy: 1, constraint_accuracy: 1 });
  });

  it("reduces an error to its stage and reason, a missing reason to unclassified", () => {
    const failed = (reason: string | null): Partial<RawRecord> => ({
      status: "failed",
      selection: { tool_id: null },
      inspection: { returned_tool_ids: [], required_parameters: [] },
      parameters: null,
      call: { attempted: false, success: null },
      error: { stage: "adapter", reason_code: reason, message: "provider said: key sk-live-123 refused" },
    });
    const { records } = publish(
      run((id, n) => (id === "weather" && n < 3 ? failed(n === 1 ? "tool_use_rejected" : null) : {})),
    );
    expect(records[0]?.error).toEqual({ stage: "adapter", reason_code: "tool_use_rejected" });
    expect(records[1]?.error).toEqual({ stage: "adapter", reason_code: "unclassified" });
  });

  it("names the policy, recomputes the catalog observation and digests the raw record's text", () => {
    const records = run();
    const { records: published } = publish(records);
    const observation = sha256Hex(
      JSON.stringify(
        records.map((r) => ({
          task_id: r.task_id,
          trial: r.trial,
          result_tool_ids: r.discovery.result_tool_ids,
        })),
      ),
    );
    expect(published[0]?.metadata).toMatchObject({
      catalog_observation_sha256: observation,
      publication_policy: POLICY.policy_id,
    });
    expect(published[2]?.source_record_sha256).toBe(sha256Hex(JSON.stringify(records[2])));
  });

  it("rewrites legacy lanes, and keeps pinned-model only with a real model revision", () => {
    const lane = (lane: RawRecord["metadata"]["lane"], model_revision: string) =>
      publish(run().map((r) => ({ ...r, metadata: { ...r.metadata, lane, model_revision } }))).records[0]
        ?.metadata.lane;
    expect(lane("oracle", "deterministic-reference-v1")).toBe("reference");
    expect(lane("pinned-model", "unreported")).toBe("configured-model");
    expect(lane("pinned-model", "gpt-x-2026-07-01")).toBe("pinned-model");
  });

  it("refuses a run whose declared catalog observation is not its own, or whose API is not approved", () => {
    const problems = (records: RawRecord[]) => {
      const result = publishRecords(rawFile(records), TASKS, POLICY);
      return result.ok ? [] : result.problems.map(formatProblem);
    };
    const stale = run().map((r) => ({
      ...r,
      metadata: { ...r.metadata, catalog_observation_sha256: "b".repeat(64) },
    }));
    expect(problems(stale)).toEqual([expect.stringMatching(/^raw\.jsonl:1: catalog_observation_mismatch: /)]);
    const staging = run().map((r) => ({
      ...r,
      metadata: { ...r.metadata, api_base_url: "https://staging.internal/v1" },
    }));
    const found = problems(staging);
    expect(found).toHaveLength(6);
    expect(found[0]).toMatch(/unapproved_api_base_url/);
    expect(found.join("\n")).not.toContain("staging.internal");
  });

  it("writes no parameter value, error message, unapproved tool id, discovery list or forbidden key", () => {
    const { runsText, summaryText } = publish(
      run((id, n) =>
        id === "weather" && n === 3
          ? {
              status: "failed",
              selection: { tool_id: PRIVATE_TOOL },
              inspection: { returned_tool_ids: [PRIVATE_TOOL], required_parameters: ["city"] },
              parameters: { city: "SecretCity" },
              call: { attempted: true, success: null },
              error: { stage: "api", reason_code: "http_503", message: "upstream body: token=abc123" },
            }
          : {},
      ),
    );
    for (const text of [runsText, summaryText]) {
      for (const secret of ["SecretCity", "London", "USD/EUR", "abc123", "upstream body", PRIVATE_TOOL])
        expect(text).not.toContain(secret);
      for (const key of POLICY.forbidden_fields) expect(text).not.toContain(`"${key}"`);
    }
  });
});

describe("validating public artefacts", () => {
  it("passes what the publisher wrote", () => {
    const { records, summary } = publish(run());
    expect(validatePublication(records, summary, TASKS, POLICY)).toEqual([]);
  });

  it("catches every forbidden key at any depth, in any spelling, and in the summary", () => {
    for (const key of POLICY.forbidden_fields) {
      const spelled = key.toUpperCase().replace(/_/g, "-");
      const problems = tampered((records, summary) => {
        const record = records[0] as Json;
        record[key] = "x";
        (record["metadata"] as Json)[spelled] = "x";
        ((record["metadata"] as Json)["runtime"] as Json)[key] = "x";
        (record["call"] as Json)["details"] = [{ nested: { [key]: "x" } }];
        (summary["models"] as Json[])[0] = { ...(summary["models"] as Json[])[0], [key]: 1 };
      });
      const forbidden = problems
        .filter((p) => p.code === "forbidden_field")
        .map((p) => p.message.split(" ")[0]);
      expect(forbidden.sort(), key).toEqual(
        [
          `$.${key}`,
          `$.metadata.${spelled}`,
          `$.metadata.runtime.${key}`,
          `$.call.details[0].nested.${key}`,
          `$.models[0].${key}`,
        ].sort(),
      );
    }
  });

  it("reads the summary's failure counts as codes, not field names", () => {
    const policy = { ...POLICY, forbidden_fields: [...POLICY.forbidden_fields, "result"] };
    const { records, summary } = publish(
      run((_, n) => (n === 1 ? { call: { attempted: true, success: true, result_nonempty: false } } : {})),
      policy,
    );
    expect(summary.models[0]?.failures_by_stage).toEqual({ result: 2 });
    expect(validatePublication(records, summary, TASKS, policy)).toEqual([]);
  });

  it("accepts exactly the allowed fields at every level", () => {
    const problems = tampered((records) => {
      const [first, second] = records as [Json, Json];
      first["note"] = 1;
      (first["discovery"] as Json)["rank"] = 1;
      (first["parameterization"] as Json)["extra"] = 1;
      delete (second["metadata"] as Json)["publication_policy"];
      delete (second["inspection"] as Json)["selection_grounded"];
      second["selection"] = "tool";
    });
    const messages = problems
      .filter((p) => p.file === "public runs")
      .map((p) => `${p.line} ${p.code} ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "1 unsupported_field $.note is not a field of a public record",
        "1 unsupported_field $.discovery.rank is not a field of a public record",
        "1 unsupported_field $.parameterization.extra is not a field of a public record",
        "2 missing_field $.metadata.publication_policy is missing",
        "2 missing_field $.inspection.selection_grounded is missing",
        '2 not_an_object $.selection must be an object, not "tool"',
      ]),
    );
    expect(codes(problems.filter((p) => p.file === "summary"))).toEqual(["summary_not_rebuilt"]);
  });

  it("checks lifecycle, grounding, call consistency, base URL, lane and tool approval, each with its code", () => {
    const problems = tampered((records) => {
      const [a, b, c, d, e] = records as [Json, Json, Json, Json, Json];
      a["finished_at"] = "2026-07-24T03:59:59.000Z";
      b["status"] = "failed";
      c["discovery"] = { result_count: 0, snapshot_sha256: sha256Hex("[]"), selection_grounded: true };
      d["call"] = { attempted: false, success: true, result_nonempty: true };
      (e["metadata"] as Json)["api_base_url"] = "https://qveris.cn/api/v1";
      (e["metadata"] as Json)["lane"] = "oracle";
      (e["selection"] as Json)["tool_id"] = PRIVATE_TOOL;
    });
    const at = (line: number) => codes(problems.filter((p) => p.line === line && p.file === "public runs"));
    expect(at(1)).toEqual(["invalid_lifecycle"]);
    expect(at(2)).toEqual(["inconsistent_call", "invalid_lifecycle"]);
    expect(at(3)).toEqual(["inconsistent_grounding"]);
    expect(at(4)).toEqual(["inconsistent_call"]);
    expect(at(5)).toEqual(["invalid_lane", "unapproved_api_base_url", "unapproved_tool_id"]);
  });

  it("applies the official-run rules: executed, real revisions, at least three trials", () => {
    const problems = tampered((records) => {
      records.splice(5, 1);
      const metadata = (records[0] as Json)["metadata"] as Json;
      Object.assign(metadata, {
        execute: false,
        adapter_revision: "unreported",
        toolkit_revision: "main",
        api_revision: "pending",
      });
      (records[0] as Json)["call"] = { attempted: false, success: null };
    });
    expect(codes(problems)).toEqual(
      expect.arrayContaining([
        "not_executed",
        "pending_revision",
        "invalid_toolkit_revision",
        "unreported_adapter_revision",
        "too_few_trials",
      ]),
    );
    const unofficial = tampered((records) => records.splice(5, 1), false);
    expect(codes(unofficial)).not.toContain("too_few_trials");
  });

  it("rebuilds the summary from the records and names each field that differs", () => {
    const problems = tampered((_, summary) => {
      const model = (summary["models"] as Json[])[0] as Json;
      model["workflow_success_rate"] = 0.25;
      model["failures_by_reason"] = { made_up: 2 };
      (summary["records"] as Json[]).pop();
    });
    expect(problems.map((p) => `${p.code} ${p.message}`)).toEqual([
      "summary_mismatch models[0].workflow_success_rate is 0.25; the records give 1",
      "summary_mismatch models[0].failures_by_reason.made_up is not a field of the summary",
      "summary_mismatch records has 5 items; the records give 6",
    ]);
    const changed = tampered((_, summary) => {
      ((summary["models"] as Json[])[0] as Json)["constraint_accuracy"] = 0.5;
    });
    expect(changed).toEqual([
      expect.objectContaining({
        code: "summary_mismatch",
        jsonPath: ["models", 0, "constraint_accuracy"],
        message: "models[0].constraint_accuracy is 0.5; the records give 1",
      }),
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The commands

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("discoverCallPublish and discoverCallValidate", () => {
  const dir = useTempDir();
  const inputs = (records: readonly unknown[] = run()) => {
    const tasks = join(dir(), "tasks.jsonl");
    const runs = join(dir(), "raw.jsonl");
    writeFileSync(tasks, taskBytes(weather, exchange));
    writeFileSync(runs, jsonl(records));
    return {
      tasks,
      runs,
      outputRuns: join(dir(), "out", "public.runs.jsonl"),
      outputSummary: join(dir(), "out", "public.summary.json"),
    };
  };
  const now = () => new Date(GENERATED_AT);

  it("writes the public records and their summary, which then validate", () => {
    const files = inputs();
    const published = io();
    expect(discoverCallPublish(files, published.io, { now })).toBe(0);
    expect(published.out.join("")).toMatch(/6 public records.*policy fabench-public-artifact-v1/);
    expect(readFileSync(files.outputRuns, "utf8")).toBe(publish(run()).runsText);
    const checked = io();
    const code = discoverCallValidate(
      { tasks: files.tasks, runs: files.outputRuns, summary: files.outputSummary },
      checked.io,
    );
    expect(checked.err).toEqual([]);
    expect(code).toBe(0);
  });

  it("writes nothing when the run cannot be published, and lists why", () => {
    const files = inputs(run().filter((r) => r.trial < 3));
    const result = io();
    expect(discoverCallPublish(files, result.io, { now })).toBe(1);
    expect(result.err.join("")).toMatch(
      /raw\.jsonl:1: too_few_trials: model model-a has 2 trials of task weather/,
    );
    expect(existsSync(files.outputRuns) || existsSync(files.outputSummary)).toBe(false);
  });

  it("refuses public records as its input: they were published already", () => {
    const files = inputs();
    discoverCallPublish(files, io().io, { now });
    expect(() =>
      discoverCallPublish(
        {
          ...files,
          runs: files.outputRuns,
          outputRuns: join(dir(), "again.jsonl"),
          outputSummary: join(dir(), "again.json"),
        },
        io().io,
      ),
    ).toThrow(expect.objectContaining({ kind: "input", code: "not_raw_records" }));
  });

  it("refuses outputs that are inputs or the same file, before reading anything", () => {
    const files = inputs();
    expect(() => discoverCallPublish({ ...files, outputRuns: files.runs }, io().io)).toThrow(
      /one of this command's inputs/,
    );
    expect(() => discoverCallPublish({ ...files, outputSummary: files.outputRuns }, io().io)).toThrow(
      expect.objectContaining({ code: "same_output" }),
    );
  });

  it("writes neither file when the second cannot be written", () => {
    const files = inputs();
    writeFileSync(join(dir(), "a-file"), "");
    const outputSummary = join(dir(), "a-file", "summary.json");
    expect(() => discoverCallPublish({ ...files, outputSummary }, io().io, { now })).toThrow(
      expect.objectContaining({ code: "cannot_write" }),
    );
    expect(existsSync(files.outputRuns)).toBe(false);
    expect(readdirSync(join(dir(), "out"))).toEqual([]);
  });

  it("puts the first file back when the second rename fails, old contents included", () => {
    const files = inputs();
    mkdirSync(join(dir(), "out"));
    writeFileSync(files.outputRuns, "old runs\n");
    writeFileSync(files.outputSummary, "old summary\n");
    const failing: FileOps = {
      ...nodeFileOps,
      rename: (from, to) => {
        if (to === files.outputSummary && from.includes(".tmp-"))
          throw Object.assign(new Error("EIO"), { code: "ENOSPC" });
        nodeFileOps.rename(from, to);
      },
    };
    expect(() => discoverCallPublish(files, io().io, { now, fileOps: failing })).toThrow(
      expect.objectContaining({ code: "cannot_write" }),
    );
    expect(readFileSync(files.outputRuns, "utf8")).toBe("old runs\n");
    expect(readFileSync(files.outputSummary, "utf8")).toBe("old summary\n");
    expect(readdirSync(join(dir(), "out")).sort()).toEqual(["public.runs.jsonl", "public.summary.json"]);
  });

  it("validates: exit 1 listing 50 problems then counts by code, exit 2 for unreadable input", () => {
    const files = inputs();
    discoverCallPublish(files, io().io, { now });
    const lines = readFileSync(files.outputRuns, "utf8").trimEnd().split("\n");
    const broken = lines.map((line) => {
      const record = JSON.parse(line) as Json;
      return JSON.stringify({
        ...record,
        session_id: "s",
        search_id: "q",
        execution_id: "e",
        a: 1,
        b: 2,
        c: 3,
        d: 4,
        e: 5,
        f: 6,
      });
    });
    writeFileSync(files.outputRuns, `${broken.join("\n")}\n`);
    const result = io();
    const paths = { tasks: files.tasks, runs: files.outputRuns, summary: files.outputSummary };
    expect(discoverCallValidate(paths, result.io)).toBe(1);
    expect(result.err.length).toBe(53);
    expect(result.err[0]).toMatch(/public\.runs\.jsonl:1: forbidden_field: \$\.session_id/);
    expect(result.err[50]).toMatch(/^… and 4 more: unsupported_field ×4\n$/);
    expect(result.err[51]).toMatch(/public\.summary\.json: summary_not_rebuilt/);
    expect(result.err[52]).toBe("not valid: 55 problems\n");

    writeFileSync(files.outputRuns, `${lines[0]}\n{"torn":\n`);
    expect(() => discoverCallValidate(paths, io().io)).toThrow(expect.objectContaining({ kind: "input" }));
    writeFileSync(files.outputRuns, jsonl(run()));
    expect(() => discoverCallValidate(paths, io().io)).toThrow(/raw records/);
  });

  it("gives a tampered summary's problems the line they are on", () => {
    const files = inputs();
    discoverCallPublish(files, io().io, { now });
    const summary = JSON.parse(readFileSync(files.outputSummary, "utf8")) as Json;
    ((summary["models"] as Json[])[0] as Json)["runs"] = 7;
    writeFileSync(files.outputSummary, `${JSON.stringify(summary, null, 2)}\n`);
    const result = io();
    expect(
      discoverCallValidate(
        { tasks: files.tasks, runs: files.outputRuns, summary: files.outputSummary },
        result.io,
      ),
    ).toBe(1);
    expect(result.err[0]).toMatch(
      /public\.summary\.json:11: summary_mismatch: models\[0\]\.runs is 7; the records give 6/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Agreement with the reference implementation

const REFERENCE_POLICY = hasReference ? referencePath("publication-policy.json") : "";

/** Raw records as the reference harness writes them, with fakes that hit its failure paths. */
async function referenceRun(
  tasks: readonly Json[],
  taskSetSha256: string,
  options: { model: string; lane: string; modelRevision: string; seed: number },
): Promise<Json[]> {
  const harness = await referenceHarness();
  const draw = createDraw("seedrandom", options.seed);
  const policy = JSON.parse(readFileSync(REFERENCE_POLICY, "utf8")) as {
    approved_selected_tool_ids: string[];
  };
  const pool = ["tenant.alpha.v1", "tenant.beta.v2", ...policy.approved_selected_tool_ids.slice(0, 4)];
  const byQuery = new Map(tasks.map((t) => [String(t["discover_query"] ?? t["prompt"]), t]));
  const candidates = (task: Json) =>
    ((task["reference"] ?? task["oracle"]) as { candidates?: Array<{ tool_id: string; parameters: Json }> })
      ?.candidates ?? [];
  const apiError = (reason: string) =>
    Object.assign(new Error("boom"), { benchmarkStage: "api", benchmarkReason: reason });
  const adapterError = (reason?: string) =>
    Object.assign(new Error("adapter said: secret"), { benchmarkStage: "adapter", benchmarkReason: reason });
  let current: Json = {};
  let answer: Json = {};
  let required: string[] = [];
  const metadata: Json = {
    lane: options.lane,
    model_revision: options.modelRevision,
    adapter_revision: `${COMMIT}/fake-${options.seed}`,
    toolkit_revision: COMMIT,
    task_set_sha256: taskSetSha256,
    api_base_url: API,
    api_revision: "pending",
    catalog_revision: "pending",
    catalog_observation_sha256: "pending",
    runtime: { node: "v20.20.2", platform: "linux", arch: "x64" },
    discovery_limit: 10,
    execute: true,
  };
  const records = (await harness.runBenchmark({
    tasks: JSON.parse(JSON.stringify(tasks)),
    model: options.model,
    trials: 3,
    execute: true,
    metadata,
    now: (() => {
      let t = Date.parse("2026-07-24T04:00:00.000Z");
      return () => new Date((t += 1000 + draw(5000))).toISOString();
    })(),
    newRunId: (() => {
      let n = 0;
      return () => `${options.seed}-run-${++n}`;
    })(),
    api: {
      discover: async ({ query }: { query: string }) => {
        current = byQuery.get(query) ?? {};
        const mode = draw(20);
        if (mode === 0) return { results: [] };
        if (mode === 1) throw apiError("http_503");
        const ids = [
          ...candidates(current)
            .filter(() => draw(5) !== 0)
            .map((c) => c.tool_id),
          ...pool.filter(() => draw(4) === 0),
        ];
        return { search_id: "search-secret", results: ids.map((tool_id) => ({ tool_id, capability: "x" })) };
      },
      inspect: async ({ toolIds }: { toolIds: string[] }) => {
        const id = toolIds[0] as string;
        if (draw(12) === 0) return { results: [] };
        const candidate = candidates(current).find((c) => c.tool_id === id);
        const constraint = (current["constraints"] as Json[])[0] as Json;
        const wrong = draw(4) === 0;
        answer = candidate?.parameters ?? {
          [(constraint["aliases"] as string[])[0] as string]: wrong ? "Elsewhere" : constraint["value"],
        };
        const params = Object.entries(answer).map(([name, value]) => ({
          name,
          type: typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value,
          required: draw(2) === 0,
        }));
        required = params.filter((p) => p.required).map((p) => p.name);
        return {
          results: [
            { tool_id: id, params: [...params, { name: "extra_opt", type: "string", required: false }] },
          ],
        };
      },
      call: async () => {
        const mode = draw(8);
        if (mode === 0) throw apiError("http_429");
        if (mode === 1) return { success: false };
        if (mode === 2) return { success: true, result: { data: {} } };
        return { success: true, result: { data: { value: 1 } } };
      },
    },
    invokeAdapter: async (payload: { stage: string; input: { discovery?: { results: Json[] } } }) => {
      const mode = draw(14);
      if (payload.stage === "select") {
        if (mode === 0) return { tool_id: null };
        if (mode === 1) return { tool_id: "ungrounded.tool" };
        if (mode === 2) throw adapterError("tool_use_rejected");
        if (mode === 3) throw adapterError();
        const found = (payload.input.discovery?.results ?? []).map((r) => r["tool_id"] as string);
        const preferred = candidates(current).find((c) => found.includes(c.tool_id))?.tool_id;
        return {
          tool_id: mode < 7 ? (found[draw(found.length || 1)] ?? null) : (preferred ?? found[0] ?? null),
        };
      }
      if (mode === 0) return { parameters: "none" };
      if (mode === 1) throw adapterError("model_failed");
      if (mode === 3) return { parameters: { ...answer, not_a_parameter: "x" } };
      const parameters: Json = { ...answer, ...(mode === 2 ? { extra_opt: null } : {}) };
      if (mode === 4) for (const name of required) delete parameters[name];
      return { parameters };
    },
  })) as Json[];
  Object.assign(metadata, { api_revision: "2026-07-23.2", catalog_revision: "unreported" });
  metadata["catalog_observation_sha256"] = sha256Hex(
    JSON.stringify(
      records.map((r) => ({
        task_id: r["task_id"],
        trial: r["trial"],
        result_tool_ids: (r["discovery"] as Json)["result_tool_ids"],
      })),
    ),
  );
  // Older runners wrote result_valid; the publisher reads either.
  if (options.seed % 2 === 1)
    for (const r of records.slice(0, 4)) {
      const call = r["call"] as Json;
      if ("result_nonempty" in call) {
        call["result_valid"] = call["result_nonempty"];
        delete call["result_nonempty"];
      }
    }
  return records;
}

const RUNS = [
  {
    name: "reference",
    version: 4,
    model: "reference-v1",
    lane: "reference",
    modelRevision: "deterministic-reference-v1",
  },
  {
    name: "configured",
    version: 4,
    model: "gpt-test",
    lane: "configured-model",
    modelRevision: "unreported",
  },
  {
    name: "pinned",
    version: 4,
    model: "gpt-pinned",
    lane: "pinned-model",
    modelRevision: "gpt-test-2026-07-01",
  },
  { name: "unpinned", version: 3, model: "gpt-legacy", lane: "pinned-model", modelRevision: "unreported" },
  {
    name: "oracle",
    version: 3,
    model: "oracle-v1",
    lane: "oracle",
    modelRevision: "deterministic-oracle-v1",
  },
];

describe.skipIf(!hasReference)("the reference implementation's publisher and validator", () => {
  const dir = useTempDir();
  /** The public run files of the byte-for-byte comparisons. */
  const seen: string[] = [];
  const taskFile = (version: number) => referencePath("tasks", `v${version}.jsonl`);

  it.each(RUNS.flatMap((r) => [1, 2].map((seed) => ({ ...r, seed }))))(
    "$name run, seed $seed: our public records are the reference publisher's, byte for byte",
    async ({ name, version, seed, ...options }) => {
      const taskSet = parseTaskSet(readFileSync(taskFile(version)), taskFile(version));
      const records = await referenceRun(taskSet.tasks as unknown as Json[], taskSet.sha256, {
        ...options,
        seed,
      });
      const runs = join(dir(), `${name}.raw.jsonl`);
      writeFileSync(runs, jsonl(records));
      // Odd seeds rename a few result_nonempty to the older result_valid, which both publishers read.
      expect(jsonl(records).includes('"result_valid"')).toBe(seed % 2 === 1);
      const theirs = { runs: join(dir(), "theirs.runs.jsonl"), summary: join(dir(), "theirs.summary.json") };
      const reference = spawnSync(
        process.execPath,
        [
          referencePath("src", "publish.mjs"),
          ...["--tasks", taskFile(version), "--runs", runs, "--policy", REFERENCE_POLICY],
          ...["--output-runs", theirs.runs, "--output-summary", theirs.summary],
        ],
        { encoding: "utf8" },
      );
      expect(reference.status, reference.stderr).toBe(0);
      const ours = {
        outputRuns: join(dir(), "ours", `${name}-v${version}.runs.jsonl`),
        outputSummary: join(dir(), "ours", `${name}-v${version}.summary.json`),
      };
      const result = io();
      const code = discoverCallPublish(
        { tasks: taskFile(version), runs, policy: REFERENCE_POLICY, ...ours },
        result.io,
        { now: () => new Date(GENERATED_AT) },
      );
      expect(result.err.join(""), "fabench publish").toBe("");
      expect(code).toBe(0);
      expect(readFileSync(ours.outputRuns, "utf8")).toBe(readFileSync(theirs.runs, "utf8"));
      const time = /"generated_at": "[^"]*"/;
      expect(readFileSync(ours.outputSummary, "utf8").replace(time, "")).toBe(
        readFileSync(theirs.summary, "utf8").replace(time, ""),
      );
      const published = readFileSync(ours.outputRuns, "utf8");
      seen.push(published);
      const lane = { oracle: "reference", unpinned: "configured-model" }[name] ?? options.lane;
      expect(published).toContain(`"lane":"${lane}"`);
    },
  );

  it("compared runs that went down every path publication treats differently", () => {
    const all = seen.join("");
    for (const path of [
      '"tool_id_sha256"', // an unapproved tool, hashed
      '"tool_id":null,"tool_id_sha256"',
      '"selection":{"tool_id":"', // an approved tool, kept
      '"reason_code":"unclassified"', // an error without a reason
      '"reason_code":"missing_search_id"',
      '"reason_code":"ungrounded_tool_id"',
      '"reason_code":"selected_tool_not_returned"',
      '"reason_code":"invalid_parameter_values"',
      '"reason_code":"http_429"', // a failed call: attempted, success null
      '"reason_code":"invalid_parameters"',
      '"constraint_accuracy":0',
      '"required_parameter_accuracy":0,',
      '"result_nonempty":false',
      '"success":false',
      '"discovery":{"result_count":0',
    ])
      expect(all.includes(path), path).toBe(true);
  });

  it("the reference validator accepts what fabench publishes, under its policy and under fabench's", async () => {
    for (const [policyName, policy] of [
      ["reference", REFERENCE_POLICY],
      ["fabench", defaultPolicyPath()],
    ] as const) {
      const root = join(dir(), `tree-${policyName}`);
      for (const part of ["src", "tasks", "fixtures"])
        cpSync(referencePath(part), join(root, part), { recursive: true });
      cpSync(policy, join(root, "publication-policy.json"));
      mkdirSync(join(root, "results"));
      for (const [i, { version, ...options }] of RUNS.map((r, i) => [i, { ...r, seed: 10 + i }] as const)) {
        const taskSet = parseTaskSet(readFileSync(taskFile(version)), taskFile(version));
        const runs = join(dir(), `raw-${policyName}-${i}.jsonl`);
        writeFileSync(
          runs,
          jsonl(await referenceRun(taskSet.tasks as unknown as Json[], taskSet.sha256, options)),
        );
        const stem = join(root, "results", `${options.name}-v${version}`);
        const result = io();
        const code = discoverCallPublish(
          {
            tasks: taskFile(version),
            runs,
            policy,
            outputRuns: `${stem}.runs.jsonl`,
            outputSummary: `${stem}.summary.json`,
          },
          result.io,
        );
        expect(result.err.join(""), `${policyName} ${options.name}`).toBe("");
        expect(code).toBe(0);
      }
      const validated = spawnSync(process.execPath, [join(root, "src", "validate.mjs")], {
        encoding: "utf8",
      });
      expect(validated.stderr).toBe("");
      expect(validated.status).toBe(0);
      expect(validated.stdout).toMatch(/and 5 public result files/);
    }
  });

  it("fabench reads the reference's policy file as it is", () => {
    expect(checkPolicy(readFileSync(REFERENCE_POLICY), REFERENCE_POLICY)).toMatchObject({
      ok: true,
      value: { policy_id: "public-artifact-v1" },
    });
  });

  it("the reference's policy check accepts fabench's default policy", async () => {
    const reference = (await import(pathToFileURL(referencePath("src", "publication.mjs")).href)) as {
      validatePolicy: (policy: unknown) => void;
    };
    expect(() =>
      reference.validatePolicy(JSON.parse(readFileSync(defaultPolicyPath(), "utf8"))),
    ).not.toThrow();
  });

  const published = hasReference
    ? readdirSync(referencePath("results")).filter((name) => name.endsWith(".runs.jsonl"))
    : [];
  it.each(published)("%s and its summary pass fabench's validator under the reference policy", (name) => {
    const version = /-v(\d+)\.runs\.jsonl$/.exec(name)?.[1];
    const result = io();
    const code = discoverCallValidate(
      {
        tasks: taskFile(Number(version)),
        runs: referencePath("results", name),
        summary: referencePath("results", name.replace(".runs.jsonl", ".summary.json")),
        policy: REFERENCE_POLICY,
      },
      result.io,
    );
    expect(result.err).toEqual([]);
    expect(code).toBe(0);
  });

  it("a published result fails fabench's validator under fabench's policy: another policy id", () => {
    const name = published[0] as string;
    const version = Number(/-v(\d+)\.runs\.jsonl$/.exec(name)?.[1]);
    const result = io();
    const code = discoverCallValidate(
      {
        tasks: taskFile(version),
        runs: referencePath("results", name),
        summary: referencePath("results", name.replace(".runs.jsonl", ".summary.json")),
      },
      result.io,
    );
    expect(code).toBe(1);
    expect(result.err[0]).toMatch(/policy_mismatch/);
  });
});
