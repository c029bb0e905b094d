/**
 * Issue #25 for `discover-call run`: fail fast, and never record an outage as a measurement. The
 * adapter is started before the API sees a request; the API must answer a preflight request before
 * anything is written; a run whose API stops answering stops after a few consecutive trials that
 * failed the same way, records none of them, and `--resume` against the healthy API completes it
 * to the records of an uninterrupted run; a reply trickled byte by byte is cut by
 * `--request-timeout`. Every "stops" is shown by counting requests and records, never by timing.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type DiscoverCallRunOptions,
  discoverCallRun,
  realRunDeps,
} from "../../src/commands/discover-call/run.ts";
import { FabenchError, formatProblem } from "../../src/core/index.ts";
import { PREFLIGHT_QUERY } from "../../src/discover-call/api.ts";
import type { RawMetadata, RawRecord } from "../../src/discover-call/records.ts";
import { DEFAULT_BREAKER_TRIALS } from "../../src/discover-call/run.ts";
import type { DiscoverCallTask } from "../../src/discover-call/tasks.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { type FaultRule, type ImitationServer, startImitationServer } from "./imitation-server.ts";

const KEY = "qv-fail-fast-key-41d0c9";
const ADAPTER = fileURLToPath(new URL("./fixtures/adapter.mjs", import.meta.url));
const TOOLKIT = "0123456789abcdef0123456789abcdef01234567";
const ENV = { QVERIS_API_KEY: KEY };

const task = (id: string, query: string, tool_id: string, parameters: Record<string, unknown>) =>
  ({
    id,
    prompt: `Task ${id}.`,
    discover_query: query,
    constraints: [{ id: "c", aliases: ["city", "query", "symbols"], value: "London" }],
    reference: { candidates: [{ tool_id, parameters }] },
  }) as DiscoverCallTask;

/** Four tasks that reach their call: with 2 trials each, a plan of 8 trials. */
const TASKS: readonly DiscoverCallTask[] = [
  task("weather-ok", "weather forecast", "weather.forecast.v1", { city: "London" }),
  task("stock-ok", "stock quote", "stocks.quote.v1", { symbols: ["AAPL"] }),
  task("news-empty", "news search", "news.search.v1", { query: "London" }),
  task("papers-failure", "academic papers", "papers.search.v1", { query: "London" }),
];
const TRIALS = 2;
const PLAN = TASKS.flatMap((t) => [1, 2].map((trial) => [t.id, trial]));

type Rec = RawRecord & Record<string, unknown>;

function writeTasks(dir: string, tasks: readonly DiscoverCallTask[] = TASKS): string {
  const path = join(dir, "tasks.jsonl");
  writeFileSync(path, tasks.map((t) => `${JSON.stringify(t)}\n`).join(""));
  return path;
}

function readRecords(path: string): Rec[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Rec);
}

/** What must not depend on run ids, clocks or the machine. */
function stable(record: Rec): Record<string, unknown> {
  const { run_id: _r, started_at: _s, finished_at: _f, metadata, ...rest } = record;
  const { toolkit_revision: _t, runtime: _rt, ...kept } = metadata as RawMetadata;
  return { ...rest, metadata: kept };
}

const outcome = (r: Rec) => (r.error ? `${r.error.stage}/${r.error.reason_code}` : r.status);

interface Args {
  readonly tasks: string;
  readonly output: string;
  readonly url: string;
  readonly adapter?: readonly string[];
  readonly extra?: readonly string[];
}

function argv(a: Args): string[] {
  return [
    "discover-call",
    "run",
    "--model",
    "fixture-model",
    "--lane",
    "configured-model",
    "--tasks",
    a.tasks,
    ...(a.adapter ?? ["--adapter", process.execPath, "--adapter-arg", ADAPTER, "--adapter-arg", a.tasks]),
    "--adapter-revision",
    "fixture-adapter-1",
    "--toolkit-revision",
    TOOLKIT,
    "--trials",
    String(TRIALS),
    "--adapter-timeout-ms",
    "10000",
    "--base-url",
    a.url,
    "--out",
    a.output,
    "--execute",
    ...(a.extra ?? []),
  ];
}

