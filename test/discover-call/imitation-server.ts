/**
 * A loopback imitation of the Discover → Call API, for tests of the client, the runner and
 * kill -9/resume. It speaks the real wire format of the three endpoints over node:http on
 * 127.0.0.1 (a free port), backed by a small in-memory catalog, and injects faults on request.
 *
 *   const server = await startImitationServer({ key: "test-key" });
 *   server.setFaults([{ endpoint: "search", times: 2, fault: { kind: "status", status: 503 } }]);
 *   // … point the client at server.url with apiKey "test-key" …
 *   server.requests; // every request received, in order: path, headers, parsed body, fault met
 *   await server.close();
 *
 * - Auth: `authorization: Bearer <key>` exactly, else 401 (checked before any fault is used).
 * - POST only (405 otherwise); unknown paths 404; bodies over 1 MB 413. Bodies are checked strictly
 *   (the spec's fields, nothing more), and inspect/execute need a `search_id` this server issued:
 *   a client that sends something else gets a 400 failure envelope, so its tests notice.
 * - `/search` ranks tools by how many query words are among their `keywords` (ties in catalog
 *   order), drops tools that share none and cuts to `limit`. Search ids are `search-1`, `search-2`…
 * - `/tools/by-ids` returns the requested tools it knows, minus any marked `hiddenFromInspect`.
 * - `/tools/execute` checks the parameters' names, required ones and enum values (a wrong call is
 *   `success: false`), then answers as the tool's `execute` says: data, an empty result or a failure.
 * - Revision headers default to `imitation-api-1` / `imitation-catalog-1`; `revisions: {api: null}`
 *   leaves a header out.
 *
 * Faults are rules consumed in order: each request takes the first rule whose `endpoint` matches
 * (or that has none) and still has `times` left (default 1; `Infinity` for every request). A fault
 * about content (say `missing_search_id`) on an endpoint it does not fit is used up and changes
 * nothing; give such rules an `endpoint`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

export type Endpoint = "search" | "inspect" | "execute";

export interface CatalogParam {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly items?: Record<string, unknown>;
  readonly properties?: Record<string, unknown>;
}

export interface CatalogTool {
  readonly tool_id: string;
  readonly name: string;
  readonly description: string;
  readonly params: readonly CatalogParam[];
  /** Names of which at least one must be given (the flat form; the nested form is also passed on). */
  readonly one_of_required?: readonly string[] | readonly (readonly string[])[];
  readonly examples?: readonly unknown[];
  /** Lower-case words a discovery query must share with the tool to find it. */
  readonly keywords: readonly string[];
  /** The fields of the routing view that `/search` returns beside `tool_id`. */
  readonly routing: { capability: string; cost_class: string; reliability: number; as_of_support: boolean };
  /** What a valid call answers: `result.data` as given, `result.data` empty, or `success: false`. */
  readonly execute: { kind: "data"; data: unknown } | { kind: "empty" } | { kind: "failure" };
  /** Found by `/search` but never returned by `/tools/by-ids`. */
  readonly hiddenFromInspect?: boolean;
}

export type Fault =
  /** Any status with a small failure-envelope body, e.g. 503, 500, or 429 with a Retry-After. */
  | { kind: "status"; status: number; retryAfter?: string }
  /** 200 with `{status | status_code: <status>, message, data}`: "failure", "error", 500, … */
  | { kind: "failure_envelope"; status: string | number; field?: "status" | "status_code" }
  /** The normal answer wrapped in `{status: "success", message: "ok", data: …}`. */
  | { kind: "success_envelope" }
  /** 200 whose JSON stops halfway. */
  | { kind: "malformed_json" }
  /** `/search` or `/tools/by-ids` with `results: []`. */
  | { kind: "empty_results" }
  /** `/search` without `search_id`. */
  | { kind: "missing_search_id" }
  /** `/tools/by-ids` returns another catalog tool instead of the ones asked for. */
  | { kind: "omit_requested" }
  /** `/tools/execute` answers `success: false` / `success: true` with empty `result.data`. */
  | { kind: "execute_failure" }
  | { kind: "empty_data" }
  /** Waits `ms` before the status line (a request timeout) / sends half the body, waits, then the rest. */
  | { kind: "slow_headers"; ms: number }
  | { kind: "stall_body"; ms: number }
  /** The headers at once, then the body one byte every `everyMs`: no pause is long, the whole is. */
  | { kind: "trickle_body"; everyMs: number }
  /** The normal answer: a rule that lets requests through before the next rules apply. */
  | { kind: "pass" }
  /** A 3xx to `location` (default: the same path, so a client that follows it is seen again). */
  | { kind: "redirect"; status?: number; location?: string }
  /** Closes the socket without a reply. */
  | { kind: "drop_connection" }
  /** Declares the full Content-Length, sends half the body, then closes the socket. */
  | { kind: "truncated_body" }
  /** The normal answer with these revision headers (null leaves the header out). */
  | { kind: "revisions"; api?: string | null; catalog?: string | null }
  /** The normal answer with the bearer key it was sent copied into it. */
  | { kind: "echo_key" };

