/**
 * What the Discover → Call runner's tests share: the loopback imitation API's catalog and faults,
 * the fixture adapter, task sets that reach every failure kind, and the command line of a run.
 */
import { fileURLToPath } from "node:url";
import { writeFileSync, readFileSync } from "node:fs";
import type { RawMetadata, RawRecord } from "../../src/discover-call/records.ts";
import { PREFLIGHT_QUERY } from "../../src/discover-call/api.ts";
import type { DiscoverCallTask } from "../../src/discover-call/tasks.ts";
import { join } from "../helpers/temp.ts";
import {
  type CatalogTool,
  type FaultRule,
  IMITATION_CATALOG,
  type ImitationServer,
} from "./imitation-server.ts";

export const KEY = "qv-DISTINCTIVE-runner-key-5e8a13c7d2";
export const ADAPTER = fileURLToPath(new URL("./fixtures/adapter.mjs", import.meta.url));
export const KILL_AT_LINE = fileURLToPath(new URL("../helpers/kill-at-line.mjs", import.meta.url));
export const TOOLKIT = "0123456789abcdef0123456789abcdef01234567";
/** Long enough for a node adapter to start on a busy machine; the timeout kinds wait this long. */
export const ADAPTER_TIMEOUT_MS = 2500;

export type Json = Record<string, unknown>;
export type Rec = RawRecord & Json;

/** A catalog with two tools whose inspected schemas cannot become a strict response schema. */
export const CATALOG: readonly CatalogTool[] = [
  ...IMITATION_CATALOG,
  {
    tool_id: "opaque.required.v1",
    name: "Opaque",
    description: "A required object without properties.",
    params: [{ name: "payload", type: "object", required: true }],
    keywords: ["opaque"],
    routing: { capability: "opaque", cost_class: "low", reliability: 0.5, as_of_support: false },
    execute: { kind: "data", data: { ok: true } },
  },
  {
    tool_id: "oneof.bad.v1",
    name: "Bad one-of",
    description: "A one_of_required group naming an undeclared parameter.",
    params: [{ name: "a", type: "string", required: false }],
    one_of_required: ["not_declared"],
    keywords: ["oneof"],
    routing: { capability: "oneof", cost_class: "low", reliability: 0.5, as_of_support: false },
    execute: { kind: "data", data: { ok: true } },
  },
];

export function task(id: string, query: string, extra: Partial<DiscoverCallTask> = {}): DiscoverCallTask {
  return {
    id,
    prompt: `Task ${id}.`,
    discover_query: query,
    constraints: [{ id: "c", aliases: ["city", "query", "symbols", "address"], value: "London" }],
    ...extra,
  };
}

export type Parameters = NonNullable<DiscoverCallTask["reference"]>["candidates"][number]["parameters"];
export const candidate = (tool_id: string, parameters: Parameters) => ({
  reference: { candidates: [{ tool_id, parameters }] },
});
export const behaving = (behaviour: string, query = "weather forecast") =>
  task(`kind-${behaviour.replace("@", "-")}`, query, { prompt: `Forecast, please. fixture:${behaviour}` });

/**
 * API faults first, so the server's rules meet them in plan order (one trial at a time): the first
 * two discoveries, the first two inspections, the first execute.
 */
export const API_FAULTS: readonly FaultRule[] = [
  { endpoint: "search", fault: { kind: "missing_search_id" } },
  { endpoint: "search", fault: { kind: "status", status: 500 } },
  { endpoint: "inspect", fault: { kind: "failure_envelope", status: "error" } },
  { endpoint: "inspect", fault: { kind: "malformed_json" } },
  { endpoint: "execute", fault: { kind: "status", status: 500 } },
];

/**
 * fabench's run sends one preflight discover request before the first trial (the reference runner
 * sends none): this rule lets it through, so the faults after it meet the same trials in both.
 */
export const PREFLIGHT_PASSES: FaultRule = { endpoint: "search", fault: { kind: "pass" } };

/** The requests of the trials: every request but fabench's preflight. */
export const trialRequests = (server: ImitationServer) =>
  server.requests.filter(
    (r) => !(r.endpoint === "search" && (r.body as { query?: unknown }).query === PREFLIGHT_QUERY),
  );

