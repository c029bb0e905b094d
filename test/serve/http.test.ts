/**
 * The HTTP shell, once over loopback: the key, paths and methods, the body limit, malformed JSON,
 * the revision headers, the log line, the time limits and a graceful shutdown. Time limits are set
 * small here so the refusals happen; nothing asserts how fast anything is.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Router } from "../../src/conditions/routing/index.ts";
import { toolVersion } from "../../src/core/index.ts";
import { createWorld, type World } from "../../src/serve/index.ts";
import { KEY, startTestServer, type TestServer, testContext, testWorld } from "./helpers.ts";

const world = testWorld();
const QUERY = [...world.taskByQuery.values()][0]?.query ?? "";
const search = { query: QUERY, limit: 3, session_id: "s1", view: "routing" };

let running: TestServer[] = [];
async function serve(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const server = await startTestServer(...args);
  running.push(server);
  return server;
}
afterEach(async () => {
  for (const s of running) s.server.forceClose();
  await Promise.all(running.map((s) => s.server.close()));
  running = [];
});

/** A raw request: headers as given, the body written in `parts` with `pauseMs` between them. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; parts?: Buffer[]; pauseMs?: number },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "POST", headers: options.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    const parts = [...(options.parts ?? [])];
    const next = () => {
      const part = parts.shift();
      if (part === undefined) return void req.end();
      req.write(part, () => (options.pauseMs ? setTimeout(next, options.pauseMs) : next()));
    };
    next();
  });
}

/** A world whose router answers only when the test says so. */
function slowWorld(): { world: World; release: () => void } {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const router: Router = {
    id: "slow",
    config: {},
    rank: async ({ endpoints }) => {
      await gate;
      return endpoints.map((e) => e.route_id);
    },
  };
  const built = createWorld({
    catalog: world.catalog,
    tasks: [...world.taskByQuery.values()],
    router,
    version: "t",
  });
  if (!built.ok) throw new Error("world");
  return { world: built.value, release };
}

