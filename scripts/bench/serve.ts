/**
 * Benchmark: `fabench serve` under load (issue #18 item 3). 50 concurrent clients send 20,000
 * requests over loopback, mixed evenly over the three endpoints: each client runs trials of
 * discover (a task's query, a new session) → inspect (the task's first route) → execute (the
 * arguments its rules name). Reports throughput and p50/p99 latency, overall and per endpoint, and
 * the heap after a forced collection before the first request and after the last. Target: the heap
 * after the run at most 2 × the heap before (sessions and cached rankings stay bounded), and no
 * request answered other than 200.
 *
 * Server and clients share this process (no network beyond 127.0.0.1), so the heap figures include
 * the clients' connection pool; the request log is counted, not printed.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Task } from "../../src/authoring/index.ts";
import { loadServeWorld } from "../../src/commands/serve.ts";
import { firstResponse } from "../../src/discover-call/index.ts";
import { createContext, randomKey, startServer, type World } from "../../src/serve/index.ts";
import { type BenchResult, SMOKE } from "./stats.ts";

const CLIENTS = SMOKE ? 5 : 50;
const REQUESTS = SMOKE ? 300 : 20_000;
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

interface LoadResult {
  readonly latencies: Record<EndpointName, number[]>;
  readonly statuses: Map<number, number>;
  readonly executeSuccesses: number;
  readonly elapsedMs: number;
}

type Call = ReturnType<typeof referenceCall>;

/** CLIENTS clients, each running trials (discover → inspect → execute) until REQUESTS are sent. */
async function load(
  url: string,
  key: string,
  tasks: readonly Task[],
  calls: readonly Call[],
): Promise<LoadResult> {
  const latencies: Record<EndpointName, number[]> = { search: [], inspect: [], execute: [] };
  const statuses = new Map<number, number>();
  let sent = 0;
  let executeSuccesses = 0;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  async function post(endpoint: EndpointName, path: string, body: unknown): Promise<Record<string, unknown>> {
    sent += 1;
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = (await response.json()) as Record<string, unknown>;
    latencies[endpoint].push(performance.now() - started);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    return answer;
  }
  async function client(index: number): Promise<void> {
    for (let trial = 0; sent < REQUESTS; trial++) {
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
      if (sent >= REQUESTS) return;
      await post("inspect", "/tools/by-ids", {
        tool_ids: [call.toolId],
        search_id,
        session_id,
        view: "lean",
      });
      if (sent >= REQUESTS) return;
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
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  return { latencies, statuses, executeSuccesses, elapsedMs: performance.now() - started };
}

/** A bare node:http server that reads each body and answers a constant. */
async function bareServer(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"search_id":"s"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

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
  let logLines = 0;
  const context = createContext(world, { now: Date.now, newId: randomUUID });
  const server = await startServer({
    context,
    key,
    host: "127.0.0.1",
    port: 0,
    log: () => {
      logLines += 1;
    },
  });
  const collect = collector();
  collect();
  const before = process.memoryUsage();

  const main = await load(server.url, key, tasks, calls);
  await server.close();
  collect();
  const after = process.memoryUsage();
  const floor = await bareServer();
  const bare = await load(floor.url, key, tasks, calls);
  floor.close();
  const { latencies, statuses, executeSuccesses, elapsedMs } = main;

  const all = ENDPOINTS.flatMap((e) => latencies[e]).sort((a, b) => a - b);
  const byEndpoint = Object.fromEntries(
    ENDPOINTS.map((e) => {
      const sorted = [...latencies[e]].sort((a, b) => a - b);
      return [e, { requests: sorted.length, p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99) }];
    }),
  );
  const failed = [...statuses]
    .filter(([status]) => status !== 200)
    .reduce((sum, [, count]) => sum + count, 0);
  const heapRatio = after.heapUsed / before.heapUsed;
  return {
    name: "serve_load",
    median_ms: percentile(all, 50),
    p99_ms: percentile(all, 99),
    clients: CLIENTS,
    requests: all.length,
    requests_per_second: Math.round(all.length / (elapsedMs / 1_000)),
    // The same clients against a bare node:http server answering a constant: the floor on this machine.
    bare_http_requests_per_second: Math.round(REQUESTS / (bare.elapsedMs / 1_000)),
    elapsed_ms: Math.round(elapsedMs),
    endpoints: byEndpoint,
    failed_requests: failed,
    execute_successes: executeSuccesses,
    log_lines: logLines,
    sessions_after: context.sessions.size,
    heap_before_mb: mb(before.heapUsed),
    heap_after_mb: mb(after.heapUsed),
    heap_ratio: Math.round(heapRatio * 100) / 100,
    rss_before_mb: mb(before.rss),
    rss_after_mb: mb(after.rss),
    target: "heap after the run at most 2 × heap before, no failed request",
    met: heapRatio <= 2 && failed === 0,
  };
}
