/**
 * Benchmark: `fabench serve` under load (issues #18 item 3, #35 item 3). 50 concurrent clients over
 * loopback, each running the same fixed trials: discover (a task's query, a new session) → inspect
 * (the task's first route) → execute (the arguments its rules name). Reports throughput and p50/p99
 * latency, overall and per endpoint, and the heap after a forced collection before the first
 * request and after the last. Targets: the heap after the runs at most 2 × the heap before
 * (sessions and cached rankings stay bounded), no request answered other than 200, and the median
 * requests per second at least 0.85 × a bare `node:http` server's.
 *
 * The comparison is kept fair: the bare server answers the same payloads — for each request, the
 * very bytes (status, headers, body) an untimed warm-up round of `fabench serve` answered to it —
 * so the client parses as much from both; the same client (fetch, kept-alive) sends the same
 * requests to both; and the two alternate, round after round in one process, the ratio taken per
 * round and its median reported, so a burst of load from elsewhere on a shared machine hits both.
 *
 * Server and clients share this process (no network beyond 127.0.0.1), so the heap figures include
 * the clients' connection pool, and the client's cost is in both servers' figures; the request log
 * is counted, not printed.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Task } from "../../src/authoring/index.ts";
import { loadServeWorld } from "../../src/commands/serve.ts";
import { firstResponse } from "../../src/discover-call/index.ts";
import {
  API_PREFIX,
  createContext,
  randomKey,
  type RunningServer,
  type ServeContext,
  startServer,
  type World,
} from "../../src/serve/index.ts";
import { type BenchResult, median, SMOKE } from "./stats.ts";

const CLIENTS = SMOKE ? 5 : 50;
/** Trials per client and round, three requests each: 1,500 requests a round (300 in smoke mode). */
const TRIALS = SMOKE ? 20 : 10;
/** Rounds of each server, alternating which goes first: short rounds, many, so load from elsewhere hits both. */
const ROUNDS = SMOKE ? 1 : 15;
const RATIO_TARGET = 0.85;
const ENDPOINTS = ["search", "inspect", "execute"] as const;
type EndpointName = (typeof ENDPOINTS)[number];

/** A full collection on demand: the flag is set at run time, so `npm run bench` needs no node flag. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  return () => {
    gc();
    gc();
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 100) / 100;
}

/** The first required response's route, and arguments that satisfy its rules (placeholders where no rule speaks). */
function referenceCall(world: World, task: Task): { toolId: string; parameters: Record<string, unknown> } {
  const step = firstResponse(task.executor_fixture.responses);
  if (step === undefined) throw new Error(`${task.semantic_task_id} requires no response`);
  const parameters: Record<string, unknown> = { ...world.tools.get(step.route_id)?.examples[0] };
  for (const [name, rule] of Object.entries(step.argument_rules))
    if ("eq" in rule) parameters[name] = rule.eq;
  return { toolId: step.route_id, parameters };
}

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** What `fabench serve` answered to each request of the warm-up round: path + "\n" + body → answer. */
type Recording = Map<string, { readonly status: number; readonly body: string }>;

interface LoadResult {
  readonly latencies: Record<EndpointName, number[]>;
  readonly statuses: Map<number, number>;
  readonly executeSuccesses: number;
  readonly elapsedMs: number;
  /** This process's CPU time (user + system) over the round: clients and server, not other processes. */
  readonly cpuMs: number;
  /** Response body bytes received: equal for both servers when the payloads are. */
  readonly bytes: number;
}

type Call = ReturnType<typeof referenceCall>;