/** The command's options as the CLI hands them over, for runs that need an injected sleep. */
function options(a: Omit<Args, "adapter" | "extra">, more: Partial<DiscoverCallRunOptions> = {}) {
  const base: DiscoverCallRunOptions = {
    model: "fixture-model",
    lane: "configured-model",
    tasks: a.tasks,
    adapter: process.execPath,
    adapterArg: [ADAPTER, a.tasks],
    adapterRevision: "fixture-adapter-1",
    toolkitRevision: TOOLKIT,
    trials: TRIALS,
    limit: 10,
    execute: true,
    adapterTimeoutMs: 10_000,
    baseUrl: a.url,
    output: a.output,
    resume: false,
    concurrency: 1,
    openaiApi: "chat",
  };
  return { ...base, ...more };
}

/**
 * `discoverCallRun` with the real fetch and clock but a sleep that only counts: the client's
 * backoff between retries is asked for, not waited out. A thrown FabenchError is printed as the
 * CLI prints it (one line per problem) with its exit code.
 */
async function runDirect(o: DiscoverCallRunOptions, sleeps: number[] = []) {
  let out = "";
  let err = "";
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), env: ENV };
  const deps = {
    ...realRunDeps(),
    sleep: async (ms: number) => void sleeps.push(ms),
  };
  try {
    const code = await discoverCallRun(o, io, deps);
    return { code, out, err };
  } catch (error) {
    if (!(error instanceof FabenchError)) throw error;
    for (const problem of error.problems) err += `${formatProblem(problem)}\n`;
    return { code: error.kind === "validation" ? 1 : 2, out, err };
  }
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "");
const isPreflight = (r: ImitationServer["requests"][number]) =>
  r.endpoint === "search" && (r.body as { query?: unknown }).query === PREFLIGHT_QUERY;

/** A loopback port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("discover-call run checks the adapter before the API sees a request", () => {
  const temp = useTempDir();
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: KEY });
  });
  afterEach(() => server.close());

  /** Runs with `adapter` flags and expects exit 2, one line, no request, no file, no lock. */
  async function refused(adapter: readonly string[], env: Record<string, string> = ENV) {
    const tasks = writeTasks(temp());
    const output = join(temp(), "out", "never.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url, adapter }), { env });
    expect(run.code).toBe(2);
    expect(lines(run.err)).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(`${output}.lock`)).toBe(false);
    expect(existsSync(join(temp(), "out"))).toBe(false);
    return run.err;
  }

  it("a missing adapter file: exit 2 naming it, the API never asked", async () => {
    const missing = join(temp(), "no-such-adapter.mjs");
    expect(await refused(["--adapter", missing])).toBe(
      `adapter_unavailable: --adapter ${missing}: no such file; nothing was sent and nothing written\n`,
    );
  });

  it("an adapter name that is not on PATH", async () => {
    const err = await refused(["--adapter", "fabench-no-such-adapter-4711"], { ...ENV, PATH: temp() });
    expect(err).toBe(
      "adapter_unavailable: --adapter fabench-no-such-adapter-4711: not found on PATH; nothing was sent and nothing written\n",
    );
  });

  it.skipIf(process.platform === "win32")("an adapter file that may not be executed", async () => {
    const script = join(temp(), "adapter.sh");
    writeFileSync(script, '#!/bin/sh\necho \'{"tool_id": "x"}\'\n');
    chmodSync(script, 0o644);
    expect(await refused(["--adapter", script])).toMatch(
      new RegExp(`^adapter_unavailable: --adapter ${script}: is not executable \\(chmod \\+x it`),
    );
  });

  it.skipIf(process.platform === "win32")("an executable whose #! interpreter does not exist", async () => {
    const script = join(temp(), "adapter.sh");
    writeFileSync(script, "#!/nonexistent/fabench-interpreter\n");
    chmodSync(script, 0o755);
    expect(await refused(["--adapter", script])).toBe(
      `adapter_unavailable: --adapter ${script}: cannot start: the interpreter its #! line names was not found; nothing was sent and nothing written\n`,
    );
  });

  it("a folder given as the adapter", async () => {
    expect(await refused(["--adapter", temp()])).toBe(
      `adapter_unavailable: --adapter ${temp()}: is a folder, not an executable; nothing was sent and nothing written\n`,
    );
  });

  it("a resumed run checks it too, and leaves its file as it was", async () => {
    const tasks = writeTasks(temp());
    const output = join(temp(), "resumed.jsonl");
    const first = await runCli(argv({ tasks, output, url: server.url, extra: ["--max-calls", "2"] }), {
      env: ENV,
    });
    expect(first.code).toBe(1);
    const before = readFileSync(output);
    const sent = server.requests.length;
    const missing = join(temp(), "gone.mjs");
    const again = await runCli(
      argv({ tasks, output, url: server.url, adapter: ["--adapter", missing], extra: ["--resume"] }),
      { env: ENV },
    );
    expect([again.code, lines(again.err)]).toEqual([
      2,
      [`adapter_unavailable: --adapter ${missing}: no such file; nothing was sent and nothing written`],
    ]);
    expect(server.requests).toHaveLength(sent);
    expect(readFileSync(output).equals(before)).toBe(true);
    expect(existsSync(`${output}.lock`)).toBe(false);
  });
});

