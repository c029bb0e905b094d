/**
 * The Discover → Call runner (issue #17, item 4) end to end: `fabench discover-call run` against the
 * loopback imitation API and the deterministic fixture adapter. Every failure kind ends in its
 * record (and, when the reference implementation is checked out, in the record its runner writes
 * for the same server and adapter); dry run and --execute; plan order under concurrency; the
 * --max-calls cap; nothing sent before everything is checked; the key and the session ids never
 * written. kill -9 and --resume: run-kill.slow.test.ts (the slow tier).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Adapter, type AdapterRequest } from "../../src/discover-call/adapter-protocol.ts";
import { createDiscoverCallApi } from "../../src/discover-call/api.ts";
import { type RawMetadata } from "../../src/discover-call/records.ts";
import { planTrials, runTrials } from "../../src/discover-call/run.ts";
import { resolveToolkitRevision } from "../../src/discover-call/run-options.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";
import { hasReference, referencePath } from "./fixtures/reference.ts";
import { type ImitationServer, startImitationServer } from "./imitation-server.ts";

import {
  API_FAULTS,
  behaving,
  CALLING,
  candidate,
  CATALOG,
  ENV,
  EVERY_KIND,
  KEY,
  outcome,
  PREFLIGHT_PASSES,
  readRecords,
  type Rec,
  runArgs,
  stable,
  task,
  TOOLKIT,
  trialRequests,
  UNGROUNDED,
  writeTasks,
} from "./run-fixtures.ts";

describe("every failure kind ends in its record", () => {
  const dir = useSuiteTempDir();
  let records: Rec[] = [];
  let tasksFile = "";
  let run = { code: -1, out: "", err: "" };

  let server: ImitationServer;
  beforeAll(async () => {
    tasksFile = writeTasks(
      dir(),
      EVERY_KIND.map(([t]) => t),
    );
    server = await startImitationServer({
      key: KEY,
      catalog: CATALOG,
      faults: [PREFLIGHT_PASSES, ...API_FAULTS],
    });
    const output = join(dir(), "fabench.jsonl");
    run = await runCli(runArgs({ tasks: tasksFile, output, url: server.url }), { env: ENV });
    records = readRecords(output);
  }, 120_000);
  afterAll(() => server.close());

  it("writes one record per trial, each with the outcome its task provokes", () => {
    expect(run.code).toBe(0);
    expect(records.map((r) => [r.task_id, outcome(r)])).toEqual(EVERY_KIND.map(([t, o]) => [t.id, o]));
  });

  it("records what each trial saw up to where it stopped", () => {
    const byId = new Map(records.map((r) => [r.task_id, r]));
    const ok = byId.get("weather-ok") as Rec;
    expect(ok.parameters).toEqual({ city: "London", units: "metric" });
    expect(ok.inspection.required_parameters).toEqual(["city"]);
    expect(ok.call).toEqual({ attempted: true, success: true, result_nonempty: true });
    expect(byId.get("geo-one-of")?.inspection.required_parameters).toEqual([["address", "place_id"]]);
    // Optional parameters the adapter left null are dropped before validation and the record.
    expect(byId.get("schema-values")?.parameters).toEqual({ city: "fixture" });
    expect(byId.get("news-empty")?.call).toEqual({ attempted: true, success: true, result_nonempty: false });
    expect(byId.get("papers-failure")?.call).toEqual({
      attempted: true,
      success: false,
      result_nonempty: false,
    });
    expect(byId.get("api-execute-500")?.call).toEqual({ attempted: true, success: null });
    const ghost = byId.get("ghost-not-returned") as Rec;
    expect([ghost.selection.tool_id, ghost.inspection.returned_tool_ids, ghost.parameters]).toEqual([
      "ghost.lookup.v1",
      [],
      null,
    ]);
    const ungrounded = byId.get("kind-ungrounded_tool_id") as Rec;
    expect(ungrounded.selection.tool_id).toBe("fixture.not-discovered");
    expect(ungrounded.inspection.returned_tool_ids).toEqual([]);
    // Fixed messages only: nothing an adapter printed reaches a record.
    const text = JSON.stringify(records);
    expect(text).not.toContain("fixture private detail");
    expect(text).not.toContain("sk-fixture-never-recorded");
    for (const r of records.filter((x) => x.error?.stage === "adapter"))
      expect(r.error?.message).toBe("Adapter invocation failed");
  });

  it("fills the observed revisions and the catalog observation at the final write", () => {
    const metadata = records.map((r) => r.metadata);
    expect(new Set(metadata.map((m) => JSON.stringify(m))).size).toBe(1);
    expect(metadata[0]).toMatchObject({
      lane: "configured-model",
      model_revision: "unreported",
      adapter_revision: "fixture-adapter-1",
      toolkit_revision: TOOLKIT,
      api_revision: "imitation-api-1",
      catalog_revision: "imitation-catalog-1",
      discovery_limit: 10,
      execute: true,
    });
    expect(metadata[0]?.catalog_observation_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(records)).not.toContain("pending");
  });

  it.skipIf(!hasReference)(
    "writes the records the reference runner writes for the same server, tasks and adapter",
    async () => {
      // The same server, so the same base URL, with the same faults again.
      server.setFaults(API_FAULTS);
      // No git on the reference's PATH: it then records the declared --toolkit-revision as it is.
      const noGit = mkdtempSync(join(tmpdir(), "fabench-no-git-"));
      const output = join(dir(), "reference.jsonl");
      try {
        const args = runArgs({ tasks: tasksFile, output, url: server.url }).slice(2);
        const baseUrl = args.indexOf("--base-url");
        args.splice(baseUrl, 2);
        // The reference runner names its output --output (fabench's --out, #35).
        args.splice(args.indexOf("--out"), 1, "--output");
        const child = spawn(process.execPath, [referencePath("src", "run.mjs"), ...args], {
          env: { QVERIS_API_KEY: KEY, QVERIS_BASE_URL: server.url, PATH: noGit },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
        const code = await new Promise((resolve) => child.on("close", resolve));
        expect([code, stderr]).toEqual([0, ""]);
      } finally {
        rmSync(noGit, { recursive: true, force: true });
      }
      const reference = readRecords(output);
      expect(records.map(stable)).toEqual(reference.map(stable));
      // Field for field in the same order, at every level the record has.
      records.forEach((record, i) => {
        const other = reference[i] as Rec;
        expect(Object.keys(record)).toEqual(Object.keys(other));
        expect(Object.keys(record.metadata)).toEqual(Object.keys(other.metadata));
        expect(Object.keys(record.call)).toEqual(Object.keys(other.call));
      });
      expect(records[0]?.metadata.toolkit_revision).toBe(reference[0]?.metadata.toolkit_revision);
    },
    120_000,
  );
});

describe("fabench discover-call run", () => {
  const temp = useTempDir();
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: KEY, catalog: CATALOG });
  });
  afterEach(() => server.close());

  const requests = (endpoint: string) => server.requests.filter((r) => r.endpoint === endpoint);

  it("makes no call without --execute, and says it was a dry run", async () => {
    const tasks = writeTasks(temp(), [...CALLING, UNGROUNDED]);
    const output = join(temp(), "dry.jsonl");
    const run = await runCli(runArgs({ tasks, output, url: server.url, execute: false }), { env: ENV });
    expect(run.code).toBe(0);
    expect(run.out).toContain("dry run: no calls (add --execute to call tools)");
    expect(requests("execute")).toEqual([]);
    const records = readRecords(output);
    expect(records.map(outcome)).toEqual([
      "completed",
      "completed",
      "completed",
      "completed",
      "select/ungrounded_tool_id",
    ]);
    for (const r of records) {
      expect(r.call).toEqual({ attempted: false, success: null });
      expect(r.metadata.execute).toBe(false);
    }
  });

  it("with --execute calls each grounded, valid trial once, sending the model", async () => {
    const tasks = writeTasks(temp(), [...CALLING, UNGROUNDED]);
    const output = join(temp(), "execute.jsonl");
    const run = await runCli(runArgs({ tasks, output, url: server.url, trials: 2 }), { env: ENV });
    expect(run.code).toBe(0);
    expect(run.out).toContain("10 of 10 trial(s) recorded (10 new, 0 already finished); 8 billed call(s)");
    const calls = requests("execute");
    expect(calls.map((c) => c.query["tool_id"])).toEqual(
      CALLING.flatMap((t) => {
        const id = t.reference?.candidates[0]?.tool_id;
        return [id, id];
      }),
    );
    for (const call of calls)
      expect(call.body).toMatchObject({ model: "fixture-model", respond_with: "full" });
  });

  it("sends each trial's own session id with discover, inspect and execute, and never stores it", async () => {
    const tasks = writeTasks(temp(), CALLING);
    const output = join(temp(), "sessions.jsonl");
    expect((await runCli(runArgs({ tasks, output, url: server.url, trials: 2 }), { env: ENV })).code).toBe(0);
    const sessionOf = (r: (typeof server.requests)[number]) => (r.body as { session_id: string }).session_id;
    const sessions = [...new Set(trialRequests(server).map(sessionOf))];
    expect(sessions).toHaveLength(8);
    for (const session of sessions)
      expect(server.requests.filter((r) => sessionOf(r) === session).map((r) => r.endpoint)).toEqual([
        "search",
        "inspect",
        "execute",
      ]);
    const text = readFileSync(output, "utf8");
    const records = readRecords(output);
    for (const session of sessions) expect(text).not.toContain(session);
    for (const r of records) expect(sessions).not.toContain(r.run_id);
    expect(new Set(records.map((r) => r.run_id)).size).toBe(8);
  });

  it("writes records in plan order at --concurrency 4, the records of a run one trial at a time", async () => {
    const tasks = writeTasks(temp(), [...CALLING, UNGROUNDED]);
    const one = join(temp(), "one.jsonl");
    const four = join(temp(), "four.jsonl");
    expect(
      (await runCli(runArgs({ tasks, output: one, url: server.url, trials: 3 }), { env: ENV })).code,
    ).toBe(0);
    const parallel = await runCli(
      runArgs({ tasks, output: four, url: server.url, trials: 3, extra: ["--concurrency", "4"] }),
      { env: ENV },
    );
    expect(parallel.code).toBe(0);
    const records = readRecords(four);
    expect(records.map((r) => [r.task_id, r.trial])).toEqual(
      [...CALLING, UNGROUNDED].flatMap((t) => [1, 2, 3].map((trial) => [t.id, trial])),
    );
    expect(records.map(stable)).toEqual(readRecords(one).map(stable));
    // The progress line on stderr counts trials.
    expect(parallel.err).toMatch(/^discover-call run .*four\.jsonl: 15\/15 trials, /m);
  });

  it("stops before a trial that could pass --max-calls, exits 1, and --resume finishes the plan", async () => {
    const tasks = writeTasks(temp(), [UNGROUNDED, ...CALLING]);
    const output = join(temp(), "capped.jsonl");
    const capped = (extra: string[]) =>
      runCli(
        runArgs({ tasks, output, url: server.url, trials: 2, extra: ["--concurrency", "3", ...extra] }),
        {
          env: ENV,
        },
      );
    const first = await capped(["--max-calls", "3"]);
    expect(first.code).toBe(1);
    expect(first.err).toContain(
      "stopped before the next trial: 3 billed call(s) made, the --max-calls limit",
    );
    expect(first.err).toContain("5 trial(s) left; continue with the same command and --resume");
    expect(requests("execute")).toHaveLength(3);
    // The two ungrounded trials never held a call: the first five trials of the plan are recorded.
    const partial = readRecords(output);
    expect(partial.map((r) => [r.task_id, r.trial])).toEqual([
      [UNGROUNDED.id, 1],
      [UNGROUNDED.id, 2],
      ["weather-ok", 1],
      ["weather-ok", 2],
      ["stock-ok", 1],
    ]);
    expect(partial.every((r) => r.metadata.api_revision === "imitation-api-1")).toBe(true);

    const second = await capped(["--max-calls", "4", "--resume"]);
    expect(second.code).toBe(1);
    expect(requests("execute")).toHaveLength(7);
    const last = await capped(["--max-calls", "4", "--resume"]);
    expect(last.code).toBe(0);
    expect(last.out).toContain("10 of 10 trial(s) recorded (1 new, 9 already finished); 1 billed call(s)");
    expect(requests("execute")).toHaveLength(8);
    const records = readRecords(output);
    expect(records.map((r) => [r.task_id, r.trial])).toEqual(
      [UNGROUNDED, ...CALLING].flatMap((t) => [1, 2].map((trial) => [t.id, trial])),
    );
    expect(records.slice(0, 5).map((r) => r.run_id)).toEqual(partial.map((r) => r.run_id));
    expect(new Set(records.map((r) => JSON.stringify(r.metadata))).size).toBe(1);
  });

  /** A run with a built-in model adapter (its flags appended): no --adapter-arg. */
  const builtIn = (tasks: string, output: string, flags: string[]) => {
    const argv = runArgs({ tasks, output, url: server.url });
    const arg = argv.indexOf("--adapter-arg");
    argv.splice(arg, 4);
    return [...argv, ...flags];
  };

  it("checks the task set, the key, the URL and the adapter before sending anything", async () => {
    const good = writeTasks(temp(), CALLING);
    const bad = join(temp(), "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify(CALLING[0])}\n{"id": "no-prompt", "constraints": []}\n`);
    const output = join(temp(), "never.jsonl");
    const cases: [string[], Record<string, string>, RegExp][] = [
      [runArgs({ tasks: bad, output, url: server.url }), ENV, /bad\.jsonl:2: invalid_task: /],
      [runArgs({ tasks: good, output, url: server.url }), {}, /missing_api_key/],
      [runArgs({ tasks: good, output, url: "http://example.com/api/v1" }), ENV, /insecure_base_url/],
      [runArgs({ tasks: good, output, url: "not a url" }), ENV, /bad_base_url/],
      [runArgs({ tasks: good, output, url: `${server.url}?x=1` }), ENV, /base_url_query/],
      [
        [...runArgs({ tasks: good, output, url: server.url }), "--lane", "pinned-model"],
        ENV,
        /missing_model_revision/,
      ],
      [[...runArgs({ tasks: good, output, url: server.url }), "--lane", "oracle"], ENV, /unknown_lane/],
      [
        [...runArgs({ tasks: good, output, url: server.url }), "--trials", "101"],
        ENV,
        /--trials takes at most 100/,
      ],
      [
        [...runArgs({ tasks: good, output, url: server.url }), "--toolkit-revision", "HEAD"],
        ENV,
        /bad_toolkit_revision/,
      ],
      [[...runArgs({ tasks: good, output: good, url: server.url })], ENV, /output_is_input/],
      [builtIn(good, output, ["--adapter", "openai:gpt-test"]), ENV, /OPENAI_API_KEY/],
      [builtIn(good, output, ["--adapter", "openai-compatible:local"]), ENV, /missing_base_url/],
      // The benchmark's own key never goes to a model provider.
      [
        builtIn(good, output, ["--adapter", "openai:gpt-test", "--adapter-api-key-env", "QVERIS_API_KEY"]),
        ENV,
        /missing_api_key: --adapter-api-key-env QVERIS_API_KEY: adapters never get this variable/,
      ],
      [
        [...runArgs({ tasks: good, output, url: server.url }), "--adapter-base-url", "http://127.0.0.1:1/v1"],
        ENV,
        /adapter_option_unused/,
      ],
    ];
    for (const [argv, env, message] of cases) {
      const run = await runCli(argv, { env });
      expect([run.code, run.err]).toEqual([2, expect.stringMatching(message)]);
    }
    expect(server.requests).toEqual([]);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(`${output}.lock`)).toBe(false);
  });

  it("refuses an existing --out without --resume", async () => {
    const tasks = writeTasks(temp(), CALLING);
    const output = join(temp(), "exists.jsonl");
    writeFileSync(output, "");
    const run = await runCli(runArgs({ tasks, output, url: server.url }), { env: ENV });
    expect([run.code, run.err]).toEqual([2, expect.stringContaining("output_exists")]);
    expect(server.requests).toEqual([]);
  });

  it("never writes the key: not to the records, stdout or stderr, even when the API echoes it", async () => {
    server.setFaults([PREFLIGHT_PASSES, { endpoint: "search", fault: { kind: "echo_key" } }]);
    const tasks = writeTasks(temp(), [...CALLING, behaving("process_exit")]);
    const output = join(temp(), "key.jsonl");
    const run = await runCli(runArgs({ tasks, output, url: server.url }), { env: ENV });
    expect(run.code).toBe(0);
    expect(readRecords(output).map(outcome)[0]).toBe("api/invalid_response");
    for (const text of [readFileSync(output, "utf8"), run.out, run.err]) expect(text).not.toContain(KEY);
  });

  it("resumes a finished run without running anything again, and refuses another run's file", async () => {
    const tasks = writeTasks(temp(), CALLING);
    const output = join(temp(), "done.jsonl");
    expect((await runCli(runArgs({ tasks, output, url: server.url }), { env: ENV })).code).toBe(0);
    const before = readFileSync(output, "utf8");
    const sent = server.requests.length;
    const again = await runCli(runArgs({ tasks, output, url: server.url, extra: ["--resume"] }), {
      env: ENV,
    });
    expect(again.code).toBe(0);
    expect(again.out).toContain("4 of 4 trial(s) recorded (0 new, 4 already finished); 0 billed call(s)");
    expect(server.requests).toHaveLength(sent);
    expect(readFileSync(output, "utf8")).toBe(before);

    const other = await runCli(
      runArgs({ tasks, output, url: server.url, extra: ["--resume", "--limit", "5"] }),
      {
        env: ENV,
      },
    );
    expect(other.code).toBe(2);
    expect(other.err).toMatch(
      /done\.jsonl:1: resume_mismatch: recorded with other settings: discovery_limit differs/,
    );
    const model = runArgs({ tasks, output, url: server.url, extra: ["--resume"] });
    model[model.indexOf("--model") + 1] = "another-model";
    expect((await runCli(model, { env: ENV })).err).toMatch(
      /resume_mismatch: recorded with --model fixture-model/,
    );
    expect(server.requests).toHaveLength(sent);
    expect(readFileSync(output, "utf8")).toBe(before);
  });
});

