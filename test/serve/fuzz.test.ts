/**
 * Issue #18's acceptance check: 1,000 malformed requests — fuzzed bodies, wrong types, unknown tool
 * ids, huge limits, stray paths — each get a 4xx answer, and the server keeps serving. The requests
 * come from a fixed seed, so a failure replays exactly.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapConcurrent } from "../../src/core/index.ts";
import { KEY, startTestServer, type TestServer, testWorld } from "./helpers.ts";

const QUERY = [...testWorld().taskByQuery.values()][0]?.query ?? "";
const PATHS = ["/search", "/tools/by-ids", "/tools/execute?tool_id=materials.current"] as const;

interface Fuzzed {
  readonly path: string;
  readonly body: string;
}

const json = (path: string) => (value: unknown) => ({ path, body: JSON.stringify(value) });
const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
);

const fuzzed: fc.Arbitrary<Fuzzed> = fc.oneof(
  // Any JSON value, or any bytes, to any endpoint.
  fc.tuple(fc.constantFrom(...PATHS), fc.jsonValue()).map(([path, value]) => json(path)(value)),
  fc
    .tuple(fc.constantFrom(...PATHS), fc.uint8Array({ maxLength: 200 }))
    .map(([path, bytes]) => ({ path, body: Buffer.from(bytes).toString("latin1") })),
  // Search: a huge, negative or fractional limit, or a field of the wrong type.
  fc
    .oneof(
      fc.integer({ min: 101 }),
      fc.integer({ max: 0 }),
      fc.double({ min: 1.01, max: 99.9, noInteger: true }),
    )
    .map((limit) => json("/search")({ query: QUERY, limit, session_id: "s" })),
  fc
    .tuple(fc.constantFrom("query", "limit", "session_id", "view"), wrongValue)
    .filter(
      ([field, value]) =>
        field !== "limit" ||
        !(typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 100),
    )
    .map(([field, value]) => json("/search")({ query: QUERY, limit: 5, session_id: "s", [field]: value })),
  // Inspect: unknown tool ids, or a list that is not one.
  fc
    .array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 })
    .map((ids) => json("/tools/by-ids")({ tool_ids: ids.map((id) => `zz.${id}`), session_id: "s" })),
  wrongValue.map((ids) => json("/tools/by-ids")({ tool_ids: ids, session_id: "s" })),
  // Execute: an unknown tool id, parameters of the wrong type, a session that never discovered.
  fc.string({ minLength: 1 }).map((id) => ({
    path: `/tools/execute?tool_id=${encodeURIComponent(`zz.${id}`)}`,
    body: '{"parameters": {}, "session_id": "s"}',
  })),
  wrongValue.map((p) =>
    json(PATHS[2])({
      parameters: Array.isArray(p) || p === null || typeof p !== "object" ? p : [p],
      session_id: "s",
    }),
  ),
  fc
    .dictionary(fc.string(), fc.jsonValue())
    .map((p) => json(PATHS[2])({ parameters: p, session_id: "never-discovered" })),
  // Stray paths.
  fc.webPath().map((path) => ({ path: `/x${path}`, body: "{}" })),
);

describe("1,000 malformed requests (#18 acceptance)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.server.close();
  });

  it("each get a 4xx answer with an error code, and the server keeps serving", async () => {
    const requests = fc.sample(fuzzed, { seed: 18, numRuns: 1_000 });
    const statuses = await mapConcurrent(requests, 20, async ({ path, body }) => {
      const response = await fetch(`${s.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body,
      });
      const answer = (await response.json()) as { error_code?: unknown };
      return { status: response.status, code: answer.error_code, path, body };
    });
    const not4xx = statuses.filter((r) => r.status < 400 || r.status >= 500);
    expect(not4xx).toEqual([]);
    expect(statuses.filter((r) => typeof r.code !== "string")).toEqual([]);
    const codes = new Set(statuses.map((r) => r.code));
    for (const code of ["malformed_json", "invalid_request", "unknown_tool", "unknown_session", "not_found"])
      expect(codes).toContain(code);
    const after = await fetch(`${s.url}/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: QUERY, limit: 3, session_id: "s" }),
    });
    expect(after.status).toBe(200);
    expect(s.logs).toHaveLength(1_001);
  });
});