describe("discover-call run asks the API one preflight request before the first trial", () => {
  const temp = useTempDir();
  let server: ImitationServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("an API on a closed port: exit 2 naming the base URL and the cause, after the read retries; no records", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const tasks = writeTasks(temp());
    const output = join(temp(), "down.jsonl");
    const sleeps: number[] = [];
    const run = await runDirect(options({ tasks, output, url }), sleeps);
    expect(run.code).toBe(2);
    expect(lines(run.err)).toEqual([
      `api_unavailable: the Discover → Call API at ${url} did not answer the preflight discover request: network_failure: no connection (refused, unreachable, DNS or TLS failure) after 4 attempts; nothing was run or written`,
    ]);
    // Discover's retry rule: three backoffs of 500 ms × 2^attempt, then the run gives up.
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(`${output}.lock`)).toBe(false);
  });

  it("a key the API refuses: exit 2 at the first answer, no trial", async () => {
    server = await startImitationServer({ key: "another-key" });
    const tasks = writeTasks(temp());
    const output = join(temp(), "refused.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url }), { env: ENV });
    expect([run.code, lines(run.err)]).toEqual([
      2,
      [
        `api_unavailable: the Discover → Call API at ${server.url} did not answer the preflight discover request: http_401: the API refused the key (check QVERIS_API_KEY); nothing was run or written`,
      ],
    ]);
    expect(server.requests.map((r) => [r.endpoint, isPreflight(r)])).toEqual([["search", true]]);
    expect(run.err).not.toContain(KEY);
    expect(existsSync(output)).toBe(false);
  });

  it("sends a harmless discover request and then runs: its answer's revisions are not the trials'", async () => {
    server = await startImitationServer({
      key: KEY,
      faults: [{ endpoint: "search", fault: { kind: "revisions", api: "preflight-only" } }],
    });
    const tasks = writeTasks(temp(), TASKS.slice(0, 1));
    const output = join(temp(), "ok.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url }), { env: ENV });
    expect(run.code).toBe(0);
    const [first, ...rest] = server.requests;
    expect(first?.body).toMatchObject({ query: PREFLIGHT_QUERY, limit: 1, view: "routing" });
    expect(rest.map((r) => r.endpoint)).toEqual([
      "search",
      "inspect",
      "execute",
      "search",
      "inspect",
      "execute",
    ]);
    expect(readRecords(output).map((r) => r.metadata.api_revision)).toEqual([
      "imitation-api-1",
      "imitation-api-1",
    ]);
  });
});