/** CLIENTS clients, each running TRIALS trials (discover → inspect → execute); `record` keeps every answer. */
async function load(
  url: string,
  key: string,
  tasks: readonly Task[],
  calls: readonly Call[],
  record?: Recording,
): Promise<LoadResult> {
  const latencies: Record<EndpointName, number[]> = { search: [], inspect: [], execute: [] };
  const statuses = new Map<number, number>();
  let executeSuccesses = 0;
  let bytes = 0;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  async function post(endpoint: EndpointName, path: string, body: unknown): Promise<Record<string, unknown>> {
    const started = performance.now();
    const sent = JSON.stringify(body);
    const response = await fetch(`${url}${path}`, { method: "POST", headers, body: sent });
    const text = await response.text();
    const answer = JSON.parse(text) as Record<string, unknown>;
    latencies[endpoint].push(performance.now() - started);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    bytes += Buffer.byteLength(text);
    record?.set(`${path}\n${sent}`, { status: response.status, body: text });
    return answer;
  }
  async function client(index: number): Promise<void> {
    for (let trial = 0; trial < TRIALS; trial++) {
      const n = (index + trial * CLIENTS) % tasks.length;
      const task = tasks[n] as Task;
      const call = calls[n] as Call;
      const session_id = `bench-${index}-${trial}`;
      const found = await post("search", "/search", {
        query: task.query,
        limit: 10,
        session_id,
        view: "routing",
      });
      const search_id = found["search_id"];
      await post("inspect", "/tools/by-ids", {
        tool_ids: [call.toolId],
        search_id,
        session_id,
        view: "lean",
      });
      const path = `/tools/execute?tool_id=${encodeURIComponent(call.toolId)}`;
      const body = {
        parameters: call.parameters,
        search_id,
        session_id,
        model: "bench",
        respond_with: "full",
      };
      if ((await post("execute", path, body))["success"] === true) executeSuccesses += 1;
    }
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1_000;
  return { latencies, statuses, executeSuccesses, elapsedMs: performance.now() - started, cpuMs, bytes };
}

const UNRECORDED = JSON.stringify({ status: "failure", error_code: "not_recorded", data: null });

/**
 * A bare node:http server that reads each body and answers, with the headers `fabench serve`
 * sends, the bytes serve answered to the same request in the warm-up round: one map lookup.
 */
async function bareServer(
  recording: Recording,
  revisions: World["revisions"],
): Promise<{ url: string; unmatched: () => number; close: () => void }> {
  let unmatched = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").slice(API_PREFIX.length);
      const found = recording.get(`${path}\n${Buffer.concat(chunks).toString("utf8")}`);
      if (found === undefined) unmatched += 1;
      const body = found?.body ?? UNRECORDED;
      res.writeHead(found?.status ?? 404, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
        "x-qveris-api-version": revisions.api,
        "x-qveris-catalog-version": revisions.catalog,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`,
    unmatched: () => unmatched,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A fresh `fabench serve` (new sessions) on a free loopback port, as the CLI builds it. It keeps the
 * rankings, query → task lookups and remembered execute outcomes `warm` holds, as a server that has
 * run for a while has them: the router is asked once per distinct query and each distinct call is
 * worked out once, which the warm-up round did. Sessions are new in every round.
 */
async function serveServer(
  world: World,
  key: string,
  log: () => void,
  warm?: ServeContext,
): Promise<{ server: RunningServer; context: ServeContext }> {
  const fresh = createContext(world, { now: Date.now, newId: randomUUID });
  const context =
    warm === undefined
      ? fresh
      : { ...fresh, rankings: warm.rankings, tasks: warm.tasks, outcomes: warm.outcomes };
  const server = await startServer({ context, key, host: "127.0.0.1", port: 0, log });
  return { server, context };
}

interface Rounds {
  readonly serve: LoadResult[];
  readonly bare: LoadResult[];
  readonly bareUnmatched: number;
  readonly logLines: number;
  readonly lastContext: ServeContext | undefined;
}

/** ROUNDS rounds of each server, alternating which goes first (each serve round on a fresh server). */
async function alternate(
  world: World,
  key: string,
  tasks: readonly Task[],
  calls: readonly Call[],
  recording: Recording,
  warm: ServeContext,
): Promise<Rounds> {
  const serve: LoadResult[] = [];
  const bare: LoadResult[] = [];
  let bareUnmatched = 0;
  let logLines = 0;
  let lastContext: ServeContext | undefined;
  const runServe = async () => {
    const { server, context } = await serveServer(
      world,
      key,
      () => {
        logLines += 1;
      },
      warm,
    );
    serve.push(await load(server.url, key, tasks, calls));
    await server.close();
    lastContext = context;
  };
  const runBare = async () => {
    const floor = await bareServer(recording, world.revisions);
    bare.push(await load(floor.url, key, tasks, calls));
    bareUnmatched += floor.unmatched();
    floor.close();
  };
  for (let round = 0; round < ROUNDS; round++)
    for (const run of round % 2 === 0 ? [runServe, runBare] : [runBare, runServe]) await run();
  return { serve, bare, bareUnmatched, logLines, lastContext };
}

const rps = (r: LoadResult) =>
  r.elapsedMs > 0
    ? (r.latencies.search.length + r.latencies.inspect.length + r.latencies.execute.length) /
      (r.elapsedMs / 1_000)
    : 0;
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function runServeBench(): Promise<BenchResult> {
  const quiet = { out: () => undefined, err: () => undefined };
  const world = loadServeWorld(
    {
      catalogSize: 100,
      catalogs: "tasks/catalogs",
      corpus: "tasks/final-answer-corpus.json",
      router: "keyword",
      routerArgs: [],
      routerTimeoutMs: 30_000,
    },
    quiet,
  );
  const tasks = [...world.taskByQuery.values()];
  const calls = tasks.map((task) => referenceCall(world, task));
  const key = randomKey();
  // The warm-up round (untimed) records the payloads the bare server answers, and warms the JIT for both.
  const recording: Recording = new Map();
  const warm = await serveServer(world, key, () => undefined);
  await load(warm.server.url, key, tasks, calls, recording);
  await warm.server.close();
  const collect = collector();
  collect();
  const before = process.memoryUsage();
  const rounds = await alternate(world, key, tasks, calls, recording, warm.context);
  collect();
  const after = process.memoryUsage();

  const all = rounds.serve.flatMap((r) => ENDPOINTS.flatMap((e) => r.latencies[e])).sort((a, b) => a - b);
  const byEndpoint = Object.fromEntries(
    ENDPOINTS.map((e) => {
      const sorted = rounds.serve.flatMap((r) => r.latencies[e]).sort((a, b) => a - b);
      return [e, { requests: sorted.length, p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99) }];
    }),
  );
  const failed = rounds.serve
    .flatMap((r) => [...r.statuses])
    .filter(([status]) => status !== 200)
    .reduce((sum, [, count]) => sum + count, 0);
  const ratios = rounds.serve.map((r, i) => rps(r) / rps(rounds.bare[i] as LoadResult));
  const ratio = median(ratios);
  const perCpuSecond = (r: LoadResult) => (3 * CLIENTS * TRIALS) / (r.cpuMs / 1_000);
  const cpuRatios = rounds.serve.map((r, i) => perCpuSecond(r) / perCpuSecond(rounds.bare[i] as LoadResult));
  const heapRatio = after.heapUsed / before.heapUsed;
  return {
    name: "serve_load",
    median_ms: percentile(all, 50),
    p99_ms: percentile(all, 99),
    clients: CLIENTS,
    rounds: ROUNDS,
    requests: all.length,
    requests_per_second: Math.round(median(rounds.serve.map(rps))),
    // The same client and requests against a bare node:http server answering serve's own bytes.
    bare_http_requests_per_second: Math.round(median(rounds.bare.map(rps))),
    ratio: round2(ratio),
    ratios: ratios.map(round2),
    // Requests per second of this process's CPU time: what other processes' load cannot move much.
    cpu_ratio: round2(median(cpuRatios)),
    cpu_ratios: cpuRatios.map(round2),
    payload_bytes_per_round: {
      serve: median(rounds.serve.map((r) => r.bytes)),
      bare: median(rounds.bare.map((r) => r.bytes)),
    },
    bare_unmatched_requests: rounds.bareUnmatched,
    elapsed_ms: Math.round(rounds.serve.reduce((sum, r) => sum + r.elapsedMs, 0)),
    endpoints: byEndpoint,
    failed_requests: failed,
    execute_successes: rounds.serve.reduce((sum, r) => sum + r.executeSuccesses, 0),
    log_lines: rounds.logLines,
    sessions_after: rounds.lastContext?.sessions.size ?? 0,
    heap_before_mb: mb(before.heapUsed),
    heap_after_mb: mb(after.heapUsed),
    heap_ratio: round2(heapRatio),
    rss_before_mb: mb(before.rss),
    rss_after_mb: mb(after.rss),
    target: "heap after the run at most 2 × heap before, no failed request",
    throughput_target: `median of the rounds' requests per second at least ${RATIO_TARGET} × the bare node:http server's`,
    met: heapRatio <= 2 && failed === 0 && rounds.bareUnmatched === 0 && ratio >= RATIO_TARGET,
  };
}