describe("fabench serve's HTTP shell", () => {
  it("answers 401 without the key, with a wrong one or another scheme, and never logs the key", async () => {
    const s = await serve();
    for (const key of [null, "wrong", `${KEY}x`, KEY.slice(0, -1)])
      expect((await s.post("/search", search, { key })).status).toBe(401);
    const basic = await raw(`${s.url}/search`, { headers: { authorization: `Basic ${KEY}` }, parts: [] });
    expect(basic.status).toBe(401);
    expect((await s.post("/search", search)).status).toBe(200);
    expect(s.logs.join("\n")).not.toContain(KEY);
    expect(s.logs.join("\n")).not.toContain("wrong");
  });

  it("answers 404 for unknown paths and 405 for other methods on an endpoint", async () => {
    const s = await serve();
    expect((await s.post("/searches", search)).status).toBe(404);
    expect((await s.post("/../search", search)).status).toBe(404);
    const get = await fetch(`${s.url}/search`, { headers: { authorization: `Bearer ${KEY}` } });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    await get.text();
  });

  it("refuses a 12 MB body with 413 without reading it whole, and keeps serving", async () => {
    const s = await serve();
    const big = Buffer.alloc(12_000_000, "x");
    const declared = await s.post("/search", big.toString("latin1"));
    expect([declared.status, declared.json["error_code"]]).toEqual([413, "body_too_large"]);
    // Streamed without a length: refused once it passes the limit.
    const chunks = Array.from({ length: 12 }, () => Buffer.alloc(1_000_000, "y"));
    const streamed = await raw(`${s.url}/search`, {
      headers: { authorization: `Bearer ${KEY}`, "transfer-encoding": "chunked" },
      parts: chunks,
    });
    expect(streamed.status).toBe(413);
    expect((await s.post("/search", search)).status).toBe(200);
    // A body just under the limit is read and judged on its content.
    const padded = JSON.stringify({ ...search, query: `${QUERY} ${"x".repeat(9_000)}` });
    expect((await s.post("/search", padded)).status).toBe(200);
  });

  it("answers 400 for malformed JSON, invalid UTF-8 and JSON nested too deep", async () => {
    const s = await serve();
    expect((await s.post("/search", '{"query": "a", ')).json["error_code"]).toBe("malformed_json");
    expect((await s.post("/search", "")).json["error_code"]).toBe("malformed_json");
    const invalidUtf8 = await raw(`${s.url}/search`, {
      headers: { authorization: `Bearer ${KEY}` },
      parts: [Buffer.from([0x7b, 0xff, 0x7d])],
    });
    expect(JSON.parse(invalidUtf8.body).error_code).toBe("malformed_json");
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const nested = await s.post("/tools/execute?tool_id=materials.current", `{"parameters": {"a": ${deep}}}`);
    expect([nested.status, nested.json["error_code"]]).toEqual([400, "too_deep"]);
  });

  it("sends fabench's version and the catalog's sha256 as revision headers, on refusals too", async () => {
    const s = await serve();
    for (const answer of [
      await s.post("/search", search),
      await s.post("/nope", {}),
      await s.post("/search", {}, { key: null }),
    ]) {
      expect(answer.headers.get("x-qveris-api-version")).toBe(`fabench-${toolVersion()}`);
      expect(answer.headers.get("x-qveris-catalog-version")).toBe(world.catalog.sha256);
    }
  });

  it("logs one line per request: method, path without its query, status, milliseconds, a refusal's code", async () => {
    const s = await serve();
    await s.post("/search", search);
    await s.post("/tools/execute?tool_id=materials.current&secret=1", {
      parameters: {},
      session_id: "nobody",
    });
    await s.post("/search", search, { key: null });
    expect(s.logs).toHaveLength(3);
    expect(s.logs[0]).toMatch(/^POST \/api\/v1\/search 200 \d+\.\dms$/);
    expect(s.logs[1]).toMatch(/^POST \/api\/v1\/tools\/execute 409 \d+\.\dms unknown_session$/);
    expect(s.logs[2]).toMatch(/^POST \/api\/v1\/search 401 \d+\.\dms unauthorized$/);
    expect(s.logs.join("\n")).not.toContain(QUERY.slice(0, 20));
  });

  it("answers 503 when the handler runs past the time limit, and 408 when the body stalls", async () => {
    const { world: slow, release } = slowWorld();
    const s = await serve({ world: slow, limits: { requestTimeoutMs: 150 } });
    const late = await s.post("/search", search);
    expect([late.status, late.json["error_code"]]).toEqual([503, "handler_timeout"]);
    release();
    const stalled = await raw(`${s.url}/search`, {
      headers: { authorization: `Bearer ${KEY}`, "content-length": "100" },
      parts: [Buffer.from('{"query": ')],
    });
    expect([stalled.status, JSON.parse(stalled.body).error_code]).toEqual([408, "request_timeout"]);
  });

  it("shuts down gracefully: a request in flight finishes, new connections are refused", async () => {
    const { world: slow, release } = slowWorld();
    const s = await serve({ world: slow });
    const inFlight = s.post("/search", search);
    while (s.server.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const closed = s.server.close();
    let done = false;
    void closed.then(() => {
      done = true;
    });
    await expect(fetch(`${s.url}/search`, { method: "POST" })).rejects.toThrow();
    expect(done).toBe(false);
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect((answer.json["results"] as unknown[]).length).toBe(3);
    await closed;
    expect(s.server.inFlight()).toBe(0);
  });

  it("answers the three endpoints with a context whose sessions are its own", async () => {
    const { context } = testContext();
    const s = await serve({ context });
    const found = await s.post("/search", search);
    expect(found.status).toBe(200);
    expect(context.sessions.size).toBe(1);
    const inspected = await s.post("/tools/by-ids", { tool_ids: ["materials.current"], session_id: "s1" });
    expect(inspected.status).toBe(200);
  });
});
