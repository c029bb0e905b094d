/**
 * Issue #33: a Discover → Call API answer nested 100,000 deep is refused unparsed
 * (`invalid_response`), not written into records and prompts by code that recurses.
 */
import { describe, expect, it } from "vitest";
import { createDiscoverCallApi } from "../../src/discover-call/api.ts";

const DEEP = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`;

describe("a Discover → Call API answer nested 100,000 deep", () => {
  it("is invalid_response", async () => {
    const fakeFetch = (async () =>
      new Response(`{"status":"success","search_id":"s","results":${DEEP}}`, {
        status: 200,
        headers: { "content-type": "application/json" },
      })) as typeof fetch;
    const api = createDiscoverCallApi({
      baseUrl: "http://127.0.0.1:9/api/v1",
      apiKey: "qv-DISTINCTIVE-key-4f9c21e7b0",
      fetch: fakeFetch,
      sleep: async () => undefined,
      now: () => 0,
    });
    const found = await api.discover({ query: "weather", limit: 5, sessionId: "s-1" });
    expect(found).toMatchObject({ ok: false, failure: { reason_code: "invalid_response" } });
  });
});
