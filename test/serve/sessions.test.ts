/** Sessions stay bounded: idle ones expire by the injected clock, and the least recently used go first. */
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../src/serve/index.ts";

function store(ttlMs: number, maxSessions: number) {
  const clock = { now: 0 };
  return { sessions: new SessionStore<{ n: number }>({ ttlMs, maxSessions }, () => clock.now), clock };
}

describe("SessionStore", () => {
  it("returns the same session for the same id while it is used", () => {
    const { sessions, clock } = store(1_000, 10);
    const a = sessions.getOrCreate("a", () => ({ n: 1 }));
    clock.now = 999;
    expect(sessions.getOrCreate("a", () => ({ n: 2 }))).toBe(a);
    clock.now = 1_998;
    expect(sessions.get("a")).toBe(a);
  });

  it("expires a session idle for its time to live", () => {
    const { sessions, clock } = store(1_000, 10);
    sessions.getOrCreate("a", () => ({ n: 1 }));
    clock.now = 1_000;
    expect(sessions.get("a")).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it("never holds more than its maximum: a new session drops the least recently used", () => {
    const { sessions, clock } = store(60_000, 3);
    for (const id of ["a", "b", "c"]) {
      clock.now += 1;
      sessions.getOrCreate(id, () => ({ n: 0 }));
    }
    sessions.get("a"); // now b is the least recently used
    sessions.getOrCreate("d", () => ({ n: 0 }));
    expect([sessions.size, sessions.evicted]).toEqual([3, 1]);
    expect(sessions.get("b")).toBeUndefined();
    expect(sessions.get("a")).toBeDefined();
  });

  it("stays at its maximum under a long stream of new sessions", () => {
    const { sessions, clock } = store(60_000, 100);
    for (let i = 0; i < 10_000; i++) {
      clock.now += 1;
      sessions.getOrCreate(`s${i}`, () => ({ n: i }));
    }
    expect(sessions.size).toBe(100);
    expect(sessions.get("s9999")?.n).toBe(9999);
  });
});
