import { describe, expect, it } from "vitest";
import {
  Budget,
  classify,
  parseTextToolCalls,
  RateLimiter,
  retryAfter,
  toAnthropicMessages,
  withRetries,
  type Timing,
} from "../../src/providers/index.ts";
import { FabenchError } from "../../src/core/index.ts";

/** A clock that only moves when someone sleeps. */
function fakeTiming(): Timing & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)), random: () => 1 };
}

const httpError = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${status}`), { status, headers: new Headers(headers) });

describe("provider failures", () => {
  it.each([
    [429, "provider_rate_limited", true],
    [529, "provider_overloaded", true],
    [500, "provider_server_error", true],
    [503, "provider_server_error", true],
    [400, "provider_bad_request", false],
    [401, "provider_auth_error", false],
    [404, "provider_not_found", false],
  ])("classifies HTTP %i as %s (retryable: %s)", (status, code, retryable) => {
    expect(classify(httpError(status))).toMatchObject({ code, retryable, status });
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfter(new Headers({ "retry-after": "7" }))).toBe(7000);
    expect(retryAfter(new Headers({ "retry-after": new Date(61_000).toUTCString() }), () => 1000)).toBe(
      60_000,
    );
    expect(retryAfter(new Headers({}))).toBeNull();
  });

  it("retries with exponential backoff, honours Retry-After, and ends in a coded error without the body", async () => {
    const timing = fakeTiming();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(calls === 2 ? httpError(429, { "retry-after": "3" }) : httpError(500));
    };
    const error = await withRetries(
      failing,
      { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 },
      timing,
      "fake",
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FabenchError);
    expect((error as FabenchError).code).toBe("provider_server_error");
    expect((error as FabenchError).message).toBe("fake: HTTP 500 after 4 attempt(s)");
    expect(timing.slept).toEqual([100, 3000, 400]);
  });

  it("does not retry a request the provider refuses outright", async () => {
    const timing = fakeTiming();
    let calls = 0;
    await withRetries(
      () => ((calls += 1), Promise.reject(httpError(401))),
      { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 1 },
      timing,
      "fake",
    ).catch(() => undefined);
    expect(calls).toBe(1);
  });
});

describe("the rate limiter", () => {
  it("keeps to requests per minute and tokens per minute", async () => {
    const timing = fakeTiming();
    const limiter = new RateLimiter(2, 1000, timing);
    await limiter.acquire(100);
    await limiter.acquire(100);
    await limiter.acquire(100); // third request in the minute waits
    expect(timing.now()).toBe(60_000);
    await limiter.acquire(900); // 100 + 900 within the new window is allowed...
    await limiter.acquire(50); // ...but not 50 more, nor a third request
    expect(timing.now()).toBeGreaterThanOrEqual(120_000);
  });
});

describe("the budget", () => {
  const price = { input: 2, cached_input: 0.5, output: 8 };
  it("refuses a request whose worst case would pass the cap, and counts what was spent", () => {
    const budget = new Budget(0.01, price);
    const r = budget.reserve(1000, 500); // worst: 0.002 + 0.004
    budget.settle(
      r,
      { input_tokens: 1000, output_tokens: 100, cache_read_tokens: 0, cache_write_tokens: 0 },
      0,
      0,
    );
    expect(budget.spentUsd).toBeCloseTo(0.0028, 10);
    expect(() => budget.reserve(2000, 1000)).toThrow(/budget|spent/);
  });
});

describe("the text tool protocol", () => {
  it("reads calls, and marks unreadable ones malformed", () => {
    const calls = parseTextToolCalls(
      'I will look.\n<tool_call>{"name": "materials__current", "arguments": {"material_id": "M"}}</tool_call>\n<tool_call>{"name": 3}</tool_call><tool_call>{"name": "x", "arguments": {',
      2,
    );
    expect(calls.map((c) => [c.name, c.malformed ?? null])).toEqual([
      ["materials__current", null],
      ["", "the call has no tool name"],
      ["", "the call is not closed with </tool_call>"],
    ]);
    expect(calls[0]?.arguments).toEqual({ material_id: "M" });
  });
});

describe("anthropic messages", () => {
  it("put tool results in user turns and merge consecutive same-role turns", () => {
    const turns = toAnthropicMessages([
      { role: "user", content: "q" },
      { role: "assistant", content: "", tool_calls: [{ id: "t1", name: "a__b", arguments: { x: 1 } }] },
      { role: "tool", tool_call_id: "t1", name: "a__b", content: "{}" },
      { role: "assistant", content: "answer", tool_calls: [] },
      { role: "user", content: "TASK_INCOMPLETE" },
    ]);
    expect(turns.map((t) => [t.role, t.content.map((b) => b["type"])])).toEqual([
      ["user", ["text"]],
      ["assistant", ["tool_use"]],
      ["user", ["tool_result"]],
      ["assistant", ["text"]],
      ["user", ["text"]],
    ]);
  });
});
