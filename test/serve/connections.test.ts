/**
 * `fabench serve` under a slowloris, on loopback with small limits: connections that never finish
 * their headers cannot lock honest requests out (the oldest waiting one is closed for a newcomer,
 * per server and per client), a request in flight is never the one closed, and the header timeout
 * is checked often enough to cut a slow connection. Nothing asserts how fast anything happens.
 */
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Router } from "../../src/conditions/routing/index.ts";
import { createWorld, type World } from "../../src/serve/index.ts";
import { KEY, startTestServer, type TestServer, testContext, testWorld } from "./helpers.ts";

const world = testWorld();
const QUERY = [...world.taskByQuery.values()][0]?.query ?? "";
const search = { query: QUERY, limit: 3, session_id: "s1", view: "routing" };

let running: TestServer[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  for (const s of running) s.server.forceClose();
  await Promise.all(running.map((s) => s.server.close()));
  running = [];
});

async function serve(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const server = await startTestServer(...args);
  running.push(server);
  return server;
}

interface Slow {
  readonly socket: Socket;
  /** Resolves when the server closed the connection. */
  readonly closed: Promise<void>;
}

/** A connection that sends the start of a request's headers and then nothing more. */
function slowSocket(port: number): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => undefined);
    // Read what the server sends (its 408), or the end of the stream is never seen.
    socket.resume();
    socket.once("connect", () => {
      socket.write("POST /api/v1/search HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ", () =>
        resolve({ socket, closed }),
      );
    });
    socket.once("error", reject);
  });
}

/** Waits until the server has seen (accepted or evicted) `count` connections. */
async function seen(s: TestServer, count: number): Promise<void> {
  for (;;) {
    const { open, evicted } = s.server.connections();
    if (open + evicted >= count) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A search from the local address `from` (Linux routes all of 127/8 to loopback); its status. */
function searchFrom(s: TestServer, from: string, sessionId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.url}/search`,
      { method: "POST", localAddress: from, agent: false, headers: { authorization: `Bearer ${KEY}` } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ ...search, session_id: sessionId }));
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

describe("fabench serve's connection caps", () => {
  it("answers a valid request while more slow-header connections are open than the cap", async () => {
    const s = await serve({ limits: { headersTimeoutMs: 60_000, maxConnections: 20 } });
    const slow = await Promise.all(Array.from({ length: 25 }, () => slowSocket(s.server.port)));
    await seen(s, 25);
    expect(s.server.connections()).toEqual({ open: 20, evicted: 5 });
    const answer = await s.post("/search", search);
    expect(answer.status).toBe(200);
    // The newcomer closed one more slow connection; the slow ones closed are the oldest.
    expect(s.server.connections().evicted).toBe(6);
    await Promise.all(slow.slice(0, 6).map((c) => c.closed));
    expect(slow.slice(6).every((c) => !c.socket.destroyed)).toBe(true);
  });

  it("caps one client's connections by closing that client's oldest waiting one", async () => {
    const s = await serve({
      limits: { headersTimeoutMs: 60_000, maxConnections: 100, maxConnectionsPerClient: 10 },
    });
    await Promise.all(Array.from({ length: 15 }, () => slowSocket(s.server.port)));
    await seen(s, 15);
    expect(s.server.connections()).toEqual({ open: 10, evicted: 5 });
    expect((await s.post("/search", search)).status).toBe(200);
  });

  it("never closes a connection whose request is in flight to make room", async () => {
    const { world: gated, release } = slowWorld();
    const s = await serve({ world: gated, limits: { headersTimeoutMs: 60_000, maxConnections: 3 } });
    const inFlight = s.post("/search", search);
    while (s.server.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    await Promise.all(Array.from({ length: 5 }, () => slowSocket(s.server.port)));
    await seen(s, 6);
    expect(s.server.connections()).toEqual({ open: 3, evicted: 3 });
    release();
    expect((await inFlight).status).toBe(200);
  });

  it("cuts a connection that does not finish its headers within the header timeout", async () => {
    const s = await serve({
      limits: { headersTimeoutMs: 300, connectionsCheckIntervalMs: 100, maxConnections: 20 },
    });
    const slow = await Promise.all(Array.from({ length: 25 }, () => slowSocket(s.server.port)));
    // One that sends nothing at all: Node's own header timeout never starts for it.
    const silent = connect(s.server.port, "127.0.0.1").resume();
    sockets.push(silent);
    const silentClosed = new Promise((done) => silent.once("close", done));
    // Closed by the server (no test-side timeout: the test runner's own limit is the only bound).
    await Promise.all([...slow.map((c) => c.closed), silentClosed]);
    expect(s.server.connections().open).toBe(0);
    expect((await s.post("/search", search)).status).toBe(200);
  });

  it("keeps one address's sessions while another address opens many (where 127.0.0.2 is loopback)", async (test) => {
    const { context } = testContext(world, {
      sessions: { ttlMs: 60_000, maxSessions: 10, maxSessionsPerClient: 10 },
    });
    const s = await serve({ context });
    for (const id of ["a1", "a2"]) expect(await searchFrom(s, "127.0.0.1", id)).toBe(200);
    const other = await searchFrom(s, "127.0.0.2", "b0").catch((e: NodeJS.ErrnoException) => e.code);
    if (other === "EADDRNOTAVAIL") return test.skip();
    for (let i = 1; i < 30; i++) expect(await searchFrom(s, "127.0.0.2", `b${i}`)).toBe(200);
    expect([context.sessions.size, context.sessions.sizeOf("127.0.0.1")]).toEqual([10, 2]);
    expect(context.sessions.get("a1")).toBeDefined();
  });

  it("cuts a kept-alive connection whose next request's headers stall (Node's check, run often)", async () => {
    const s = await serve({
      limits: { headersTimeoutMs: 300, connectionsCheckIntervalMs: 100, keepAliveTimeoutMs: 60_000 },
    });
    const socket = connect(s.server.port, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => undefined);
    const closed = new Promise((done) => socket.once("close", done));
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      // The first answer is in: start the next request and stall in its headers.
      if (received.includes("\r\n\r\n") && received.includes('"search_id"') && !received.includes("x-slow"))
        socket.write(
          "POST /api/v1/search HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ",
          () => (received += "x-slow"),
        );
    });
    const body = JSON.stringify(search);
    socket.write(
      `POST /api/v1/search HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain("HTTP/1.1 408 Request Timeout");
  });
});