describe("discover-call run stops when the API stops answering: the circuit breaker", () => {
  const temp = useTempDir();
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: KEY });
  });
  afterEach(() => server.close());

  /** The preflight and the first `good` trials' discoveries pass; every later discovery meets `fault`. */
  const failingAfter = (good: number, fault: FaultRule["fault"]): FaultRule[] => [
    { endpoint: "search", times: good + 1, fault: { kind: "pass" } },
    { endpoint: "search", times: Number.POSITIVE_INFINITY, fault },
  ];

  it(`after ${DEFAULT_BREAKER_TRIALS} trials failing with http_500 the run stops (exit 1), records none of them, and --resume completes it`, async () => {
    const tasks = writeTasks(temp());
    const whole = join(temp(), "uninterrupted.jsonl");
    expect((await runCli(argv({ tasks, output: whole, url: server.url }), { env: ENV })).code).toBe(0);
    const uninterrupted = readRecords(whole);
    expect(uninterrupted.map((r) => [r.task_id, r.trial])).toEqual(PLAN);

    server.requests.length = 0;
    server.setFaults(failingAfter(3, { kind: "status", status: 500 }));
    const output = join(temp(), "broken.jsonl");
    const broken = await runCli(argv({ tasks, output, url: server.url }), { env: ENV });
    expect(broken.code).toBe(1);
    expect(broken.err).toContain(
      `stopped: 3 consecutive trials failed at the API at ${server.url} with http_500 (--breaker); they measured the API, not the adapter, so none of them is recorded; 5 trial(s) left; once the API answers again, continue with the same command and --resume`,
    );
    expect(broken.out).toContain("3 of 8 trial(s) recorded (3 new, 0 already finished)");
    // The first three trials, whole; the three that met the outage are not there.
    expect(readRecords(output).map((r) => [r.task_id, r.trial, outcome(r)])).toEqual(
      PLAN.slice(0, 3).map(([id, trial]) => [id, trial, "completed"]),
    );
    // It stopped: the preflight, 3 good discoveries, 3 failed ones (500 is not retried), no 7th.
    const searches = server.requests.filter((r) => r.endpoint === "search");
    expect(searches).toHaveLength(1 + 3 + 3);
    expect(server.requests.filter((r) => r.endpoint === "execute")).toHaveLength(3);
    expect(existsSync(`${output}.lock`)).toBe(false);

    server.setFaults([]);
    const resumed = await runCli(argv({ tasks, output, url: server.url, extra: ["--resume"] }), { env: ENV });
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain("8 of 8 trial(s) recorded (5 new, 3 already finished); 5 billed call(s)");
    expect(readRecords(output).map(stable)).toEqual(uninterrupted.map(stable));
  });

  for (const concurrency of [1, 3])
    it(`network_failure with retries at --concurrency ${concurrency}: a plan prefix is kept, and --resume gives the uninterrupted records`, async () => {
      const tasks = writeTasks(temp());
      const whole = join(temp(), "uninterrupted.jsonl");
      const base = { tasks, url: server.url };
      expect((await runDirect(options({ ...base, output: whole }, { concurrency }))).code).toBe(0);
      const uninterrupted = readRecords(whole);

      server.requests.length = 0;
      server.setFaults(failingAfter(2, { kind: "drop_connection" }));
      const output = join(temp(), "dropped.jsonl");
      const sleeps: number[] = [];
      const broken = await runDirect(options({ ...base, output }, { concurrency }), sleeps);
      expect(broken.code).toBe(1);
      expect(broken.err).toContain(
        `3 consecutive trials failed at the API at ${server.url} with network_failure`,
      );
      const kept = readRecords(output);
      // Only the trials before the outage: at concurrency 3 the third may have started before it.
      expect(kept.map((r) => [r.task_id, r.trial])).toEqual(PLAN.slice(0, 2));
      expect(kept.every((r) => r.status === "completed")).toBe(true);
      if (concurrency === 1) {
        // Three trials × four attempts each, three backoffs between them; then nothing more.
        expect(server.requests.filter((r) => r.endpoint === "search")).toHaveLength(1 + 2 + 3 * 4);
        expect(sleeps).toEqual([500, 1000, 2000, 500, 1000, 2000, 500, 1000, 2000]);
      }

      server.setFaults([]);
      const resumed = await runDirect(options({ ...base, output }, { concurrency, resume: true }));
      expect(resumed.code).toBe(0);
      expect(readRecords(output).map(stable)).toEqual(uninterrupted.map(stable));
    });

  it("fewer consecutive failures than the limit, or failures of different codes, are recorded as measured", async () => {
    const tasks = writeTasks(temp());
    // Trials 2 and 3 meet a 500, trial 5 a 502 and trial 6 a 500; the others pass.
    server.setFaults([
      { endpoint: "search", times: 2, fault: { kind: "pass" } },
      { endpoint: "search", times: 2, fault: { kind: "status", status: 500 } },
      { endpoint: "search", fault: { kind: "pass" } },
      { endpoint: "search", fault: { kind: "status", status: 502 } },
      { endpoint: "search", fault: { kind: "status", status: 500 } },
    ]);
    const output = join(temp(), "blips.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url, extra: ["--breaker", "2"] }), {
      env: ENV,
    });
    // Two 500s in a row reach the limit of 2 at trial 3.
    expect(run.code).toBe(1);
    expect(readRecords(output).map(outcome)).toEqual(["completed"]);

    server.setFaults([
      { endpoint: "search", times: 2, fault: { kind: "pass" } },
      { endpoint: "search", times: 2, fault: { kind: "status", status: 500 } },
      { endpoint: "search", fault: { kind: "pass" } },
      { endpoint: "search", fault: { kind: "status", status: 502 } },
      { endpoint: "search", fault: { kind: "status", status: 500 } },
    ]);
    const measured = join(temp(), "measured.jsonl");
    const again = await runCli(argv({ tasks, output: measured, url: server.url }), { env: ENV });
    expect(again.code).toBe(0);
    expect(readRecords(measured).map(outcome)).toEqual([
      "completed",
      "api/http_500",
      "api/http_500",
      "completed",
      "api/http_502",
      "api/http_500",
      "completed",
      "completed",
    ]);
  });
});

