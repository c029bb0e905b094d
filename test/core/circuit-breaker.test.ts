/** Issue #25 item 1: the circuit breaker counts same-code infrastructure errors in a row. */
import { describe, expect, it } from "vitest";
import { CircuitBreaker, DEFAULT_BREAKER } from "../../src/core/index.ts";

const feed = (limit: number | null, outcomes: Array<string | null>) => {
  const breaker = new CircuitBreaker(limit);
  const trippedAt = outcomes.findIndex((o) => breaker.record(o));
  return { trippedAt, tripped: breaker.tripped };
};

describe("CircuitBreaker", () => {
  it("trips on the limit-th same-code error in a row", () => {
    expect(feed(3, ["a", "a", "a", "a"])).toEqual({ trippedAt: 2, tripped: { code: "a", count: 3 } });
  });

  it("starts the count again on a success or another code", () => {
    expect(feed(3, ["a", "a", null, "a", "a", "b", "b", "a", "a"]).trippedAt).toBe(-1);
    expect(feed(3, ["a", "a", "b", "b", "b"])).toEqual({ trippedAt: 4, tripped: { code: "b", count: 3 } });
  });

  it("stays tripped once tripped", () => {
    const breaker = new CircuitBreaker(2);
    breaker.record("a");
    expect(breaker.record("a")).toBe(true);
    expect(breaker.record(null)).toBe(true);
    expect(breaker.tripped).toEqual({ code: "a", count: 2 });
  });

  it("never trips when off (0 or null)", () => {
    const many = Array.from({ length: 50 }, () => "a");
    expect(feed(0, many).trippedAt).toBe(-1);
    expect(feed(null, many).trippedAt).toBe(-1);
  });

  it("defaults to five, within the issue's three to five", () => {
    expect(DEFAULT_BREAKER).toBe(5);
  });
});
