/**
 * The Discover → Call API client (issue #17, item 2): the wire format, every reason code, the
 * retry policy (read endpoints retry 429/503/network/timeouts, execute only 429), Retry-After and
 * backoff read from the injected sleep, envelopes, revisions, base URL rules, and a key that never
 * comes back out. HTTP behaviour runs against the loopback imitation server; a fake fetch stands in
 * where the server cannot say it (a retried reply with its own revision header).
 */
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import { createDiscoverCallApi, type DiscoverCallApi } from "../../src/discover-call/api.ts";
import {
  API_FAILURE_MESSAGE,
  type ApiFailure,
  type ApiReasonCode,
} from "../../src/discover-call/api-answers.ts";
import { unwrapEnvelope } from "../../src/discover-call/api-envelope.ts";
import { resolveApiKey } from "../../src/discover-call/api-key.ts";
import { retryDelayMs } from "../../src/discover-call/api-retry.ts";
import { aggregateRevision, summarizeRevisions } from "../../src/discover-call/api-revisions.ts";
import { DEFAULT_BASE_URL, resolveBaseUrl } from "../../src/discover-call/base-url.ts";
import {
  type CatalogTool,
  type FaultRule,
  type ImitationServer,
  startImitationServer,
} from "./imitation-server.ts";

const KEY = "qv-DISTINCTIVE-key-4f9c21e7b0";
/** The injected clock: Retry-After dates are measured against this instant. */
const NOW = Date.parse("2026-07-23T12:00:00Z");
/**
 * The per-request limit where a test makes the server stall (for 10 s): far below the stall, far
 * above a loopback round trip on a busy machine.
 */
const TIMEOUT_MS = 300;
const httpDate = (offsetMs: number) => new Date(NOW + offsetMs).toUTCString();

let server: ImitationServer;
let delays: number[];

beforeEach(async () => {
  server = await startImitationServer({ key: KEY });
  delays = [];
});
afterEach(() => server.close());