describe("discover-call run --request-timeout bounds the whole request, body included", () => {
  const temp = useTempDir();
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: KEY });
  });
  afterEach(() => server.close());

  it("an execute reply trickled one byte at a time ends as api/response_timeout", async () => {
    const tasks = writeTasks(temp(), TASKS.slice(0, 1));
    // Each byte comes 250 ms after the last: no single wait is long, the ~150-byte whole is ~40 s.
    server.setFaults([{ endpoint: "execute", fault: { kind: "trickle_body", everyMs: 250 } }]);
    const output = join(temp(), "trickled.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url, extra: ["--request-timeout", "2000"] }), {
      env: ENV,
    });
    expect(run.code).toBe(0);
    const [trickled, next] = readRecords(output);
    expect(trickled?.error).toEqual({
      stage: "api",
      reason_code: "response_timeout",
      message: "API request failed",
    });
    expect(trickled?.call).toEqual({ attempted: true, success: null });
    expect(outcome(next as Rec)).toBe("completed");
    // Execute is never retried after a lost reply: one trickled request, then the second trial's.
    expect(server.requests.filter((r) => r.endpoint === "execute").map((r) => r.fault)).toEqual([
      "trickle_body",
      null,
    ]);
  });

  it("refuses a timeout that is not a positive whole number of milliseconds", async () => {
    const tasks = writeTasks(temp());
    const output = join(temp(), "never.jsonl");
    const run = await runCli(argv({ tasks, output, url: server.url, extra: ["--request-timeout", "0"] }), {
      env: ENV,
    });
    expect(run.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