/** Where a killed run stops: `after` whole records, then `permille`/1000 of the next line's bytes. */
describe("the runner's parts", () => {
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: KEY, catalog: CATALOG });
  });
  afterEach(() => server.close());

  const METADATA: RawMetadata = {
    lane: "configured-model",
    model_revision: "unreported",
    adapter_revision: "spy-1",
    toolkit_revision: TOOLKIT,
    task_set_sha256: "f".repeat(64),
    api_base_url: "http://127.0.0.1",
    api_revision: "pending",
    catalog_revision: "pending",
    catalog_observation_sha256: "pending",
    runtime: { node: "v0", platform: "test", arch: "test" },
    discovery_limit: 10,
    execute: true,
  };

  it("never shows the adapter a session id, the key, the discovery query, constraints or the reference", async () => {
    const seen: AdapterRequest[] = [];
    const adapter: Adapter = async (request) => {
      seen.push(request);
      if (request.stage === "select") return { tool_id: "weather.forecast.v1" };
      return { parameters: { city: "London", units: null, days: null, include_hourly: null } };
    };
    const api = createDiscoverCallApi({
      baseUrl: server.url,
      apiKey: KEY,
      fetch,
      sleep: async () => undefined,
      now: () => 0,
    });
    const t = task(
      "spy",
      "weather forecast secret-query",
      candidate("weather.forecast.v1", { city: "secret-city" }),
    );
    let id = 0;
    const outcome = await runTrials(
      planTrials([t], 2),
      { model: "spy-model", metadata: METADATA },
      { concurrency: 2, maxCalls: null, breaker: null },
      {
        api,
        adapter,
        now: () => new Date(0),
        newRunId: () => `run-${++id}`,
        newSessionId: () => `session-${++id}`,
        write: () => undefined,
      },
    );
    expect(outcome.records.map((r) => [r.status, r.parameters])).toEqual([
      ["completed", { city: "London" }],
      ["completed", { city: "London" }],
    ]);
    const sent = JSON.stringify(seen);
    expect(seen).toHaveLength(4);
    for (const secret of ["session-", KEY, "secret-query", "secret-city", "constraints", "aliases"])
      expect(sent).not.toContain(secret);
    expect(server.requests.map((r) => (r.body as { session_id: string }).session_id).sort()).toEqual([
      ...Array(3).fill("session-2"),
      ...Array(3).fill("session-4"),
    ]);
  });

  it("records toolkit revisions from the flag, or a clean checkout's HEAD only", () => {
    const head = "b".repeat(40);
    const clean = { head: () => head, trackedChanges: () => "" };
    expect(resolveToolkitRevision(` ${"C".repeat(64)} `, clean)).toBe("c".repeat(64));
    expect(resolveToolkitRevision(undefined, clean)).toBe(head);
    const code = (f: () => unknown) => {
      try {
        f();
        return null;
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(code(() => resolveToolkitRevision("abc123", clean))).toBe("bad_toolkit_revision");
    expect(
      code(() =>
        resolveToolkitRevision(undefined, { head: () => head, trackedChanges: () => " M src/cli.ts\n" }),
      ),
    ).toBe("dirty_checkout");
    expect(
      code(() => resolveToolkitRevision(undefined, { head: () => null, trackedChanges: () => "" })),
    ).toBe("toolkit_revision_required");
    expect(
      code(() => resolveToolkitRevision(undefined, { head: () => head, trackedChanges: () => null })),
    ).toBe("toolkit_revision_required");
  });
});