function client(
  options: { timeoutMs?: number; fetch?: typeof fetch; apiKey?: string } = {},
): DiscoverCallApi {
  return createDiscoverCallApi({
    baseUrl: server.url,
    apiKey: options.apiKey ?? KEY,
    fetch: options.fetch ?? fetch,
    sleep: async (ms) => void delays.push(ms),
    now: () => NOW,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

const SESSION = "session-1";
const discover = (api: DiscoverCallApi, query = "weather forecast") =>
  api.discover({ query, limit: 5, sessionId: SESSION });
/** A search id the server issued (it refuses any other on inspect and execute). */
async function searchId(api: DiscoverCallApi): Promise<string> {
  const found = await discover(api);
  if (!found.ok) throw new Error("discover failed in setup");
  return found.value.search_id;
}
const inspect = async (api: DiscoverCallApi, id: string) =>
  api.inspect({ toolIds: ["weather.forecast.v1"], searchId: id, sessionId: SESSION });
const execute = async (api: DiscoverCallApi, id: string) =>
  api.execute({
    toolId: "weather.forecast.v1",
    parameters: { city: "London" },
    searchId: id,
    sessionId: SESSION,
    model: "model-a",
  });
const seen = (endpoint: string) => server.requests.filter((r) => r.endpoint === endpoint).length;
const failed = (reason: ApiReasonCode, attempts: number) => ({
  ok: false,
  failure: { stage: "api", reason_code: reason, message: API_FAILURE_MESSAGE },
  attempts,
});
const faults = (...rules: FaultRule[]) => server.setFaults(rules);

describe("the wire format", () => {
  it("sends the spec's bodies with the bearer key and url-encodes the tool id", async () => {
    const odd: CatalogTool = {
      tool_id: "odd id/with?chars&more",
      name: "Odd",
      description: "A tool id that needs encoding.",
      params: [{ name: "q", type: "string", required: true }],
      keywords: ["odd"],
      routing: { capability: "odd", cost_class: "low", reliability: 1, as_of_support: false },
      execute: { kind: "data", data: { ok: 1 } },
    };
    await server.close();
    server = await startImitationServer({ key: KEY, catalog: [odd] });
    const api = client();
    const found = await api.discover({ query: "odd", limit: 3, sessionId: SESSION });
    expect(found).toMatchObject({ ok: true, value: { search_id: "search-1" }, attempts: 1 });
    await api.inspect({ toolIds: [odd.tool_id], searchId: "search-1", sessionId: SESSION });
    const call = await api.execute({
      toolId: odd.tool_id,
      parameters: { q: "x" },
      searchId: "search-1",
      sessionId: SESSION,
      model: "model-a",
    });
    expect(call).toEqual({ ok: true, value: { success: true, result: { data: { ok: 1 } } }, attempts: 1 });
    const [search, byIds, run] = server.requests;
    expect(search?.path).toBe("/api/v1/search");
    expect(search?.body).toEqual({ query: "odd", limit: 3, session_id: SESSION, view: "routing" });
    expect(byIds?.body).toEqual({
      tool_ids: [odd.tool_id],
      search_id: "search-1",
      session_id: SESSION,
      view: "lean",
    });
    expect(run?.path).toBe("/api/v1/tools/execute?tool_id=odd%20id%2Fwith%3Fchars%26more");
    expect(run?.body).toEqual({
      parameters: { q: "x" },
      search_id: "search-1",
      session_id: SESSION,
      model: "model-a",
      respond_with: "full",
    });
    for (const request of server.requests) {
      expect(request.method).toBe("POST");
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.headers["content-type"]).toBe("application/json");
    }
  });

  it("returns the discovery, the inspected tools and the call's success and result", async () => {
    const api = client();
    const found = await discover(api);
    expect(found.ok && found.value.results.map((r) => (r as { tool_id: string }).tool_id)).toEqual([
      "weather.forecast.v1",
    ]);
    const id = await searchId(api);
    const tools = await inspect(api, id);
    expect(tools.ok && (tools.value.results[0] as { params: unknown[] }).params).toHaveLength(4);
    expect(await execute(api, id)).toMatchObject({ ok: true, value: { success: true } });
  });

  it("reports a tool's failed call and an empty result as answers, not API failures", async () => {
    const api = client();
    const id = await searchId(api);
    faults({ endpoint: "execute", fault: { kind: "execute_failure" } });
    expect(await execute(api, id)).toEqual({ ok: true, value: { success: false }, attempts: 1 });
    faults({ endpoint: "execute", fault: { kind: "empty_data" } });
    expect(await execute(api, id)).toEqual({
      ok: true,
      value: { success: true, result: { data: [] } },
      attempts: 1,
    });
  });

  it("passes on an inspection that lacks the selected tool (the runner's gate decides)", async () => {
    const api = client();
    const id = await searchId(api);
    faults({ endpoint: "inspect", fault: { kind: "omit_requested" } });
    const tools = await inspect(api, id);
    expect(tools.ok && tools.value.results.map((r) => (r as { tool_id: string }).tool_id)).toEqual([
      "stocks.quote.v1",
    ]);
    faults({ endpoint: "search", fault: { kind: "empty_results" } });
    expect(await discover(api)).toMatchObject({ ok: true, value: { results: [] } });
  });
});

describe("reason codes", () => {
  it("is http_<status> for a reply that is not 2xx, including a refused key", async () => {
    faults({ fault: { kind: "status", status: 500 } });
    expect(await discover(client())).toEqual(failed("http_500", 1));
    expect(await discover(client({ apiKey: "qv-wrong-key" }))).toEqual(failed("http_401", 1));
  });

  it("is network_failure for a redirect, never followed (as the reference harness records it)", async () => {
    faults({ times: Infinity, fault: { kind: "redirect", status: 307 } });
    expect(await discover(client())).toEqual(failed("network_failure", 4));
    expect(server.requests.every((r) => r.path.endsWith("/search"))).toBe(true);
    const api = client();
    faults();
    const id = await searchId(api);
    faults({ times: Infinity, fault: { kind: "redirect", status: 308 } });
    expect(await execute(api, id)).toEqual(failed("network_failure", 1));
  });

  it("is invalid_response for a body that is not JSON", async () => {
    faults({ fault: { kind: "malformed_json" } });
    expect(await discover(client())).toEqual(failed("invalid_response", 1));
  });

  it("is failure_envelope for a failure status inside a 200 reply", async () => {
    for (const fault of [
      { kind: "failure_envelope", status: "failure" },
      { kind: "failure_envelope", status: "FAILED" },
      { kind: "failure_envelope", status: "error" },
      { kind: "failure_envelope", status: 500, field: "status_code" },
      { kind: "failure_envelope", status: 400 },
    ] as const) {
      faults({ fault });
      expect(await discover(client()), JSON.stringify(fault)).toEqual(failed("failure_envelope", 1));
    }
  });

  it("is network_failure when the connection drops, request_timeout before the headers, response_timeout during the body", async () => {
    const api = client({ timeoutMs: TIMEOUT_MS });
    const id = await searchId(api);
    faults({ fault: { kind: "drop_connection" } });
    expect(await execute(api, id)).toEqual(failed("network_failure", 1));
    faults({ fault: { kind: "slow_headers", ms: 10_000 } });
    expect(await execute(api, id)).toEqual(failed("request_timeout", 1));
    faults({ fault: { kind: "stall_body", ms: 10_000 } });
    expect(await execute(api, id)).toEqual(failed("response_timeout", 1));
  });

  it("is invalid_response, not retried, for a body cut short of its Content-Length (as the reference)", async () => {
    const api = client();
    const id = await searchId(api);
    faults({ times: Infinity, fault: { kind: "truncated_body" } });
    expect(await execute(api, id)).toEqual(failed("invalid_response", 1));
    expect(await discover(api)).toEqual(failed("invalid_response", 1));
  });

  it("is discover/missing_search_id for a discovery without a usable search_id", async () => {
    faults({ fault: { kind: "missing_search_id" } });
    expect(await discover(client())).toEqual({
      ok: false,
      failure: {
        stage: "discover",
        reason_code: "missing_search_id",
        message: "Discover did not return a search_id",
      },
      attempts: 1,
    });
    const blank = async () => Response.json({ search_id: "   ", results: [] });
    expect(await discover(client({ fetch: blank }))).toMatchObject({
      ok: false,
      failure: { stage: "discover", reason_code: "missing_search_id" },
    });
  });

  it("has the stage and reason code types the records need", () => {
    expectTypeOf<ApiFailure["stage"]>().toEqualTypeOf<"api" | "discover">();
    expectTypeOf<"http_503">().toExtend<ApiReasonCode>();
  });
});

describe("retries", () => {
  it("retries discover and inspect through 429 and 503, honouring Retry-After", async () => {
    const api = client();
    faults(
      { endpoint: "search", fault: { kind: "status", status: 429, retryAfter: "2" } },
      { endpoint: "search", fault: { kind: "status", status: 503 } },
    );
    expect(await discover(api)).toMatchObject({ ok: true, attempts: 3 });
    expect(delays).toEqual([2000, 1000]);
    const id = "search-1";
    delays = [];
    faults({ endpoint: "inspect", times: 3, fault: { kind: "status", status: 503 } });
    expect(await inspect(api, id)).toMatchObject({ ok: true, attempts: 4 });
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it("gives up after four attempts with the last status, waiting 500 ms × 2^n between them", async () => {
    faults({ times: Infinity, fault: { kind: "status", status: 503 } });
    expect(await discover(client())).toEqual(failed("http_503", 4));
    expect(delays).toEqual([500, 1000, 2000]);
    expect(seen("search")).toBe(4);
  });

  it("retries discover and inspect after network failures and both timeouts", async () => {
    const api = client({ timeoutMs: TIMEOUT_MS });
    faults(
      { fault: { kind: "drop_connection" } },
      { fault: { kind: "slow_headers", ms: 10_000 } },
      { fault: { kind: "stall_body", ms: 10_000 } },
    );
    expect(await discover(api)).toMatchObject({ ok: true, attempts: 4 });
    expect(delays).toEqual([500, 1000, 2000]);
    delays = [];
    faults({ endpoint: "inspect", times: Infinity, fault: { kind: "drop_connection" } });
    expect(await inspect(api, "search-1")).toEqual(failed("network_failure", 4));
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it("does not retry an execute that got 503, lost its connection or timed out (it may have run)", async () => {
    const api = client({ timeoutMs: TIMEOUT_MS });
    const id = await searchId(api);
    for (const [fault, reason] of [
      [{ kind: "status", status: 503 }, "http_503"],
      [{ kind: "drop_connection" }, "network_failure"],
      [{ kind: "slow_headers", ms: 10_000 }, "request_timeout"],
      [{ kind: "stall_body", ms: 10_000 }, "response_timeout"],
    ] as const) {
      const before = seen("execute");
      faults({ endpoint: "execute", times: Infinity, fault });
      expect(await execute(api, id)).toEqual(failed(reason, 1));
      expect(seen("execute") - before).toBe(1);
    }
    expect(delays).toEqual([]);
  });

  it("retries an execute only on 429, at most four attempts", async () => {
    const api = client();
    const id = await searchId(api);
    faults({ endpoint: "execute", times: 2, fault: { kind: "status", status: 429, retryAfter: "1" } });
    expect(await execute(api, id)).toMatchObject({ ok: true, value: { success: true }, attempts: 3 });
    expect(delays).toEqual([1000, 1000]);
    delays = [];
    faults({ endpoint: "execute", times: Infinity, fault: { kind: "status", status: 429 } });
    expect(await execute(api, id)).toEqual(failed("http_429", 4));
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it("does not retry other failures of the read endpoints", async () => {
    faults(
      { fault: { kind: "status", status: 500 } },
      { fault: { kind: "malformed_json" } },
      { fault: { kind: "failure_envelope", status: "failure" } },
    );
    const api = client();
    expect(await discover(api)).toEqual(failed("http_500", 1));
    expect(await discover(api)).toEqual(failed("invalid_response", 1));
    expect(await discover(api)).toEqual(failed("failure_envelope", 1));
    expect(delays).toEqual([]);
  });

  it("reads Retry-After as an HTTP date against the injected clock, capped at 60 s", async () => {
    faults(
      { fault: { kind: "status", status: 429, retryAfter: httpDate(10_000) } },
      { fault: { kind: "status", status: 429, retryAfter: httpDate(-5_000) } },
      { fault: { kind: "status", status: 503, retryAfter: httpDate(300_000) } },
    );
    expect(await discover(client())).toMatchObject({ ok: true, attempts: 4 });
    expect(delays).toEqual([10_000, 0, 60_000]);
  });

  it("reads Retry-After seconds (fractions too), caps them at 60 s and ignores what it cannot read", () => {
    const now = () => NOW;
    expect(retryDelayMs("3", 0, now)).toBe(3000);
    expect(retryDelayMs(" 1.5 ", 0, now)).toBe(1500);
    expect(retryDelayMs("0", 2, now)).toBe(0);
    expect(retryDelayMs("120", 0, now)).toBe(60_000);
    expect(retryDelayMs("-5", 1, now)).toBe(1000);
    expect(retryDelayMs("soon", 2, now)).toBe(2000);
    expect(retryDelayMs("", 0, now)).toBe(500);
    expect(retryDelayMs(null, 3, now)).toBe(4000);
  });
});

describe("envelopes", () => {
  it("opens a success envelope and takes any other payload as it is", async () => {
    faults({ fault: { kind: "success_envelope" } });
    expect(await discover(client())).toMatchObject({ ok: true, value: { search_id: "search-1" } });
    expect(unwrapEnvelope({ status_code: 200, data: { a: 1 } })).toEqual({ ok: true, value: { a: 1 } });
    expect(unwrapEnvelope({ message: "ok", data: [1] })).toEqual({ ok: true, value: [1] });
    expect(unwrapEnvelope({ status: null, status_code: 404, data: {} })).toEqual({ ok: false });
    expect(unwrapEnvelope({ status: "failure" })).toEqual({ ok: true, value: { status: "failure" } });
    expect(unwrapEnvelope({ data: 1 })).toEqual({ ok: true, value: { data: 1 } });
    expect(unwrapEnvelope([1])).toEqual({ ok: true, value: [1] });
  });
});

describe("revisions", () => {
  it("aggregates one value to itself, none to unreported and several to mixed:a,b", () => {
    expect(aggregateRevision([])).toBe("unreported");
    expect(aggregateRevision(["r1", "r1"])).toBe("r1");
    expect(aggregateRevision(["r2", "r1", "r2"])).toBe("mixed:r1,r2");
    expect(summarizeRevisions({ api: ["a"], catalog: [] })).toEqual({
      api_revision: "a",
      catalog_revision: "unreported",
    });
  });

  it("collects the headers of kept replies, failed ones included", async () => {
    const api = client();
    faults(
      { fault: { kind: "revisions", api: "api-2", catalog: null } },
      { fault: { kind: "status", status: 500 } },
    );
    await discover(api);
    await discover(api);
    expect(summarizeRevisions(api.revisions())).toEqual({
      api_revision: "mixed:api-2,imitation-api-1",
      catalog_revision: "imitation-catalog-1",
    });
  });

  it("ignores the headers of a reply that was retried", async () => {
    let calls = 0;
    const fake: typeof fetch = async () => {
      calls += 1;
      return calls === 1
        ? new Response("busy", { status: 503, headers: { "x-qveris-api-version": "stale" } })
        : Response.json({ search_id: "s", results: [] }, { headers: { "x-qveris-api-version": "fresh" } });
    };
    const api = client({ fetch: fake });
    expect(await discover(api)).toMatchObject({ ok: true, attempts: 2 });
    expect(api.revisions()).toEqual({ api: ["fresh"], catalog: [] });
  });
});

describe("base URL and key", () => {
  const usage = (fn: () => unknown): FabenchError => {
    try {
      fn();
    } catch (error) {
      if (error instanceof FabenchError && error.kind === "usage") return error;
      throw error;
    }
    throw new Error("expected a usage error");
  };

  it("takes --base-url, else QVERIS_BASE_URL, else the public API, without trailing slashes", () => {
    const env = { QVERIS_BASE_URL: "https://env.example/api/v1/" };
    expect(resolveBaseUrl("https://flag.example/api/v1///", env)).toBe("https://flag.example/api/v1");
    expect(resolveBaseUrl(undefined, env)).toBe("https://env.example/api/v1");
    expect(resolveBaseUrl(undefined, { QVERIS_BASE_URL: "" })).toBe(DEFAULT_BASE_URL);
    expect(resolveBaseUrl("https://flag.example/", {})).toBe("https://flag.example");
  });

  it("allows plain http only for localhost, 127.0.0.1 and [::1]", () => {
    for (const url of ["http://localhost:8080/api/", "http://127.0.0.1:9/x", "http://[::1]:9"])
      expect(() => resolveBaseUrl(url, {})).not.toThrow();
    for (const url of ["http://example.com/api", "http://127.0.0.2/api", "http://localhost.example/api"])
      expect(usage(() => resolveBaseUrl(url, {})).code).toBe("insecure_base_url");
  });

  it("refuses credentials, queries, fragments and non-URLs with usage codes that echo nothing", () => {
    const cases: Array<[string, string]> = [
      [`https://user:${KEY}@example.com/api`, "base_url_credentials"],
      [`https://example.com/api?key=${KEY}`, "base_url_query"],
      ["https://example.com/api?", "base_url_query"],
      [`https://example.com/api#${KEY}`, "base_url_query"],
      ["ftp://example.com/api", "bad_base_url"],
      ["not a url", "bad_base_url"],
      ["", "bad_base_url"],
      [" https://example.com", "bad_base_url"],
    ];
    for (const [url, code] of cases) {
      const error = usage(() => resolveBaseUrl(url, {}));
      expect(error.code, url).toBe(code);
      expect(error.message).not.toContain(KEY);
    }
    expect(
      usage(() => resolveBaseUrl(undefined, { QVERIS_BASE_URL: "http://example.com" })).message,
    ).toContain("QVERIS_BASE_URL");
  });

  it("takes the key from QVERIS_API_KEY only, trimmed, and never echoes it", () => {
    expect(resolveApiKey({ QVERIS_API_KEY: ` ${KEY}\n` })).toBe(KEY);
    expect(usage(() => resolveApiKey({})).code).toBe("missing_api_key");
    expect(usage(() => resolveApiKey({ QVERIS_API_KEY: "  " })).code).toBe("missing_api_key");
    const bad = usage(() => resolveApiKey({ QVERIS_API_KEY: `${KEY}\r\nx-evil: 1` }));
    expect(bad.code).toBe("bad_api_key");
    expect(bad.message).not.toContain(KEY);
  });

  it("rechecks the base URL and the timeout when the client is made", () => {
    const make = (baseUrl: string, timeoutMs?: number) => () =>
      createDiscoverCallApi({
        baseUrl,
        apiKey: KEY,
        fetch,
        sleep: async () => undefined,
        now: () => NOW,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    expect(usage(make("http://example.com")).code).toBe("insecure_base_url");
    expect(usage(make(server.url, 0)).code).toBe("bad_timeout");
    expect(make(`${server.url}//`)().baseUrl).toBe(server.url);
  });
});

describe("the key never comes back out", () => {
  it("appears in no outcome, failure or revision, whatever the server does", async () => {
    const api = client({ timeoutMs: TIMEOUT_MS });
    const id = await searchId(api);
    const outcomes: unknown[] = [];
    const scenarios: Fault[] = [
      { kind: "status", status: 500 },
      { kind: "status", status: 429, retryAfter: "0" },
      { kind: "malformed_json" },
      { kind: "failure_envelope", status: "failure" },
      { kind: "redirect" },
      { kind: "drop_connection" },
      { kind: "stall_body", ms: 10_000 },
      { kind: "echo_key" },
    ];
    for (const fault of scenarios) {
      faults({ times: 4, fault });
      outcomes.push(await discover(api), await inspect(api, id), await execute(api, id));
    }
    outcomes.push(await discover(client({ apiKey: `${KEY}-wrong` })), api.revisions());
    expect(JSON.stringify(outcomes)).not.toContain(KEY);
    // The echo is refused whole rather than passed on to records and adapter prompts.
    faults({ fault: { kind: "echo_key" } });
    expect(await discover(api)).toEqual(failed("invalid_response", 1));
  });
});

describe("the imitation server", () => {
  const post = (path: string, body: unknown, key = KEY) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("ranks by shared keywords, cuts to the limit and hides what inspect must not return", async () => {
    const api = client();
    const found = await api.discover({ query: "news search papers", limit: 2, sessionId: SESSION });
    const ids = found.ok ? found.value.results.map((r) => (r as { tool_id: string }).tool_id) : [];
    expect(ids).toEqual(["news.search.v1", "papers.search.v1"]);
    const ghost = await api.discover({ query: "ghost", limit: 5, sessionId: SESSION });
    expect(ghost.ok && ghost.value.results).toHaveLength(1);
    const tools = await api.inspect({
      toolIds: ["ghost.lookup.v1"],
      searchId: "search-2",
      sessionId: SESSION,
    });
    expect(tools).toMatchObject({ ok: true, value: { results: [] } });
  });

  it("answers a call with wrong parameters as a failed call", async () => {
    const api = client();
    const id = await searchId(api);
    const call = (toolId: string, parameters: Record<string, unknown>) =>
      api.execute({ toolId, parameters, searchId: id, sessionId: SESSION, model: "m" });
    expect(await call("weather.forecast.v1", { town: "x" })).toMatchObject({ value: { success: false } });
    expect(await call("weather.forecast.v1", { city: "x", units: "kelvin" })).toMatchObject({
      value: { success: false },
    });
    expect(await call("geo.geocode.v1", { filter: { country: "GB" } })).toMatchObject({
      value: { success: false },
    });
    expect(await call("geo.geocode.v1", { place_id: "p1" })).toMatchObject({ value: { success: true } });
    expect(await call("papers.search.v1", { query: "q" })).toMatchObject({ value: { success: false } });
    expect(await call("news.search.v1", { query: "q" })).toMatchObject({
      value: { success: true, result: { data: [] } },
    });
  });

  it("refuses bodies off the spec, unknown search ids, other methods and paths", async () => {
    expect((await post("/search", { query: "x", limit: 5, session_id: "s" })).status).toBe(400);
    expect(
      (await post("/search", { query: "x", limit: 5, session_id: "s", view: "routing", extra: 1 })).status,
    ).toBe(400);
    const inspectBody = {
      tool_ids: ["weather.forecast.v1"],
      search_id: "search-99",
      session_id: "s",
      view: "lean",
    };
    expect((await post("/tools/by-ids", inspectBody)).status).toBe(400);
    expect((await post("/nowhere", {})).status).toBe(404);
    const get = await fetch(`${server.url}/search`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).toBe(405);
    expect((await post("/search", {}, "other")).status).toBe(401);
  });

  it("leaves an answer alone when a content fault does not fit the endpoint", async () => {
    faults({ fault: { kind: "omit_requested" } });
    expect(await discover(client())).toMatchObject({ ok: true, value: { search_id: "search-1" } });
    expect(server.requests[0]?.fault).toBe("omit_requested");
  });
});

type Fault = FaultRule["fault"];