/** Each task of the every-kind set and the outcome its record must show. */
export const EVERY_KIND: readonly [DiscoverCallTask, string][] = [
  [task("api-missing-search-id", "weather forecast"), "discover/missing_search_id"],
  [task("api-search-500", "weather forecast"), "api/http_500"],
  [
    task("api-inspect-envelope", "stock quote", candidate("stocks.quote.v1", { symbols: ["AAPL"] })),
    "api/failure_envelope",
  ],
  [task("api-inspect-malformed", "currency conversion"), "api/invalid_response"],
  [
    task("api-execute-500", "weather forecast", candidate("weather.forecast.v1", { city: "London" })),
    "api/http_500",
  ],
  [
    task(
      "weather-ok",
      "weather forecast",
      candidate("weather.forecast.v1", { city: "London", units: "metric" }),
    ),
    "completed",
  ],
  [task("stock-ok", "stock quote", candidate("stocks.quote.v1", { symbols: ["AAPL"] })), "completed"],
  [
    task(
      "geo-one-of",
      "geocode address",
      candidate("geo.geocode.v1", { address: "10 Downing Street, London" }),
    ),
    "completed",
  ],
  [task("schema-values", "weather forecast"), "completed"],
  [task("news-empty", "news search", candidate("news.search.v1", { query: "London" })), "completed"],
  [
    task("papers-failure", "academic papers", candidate("papers.search.v1", { query: "London" })),
    "completed",
  ],
  [task("ghost-not-returned", "ghost lookup"), "inspect/selected_tool_not_returned"],
  [task("opaque-schema", "opaque"), "parameterize/unsupported_parameter_schema"],
  [task("bad-one-of", "oneof"), "parameterize/unsupported_parameter_schema"],
  [behaving("missing_tool_id"), "select/missing_tool_id"],
  [behaving("ungrounded_tool_id"), "select/ungrounded_tool_id"],
  [behaving("invalid_parameters"), "parameterize/invalid_parameters"],
  [behaving("invalid_parameter_values"), "parameterize/invalid_parameter_values"],
  [behaving("error_marker@parameterize"), "adapter/model_failed"],
  [behaving("unknown_marker"), "adapter/process_exit"],
  [behaving("process_exit"), "adapter/process_exit"],
  [behaving("invalid_json"), "adapter/invalid_json"],
  [behaving("stdout_limit"), "adapter/stdout_limit"],
  [behaving("stderr_limit@parameterize"), "adapter/stderr_limit"],
  [behaving("timeout"), "adapter/timeout"],
  [behaving("timeout_ignoring_sigterm@parameterize"), "adapter/timeout"],
];

/** Tasks that reach the call, for the plan-order, cap and kill tests. */
export const CALLING: readonly DiscoverCallTask[] = [
  task("weather-ok", "weather forecast", candidate("weather.forecast.v1", { city: "London" })),
  task("stock-ok", "stock quote", candidate("stocks.quote.v1", { symbols: ["AAPL"] })),
  task("news-empty", "news search", candidate("news.search.v1", { query: "London" })),
  task("papers-failure", "academic papers", candidate("papers.search.v1", { query: "London" })),
];
/** One that stops at the select gate and so never calls. */
export const UNGROUNDED = behaving("ungrounded_tool_id");

export function writeTasks(dir: string, tasks: readonly DiscoverCallTask[], name = "tasks.jsonl"): string {
  const path = join(dir, name);
  writeFileSync(path, tasks.map((t) => `${JSON.stringify(t)}\n`).join(""));
  return path;
}

export interface RunArgs {
  readonly tasks: string;
  readonly output: string;
  readonly url: string;
  readonly trials?: number;
  readonly execute?: boolean;
  readonly extra?: readonly string[];
}

export function runArgs(o: RunArgs): string[] {
  return [
    "discover-call",
    "run",
    "--model",
    "fixture-model",
    "--lane",
    "configured-model",
    "--tasks",
    o.tasks,
    "--adapter",
    process.execPath,
    "--adapter-arg",
    ADAPTER,
    "--adapter-arg",
    o.tasks,
    "--adapter-revision",
    "fixture-adapter-1",
    "--toolkit-revision",
    TOOLKIT,
    "--trials",
    String(o.trials ?? 1),
    "--adapter-timeout-ms",
    String(ADAPTER_TIMEOUT_MS),
    "--base-url",
    o.url,
    "--out",
    o.output,
    ...(o.execute === false ? [] : ["--execute"]),
    ...(o.extra ?? []),
  ];
}

export const ENV = { QVERIS_API_KEY: KEY };

export function readRecords(path: string): Rec[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Rec);
}

/** What must not depend on the run's ids, clock, machine, concurrency or interruptions. */
export function stable(record: Rec): Json {
  const { run_id: _r, started_at: _s, finished_at: _f, metadata, ...rest } = record;
  const { toolkit_revision: _t, runtime: _rt, ...kept } = metadata as RawMetadata;
  return { ...rest, metadata: kept };
}

export const outcome = (r: Rec) => (r.error ? `${r.error.stage}/${r.error.reason_code}` : r.status);