export interface FaultRule {
  readonly endpoint?: Endpoint;
  readonly times?: number;
  readonly fault: Fault;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/api/v1/tools/execute?tool_id=a.b`. */
  readonly path: string;
  readonly endpoint: Endpoint | null;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;
  /** The fault this request met, if any. */
  fault: Fault["kind"] | null;
}

export interface ImitationServerOptions {
  readonly key: string;
  readonly catalog?: readonly CatalogTool[];
  readonly faults?: readonly FaultRule[];
  readonly revisions?: { api?: string | null; catalog?: string | null };
}

export interface ImitationServer {
  /** The base URL, with the `/api/v1` prefix the real API has. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces the fault rules still pending. */
  setFaults(rules: readonly FaultRule[]): void;
  close(): Promise<void>;
}

const PREFIX = "/api/v1";
const ENDPOINTS: Record<string, Endpoint> = {
  [`${PREFIX}/search`]: "search",
  [`${PREFIX}/tools/by-ids`]: "inspect",
  [`${PREFIX}/tools/execute`]: "execute",
};
const MAX_BODY_BYTES = 1_000_000;

const searchBody = z.strictObject({
  query: z.string().min(1),
  limit: z.int().min(1).max(100),
  session_id: z.string().min(1),
  view: z.literal("routing"),
});
const inspectBody = z.strictObject({
  tool_ids: z.array(z.string().min(1)).min(1),
  search_id: z.string().min(1),
  session_id: z.string().min(1),
  view: z.literal("lean"),
});
const executeBody = z.strictObject({
  parameters: z.record(z.string(), z.unknown()),
  search_id: z.string().min(1),
  session_id: z.string().min(1),
  model: z.string().min(1),
  respond_with: z.literal("full"),
});

/** A handler's reply: a status and a JSON body. */
interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** What the handlers share: the catalog and the ids issued so far. */
interface World {
  readonly catalog: readonly CatalogTool[];
  readonly searchIds: Set<string>;
  executions: number;
}

const failureBody = (message: string) => ({ status: "failure", message, data: null });
const badRequest = (message: string): Reply => ({ status: 400, body: failureBody(message) });

function handleSearch(raw: unknown, world: World): Reply {
  const parsed = searchBody.safeParse(raw);
  if (!parsed.success) return badRequest("invalid search request");
  const words = new Set(parsed.data.query.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const ranked = world.catalog
    .map((tool, order) => ({ tool, order, score: tool.keywords.filter((k) => words.has(k)).length }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, parsed.data.limit);
  const searchId = `search-${world.searchIds.size + 1}`;
  world.searchIds.add(searchId);
  const results = ranked.map(({ tool }) => ({ tool_id: tool.tool_id, ...tool.routing }));
  return { status: 200, body: { search_id: searchId, total: results.length, results } };
}

function inspectView(tool: CatalogTool) {
  const { tool_id, name, description, params, one_of_required, examples } = tool;
  return {
    tool_id,
    name,
    description,
    params,
    ...(one_of_required === undefined ? {} : { one_of_required }),
    ...(examples === undefined ? {} : { examples }),
  };
}

function handleInspect(raw: unknown, world: World): Reply {
  const parsed = inspectBody.safeParse(raw);
  if (!parsed.success) return badRequest("invalid inspect request");
  if (!world.searchIds.has(parsed.data.search_id)) return badRequest("unknown search_id");
  const results = parsed.data.tool_ids
    .map((id) => world.catalog.find((tool) => tool.tool_id === id))
    .filter((tool): tool is CatalogTool => tool !== undefined && tool.hiddenFromInspect !== true)
    .map(inspectView);
  return { status: 200, body: { results } };
}

/** Why a call's parameters do not fit its tool, or null when they do. */
function parameterProblem(tool: CatalogTool, parameters: Record<string, unknown>): string | null {
  const declared = new Map(tool.params.map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(parameters)) {
    const param = declared.get(name);
    if (param === undefined) return `unknown parameter ${name}`;
    if (param.enum !== undefined && !param.enum.includes(value)) return `${name} is not one of its values`;
  }
  for (const param of tool.params)
    if (param.required && (parameters[param.name] === undefined || parameters[param.name] === null))
      return `missing ${param.name}`;
  const groups = tool.one_of_required ?? [];
  const nested = groups.every((g) => Array.isArray(g))
    ? (groups as readonly (readonly string[])[])
    : [groups as readonly string[]];
  for (const group of nested)
    if (
      group.length > 0 &&
      !group.some((name) => parameters[name] !== undefined && parameters[name] !== null)
    )
      return `one of ${group.join(", ")} is required`;
  return null;
}

function handleExecute(toolId: string | undefined, raw: unknown, world: World, fault: Fault | null): Reply {
  const parsed = executeBody.safeParse(raw);
  if (!parsed.success || toolId === undefined) return badRequest("invalid execute request");
  if (!world.searchIds.has(parsed.data.search_id)) return badRequest("unknown search_id");
  const tool = world.catalog.find((t) => t.tool_id === toolId);
  if (tool === undefined) return { status: 404, body: failureBody("tool not found") };
  world.executions += 1;
  const head = { execution_id: `exec-${world.executions}`, tool_id: toolId, elapsed_time_ms: 1 };
  const problem = parameterProblem(tool, parsed.data.parameters);
  const behaviour: CatalogTool["execute"] =
    fault?.kind === "execute_failure"
      ? { kind: "failure" }
      : fault?.kind === "empty_data"
        ? { kind: "empty" }
        : tool.execute;
  if (problem !== null || behaviour.kind === "failure")
    return {
      status: 200,
      body: { ...head, success: false, error_message: problem ?? "the upstream provider failed" },
    };
  const data = behaviour.kind === "data" ? behaviour.data : [];
  return { status: 200, body: { ...head, success: true, result: { data } } };
}

/** The endpoints a content fault bends; on any other endpoint it leaves the answer alone. */
const CONTENT_FAULTS: Partial<Record<Fault["kind"], readonly Endpoint[]>> = {
  success_envelope: ["search", "inspect", "execute"],
  echo_key: ["search", "inspect", "execute"],
  empty_results: ["search", "inspect"],
  missing_search_id: ["search"],
  omit_requested: ["inspect"],
  execute_failure: ["execute"],
  empty_data: ["execute"],
};

/** The answer of an endpoint, bent by the content faults (status and timing faults are the shell's). */
function answer(endpoint: Endpoint, request: RecordedRequest, world: World, fault: Fault | null): Reply {
  const applies = fault !== null && (CONTENT_FAULTS[fault.kind] ?? []).includes(endpoint);
  const bend = applies ? fault : null;
  const reply =
    endpoint === "search"
      ? handleSearch(request.body, world)
      : endpoint === "inspect"
        ? handleInspect(request.body, world)
        : handleExecute(request.query.tool_id, request.body, world, bend);
  if (reply.status !== 200 || bend === null) return reply;
  const body = reply.body as Record<string, unknown>;
  switch (bend.kind) {
    case "success_envelope":
      return { status: 200, body: { status: "success", message: "ok", data: body } };
    case "empty_results":
      return { status: 200, body: { ...body, results: [] } };
    case "missing_search_id": {
      const { search_id: _dropped, ...rest } = body;
      return { status: 200, body: rest };
    }
    case "omit_requested": {
      const asked = new Set((request.body as { tool_ids: string[] }).tool_ids);
      const other = world.catalog.find((t) => !asked.has(t.tool_id) && t.hiddenFromInspect !== true);
      return { status: 200, body: { results: other === undefined ? [] : [inspectView(other)] } };
    }
    case "echo_key":
      return { status: 200, body: { ...body, echoed: request.headers.authorization ?? "" } };
    default:
      return reply;
  }
}

/** Reads a request whole (keeping at most MAX_BODY_BYTES) into the form tests inspect. */
async function readRequest(req: IncomingMessage): Promise<{ recorded: RecordedRequest; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  const url = new URL(req.url ?? "/", "http://imitation.invalid");
  const text = Buffer.concat(chunks).toString("utf8");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  const recorded: RecordedRequest = {
    method: req.method ?? "",
    path: req.url ?? "",
    endpoint: ENDPOINTS[url.pathname] ?? null,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    fault: null,
  };
  return { recorded, tooLarge: size > MAX_BODY_BYTES };
}

/** Content type and revision headers; a `revisions` fault overrides the server's own. */
function replyHeaders(
  own: ImitationServerOptions["revisions"],
  override?: { api?: string | null; catalog?: string | null },
): Record<string, string> {
  const out: Record<string, string> = { "content-type": "application/json" };
  const api = override?.api !== undefined ? override.api : (own?.api ?? "imitation-api-1");
  const catalog =
    override?.catalog !== undefined ? override.catalog : (own?.catalog ?? "imitation-catalog-1");
  if (api !== null) out["x-qveris-api-version"] = api;
  if (catalog !== null) out["x-qveris-catalog-version"] = catalog;
  return out;
}

export async function startImitationServer(options: ImitationServerOptions): Promise<ImitationServer> {
  const world: World = { catalog: options.catalog ?? IMITATION_CATALOG, searchIds: new Set(), executions: 0 };
  const rules: Array<{ endpoint?: Endpoint; left: number; fault: Fault }> = [];
  const setFaults = (next: readonly FaultRule[]) => {
    rules.splice(0, rules.length, ...next.map((r) => ({ ...r, left: r.times ?? 1 })));
  };
  setFaults(options.faults ?? []);
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function takeFault(endpoint: Endpoint): Fault | null {
    const rule = rules.find((r) => r.left > 0 && (r.endpoint === undefined || r.endpoint === endpoint));
    if (rule === undefined) return null;
    rule.left -= 1;
    return rule.fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on("error", () => undefined);
    const { recorded, tooLarge } = await readRequest(req);
    requests.push(recorded);
    const headers = replyHeaders(options.revisions);
    const send = (reply: Reply, extra: Record<string, string> = {}) =>
      void res.writeHead(reply.status, { ...headers, ...extra }).end(JSON.stringify(reply.body));
    const { endpoint } = recorded;
    if (req.headers.authorization !== `Bearer ${options.key}`)
      return send({ status: 401, body: failureBody("unauthorized") });
    if (req.method !== "POST") return send({ status: 405, body: failureBody("method not allowed") });
    if (endpoint === null) return send({ status: 404, body: failureBody("not found") });
    if (tooLarge) return send({ status: 413, body: failureBody("request too large") });

    const fault = takeFault(endpoint);
    recorded.fault = fault?.kind ?? null;
    switch (fault?.kind) {
      case "status":
        return send(
          { status: fault.status, body: failureBody("imitated failure") },
          fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter },
        );
      case "failure_envelope": {
        const body = { [fault.field ?? "status"]: fault.status, message: "imitated failure", data: {} };
        return send({ status: 200, body });
      }
      case "malformed_json":
        return void res.writeHead(200, headers).end('{"search_id": "search-x", "results": [');
      case "redirect":
        return void res
          .writeHead(fault.status ?? 302, { ...headers, location: fault.location ?? recorded.path })
          .end();
      case "drop_connection":
        return void req.socket.destroy();
      case "slow_headers":
        await wait(fault.ms);
        if (req.socket.destroyed) return;
        break;
      case "truncated_body": {
        const full = JSON.stringify(answer(endpoint, recorded, world, null).body);
        res.writeHead(200, { ...headers, "content-length": String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)), () => req.socket.destroy());
        return;
      }
      case "stall_body": {
        const full = JSON.stringify(answer(endpoint, recorded, world, null).body);
        const half = Math.floor(full.length / 2);
        res.writeHead(200, headers).write(full.slice(0, half));
        await wait(fault.ms);
        if (!req.socket.destroyed) res.end(full.slice(half));
        return;
      }
      case "trickle_body": {
        const full = Buffer.from(JSON.stringify(answer(endpoint, recorded, world, null).body));
        res.writeHead(200, headers);
        for (const byte of full) {
          if (req.socket.destroyed) return;
          res.write(Buffer.of(byte));
          await wait(fault.everyMs);
        }
        if (!req.socket.destroyed) res.end();
        return;
      }
      case "revisions":
        return void res
          .writeHead(200, replyHeaders(options.revisions, fault))
          .end(JSON.stringify(answer(endpoint, recorded, world, null).body));
    }
    send(answer(endpoint, recorded, world, fault));
  }

  // A client that goes away mid-request ends only its own exchange.
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
    setFaults,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Seven tools: every parameter shape the spec names, and one of each execute outcome. */
export const IMITATION_CATALOG: readonly CatalogTool[] = [
  {
    tool_id: "weather.forecast.v1",
    name: "Weather forecast",
    description: "Daily weather forecast for a city.",
    params: [
      { name: "city", type: "string", required: true, description: "City name." },
      { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
      { name: "days", type: "int", required: false, description: "Days ahead, 1 to 7." },
      { name: "include_hourly", type: "bool", required: false },
    ],
    examples: [{ city: "London", units: "metric" }],
    keywords: ["weather", "forecast", "temperature"],
    routing: { capability: "weather.forecast", cost_class: "low", reliability: 0.99, as_of_support: false },
    execute: { kind: "data", data: { forecast: [{ day: 1, temperature_c: 20 }] } },
  },
  {
    tool_id: "stocks.quote.v1",
    name: "Stock quote",
    description: "Latest price for one or more ticker symbols.",
    params: [
      { name: "symbols", type: "array", required: true, items: { type: "string" } },
      { name: "exchange", type: "string", required: false, enum: ["NASDAQ", "NYSE"] },
    ],
    keywords: ["stock", "quote", "market", "price", "ticker"],
    routing: { capability: "market.quote", cost_class: "low", reliability: 0.98, as_of_support: true },
    execute: { kind: "data", data: [{ symbol: "AAPL", price: 190.5 }] },
  },
  {
    tool_id: "fx.convert.v1",
    name: "Currency conversion",
    description: "Converts an amount between two currencies.",
    params: [
      { name: "from", type: "string", required: true },
      { name: "to", type: "string", required: true },
      { name: "amount", type: "float", required: false },
    ],
    keywords: ["currency", "exchange", "conversion", "fx"],
    routing: { capability: "fx.convert", cost_class: "low", reliability: 0.97, as_of_support: true },
    execute: { kind: "data", data: { rate: 0.92 } },
  },
  {
    tool_id: "geo.geocode.v1",
    name: "Geocode",
    description: "Coordinates for an address or a place id.",
    params: [
      { name: "address", type: "string", required: false },
      { name: "place_id", type: "string", required: false },
      {
        name: "filter",
        type: "object",
        required: false,
        properties: { country: { type: "string" }, limit: { type: "integer" } },
      },
    ],
    one_of_required: ["address", "place_id"],
    keywords: ["geocode", "address", "location", "coordinates"],
    routing: { capability: "geo.geocode", cost_class: "medium", reliability: 0.95, as_of_support: false },
    execute: { kind: "data", data: { lat: 51.5, lon: -0.12 } },
  },
  {
    tool_id: "news.search.v1",
    name: "News search",
    description: "Searches recent news articles.",
    params: [
      { name: "query", type: "string", required: true },
      { name: "sort", type: "string", required: false, enum: ["recent", "relevant"] },
      { name: "page_size", type: "integer", required: false },
    ],
    keywords: ["news", "search", "articles", "recent"],
    routing: { capability: "news.search", cost_class: "low", reliability: 0.9, as_of_support: true },
    execute: { kind: "empty" },
  },
  {
    tool_id: "papers.search.v1",
    name: "Paper search",
    description: "Searches scholarly papers.",
    params: [{ name: "query", type: "string", required: true }],
    keywords: ["academic", "paper", "papers", "scholarly", "search"],
    routing: { capability: "papers.search", cost_class: "medium", reliability: 0.8, as_of_support: false },
    execute: { kind: "failure" },
  },
  {
    tool_id: "ghost.lookup.v1",
    name: "Ghost lookup",
    description: "Found by discovery, never returned by inspection.",
    params: [{ name: "id", type: "string", required: true }],
    keywords: ["ghost", "lookup"],
    routing: { capability: "ghost.lookup", cost_class: "low", reliability: 0.5, as_of_support: false },
    execute: { kind: "data", data: { found: true } },
    hiddenFromInspect: true,
  },
];
