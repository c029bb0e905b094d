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

describe("SessionStore shared between clients", () => {
  function shared(maxSessions: number, maxSessionsPerClient: number) {
    const clock = { now: 0 };
    const sessions = new SessionStore<{ n: number }>(
      { ttlMs: 60_000, maxSessions, maxSessionsPerClient },
      () => clock.now,
    );
    return { sessions, clock };
  }

  it("keeps client A's 2 sessions while client B opens 1,000", () => {
    const { sessions, clock } = shared(100, 100);
    for (const id of ["a1", "a2"]) sessions.getOrCreate(id, () => ({ n: 0 }), "A");
    for (let i = 0; i < 1_000; i++) {
      clock.now += 1;
      sessions.getOrCreate(`b${i}`, () => ({ n: i }), "B");
    }
    expect([sessions.size, sessions.sizeOf("A"), sessions.sizeOf("B")]).toEqual([100, 2, 98]);
    // A's sessions are the least recently used of all, and still there.
    expect(sessions.get("a1")).toBeDefined();
    expect(sessions.get("a2")).toBeDefined();
    expect(sessions.get("b999")?.n).toBe(999);
  });

  it("takes room for a newcomer from the client holding the most, not the least recently used overall", () => {
    const { sessions, clock } = shared(10, 10);
    for (let i = 0; i < 10; i++) {
      clock.now += 1;
      sessions.getOrCreate(`b${i}`, () => ({ n: i }), "B");
    }
    clock.now += 1;
    sessions.getOrCreate("a1", () => ({ n: 0 }), "A");
    expect([sessions.sizeOf("A"), sessions.sizeOf("B"), sessions.evicted]).toEqual([1, 9, 1]);
    expect(sessions.get("b0")).toBeUndefined();
  });

  it("caps one client's sessions: past its cap a client loses its own least recently used", () => {
    const { sessions, clock } = shared(100, 5);
    for (let i = 0; i < 8; i++) {
      clock.now += 1;
      sessions.getOrCreate(`b${i}`, () => ({ n: i }), "B");
    }
    sessions.getOrCreate("a1", () => ({ n: 0 }), "A");
    expect([sessions.size, sessions.sizeOf("B"), sessions.evicted]).toEqual([6, 5, 3]);
    expect(sessions.get("b2")).toBeUndefined();
    expect(sessions.get("b3")).toBeDefined();
  });

  it("expires the sessions of every client by the same clock", () => {
    const { sessions, clock } = shared(100, 100);
    sessions.getOrCreate("a1", () => ({ n: 0 }), "A");
    clock.now = 30_000;
    sessions.getOrCreate("b1", () => ({ n: 0 }), "B");
    clock.now = 60_000;
    expect(sessions.get("a1")).toBeUndefined();
    expect([sessions.sizeOf("A"), sessions.sizeOf("B")]).toEqual([0, 1]);
  });
});
