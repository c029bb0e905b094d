/**
 * The written-out body checks (quick*Body) against the zod schemas they stand in front of: on
 * random bodies near the schemas' edges, every body a quick check accepts is one the schema
 * accepts, with the same values in every field a handler reads; and the bodies real clients send
 * are accepted by the quick checks (else they would save nothing).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  executeBodySchema,
  inspectBodySchema,
  quickExecuteBody,
  quickInspectBody,
  quickSearchBody,
  searchBodySchema,
} from "../../src/serve/schemas.ts";

const id = fc.oneof(
  fc.constantFrom("s1", "bench-3-7", "x".repeat(256), "x".repeat(257), "", "a\u0000b", "a\u200bb", "ü-ß"),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(null, 7, undefined, ["s"]),
);
const absent = Symbol("absent");
/** A body from field → arbitrary; a field drawn as `absent` is left out, and sometimes an unknown key is added. */
function body(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const entries = Object.entries(fields).map(
    ([k, a]) =>
      [k, fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constant(absent) })] as const,
  );
  return fc
    .tuple(fc.tuple(...entries.map(([, a]) => a)), fc.constantFrom(null, "tool_id", "__proto__", "extra"))
    .map(([values, extra]) => {
      const out: Record<string, unknown> = {};
      entries.forEach(([k], i) => {
        if (values[i] !== absent) out[k] = values[i];
      });
      // Through JSON, as the shell hands bodies over (so `__proto__` is an own key, as from a client).
      const text = JSON.stringify(out);
      return extra === null || (extra === "extra" && text.length % 3 !== 0)
        ? (JSON.parse(text) as unknown)
        : (JSON.parse(`${text.slice(0, -1)}${text === "{}" ? "" : ","}"${extra}":1}`) as unknown);
    });
}

const params = fc.oneof(
  fc.constantFrom({}, { material_id: "MAT-7" }, { a: [1, { b: null }], c: -0 }, [], null, "x"),
  fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor", "1"), fc.jsonValue(), { maxKeys: 3 }),
);

function agrees<T>(
  quick: (raw: unknown) => T | undefined,
  schema: { safeParse: (raw: unknown) => { success: boolean; data?: unknown } },
  fields: readonly string[],
  raw: unknown,
): boolean {
  const fast = quick(raw);
  if (fast === undefined) return false;
  const slow = schema.safeParse(raw);
  expect(slow.success).toBe(true);
  const pick = (value: unknown) =>
    Object.fromEntries(fields.map((f) => [f, (value as Record<string, unknown>)[f]]));
  expect(pick(fast)).toEqual(pick(slow.data));
  return true;
}

describe("the quick body checks", () => {
  it("accept only search bodies the schema accepts, with the same query, limit and session", () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        body({
          query: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(" ", "\t\n", "q".repeat(10_001), 3)),
          limit: fc.oneof(fc.integer({ min: -2, max: 103 }), fc.constantFrom(1.5, 2 ** 53, "10", null)),
          session_id: id,
          view: fc.constantFrom("routing", "lean", null),
        }),
        (raw) => {
          if (agrees(quickSearchBody, searchBodySchema, ["query", "limit", "session_id", "view"], raw))
            accepted++;
        },
      ),
      { seed: 35, numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(10);
  });

  it("accept only inspect bodies the schema accepts, with the same ids", () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        body({
          tool_ids: fc.oneof(
            fc.array(id, { maxLength: 3 }),
            fc.constant(Array.from({ length: 101 }, () => "t")),
          ),
          search_id: id,
          session_id: id,
          view: fc.constantFrom("lean", "routing", null),
        }),
        (raw) => {
          if (agrees(quickInspectBody, inspectBodySchema, ["tool_ids", "search_id", "session_id"], raw))
            accepted++;
        },
      ),
      { seed: 35, numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(5);
  });

  it("accept only execute bodies the schema accepts, with the same parameters, never one with a __proto__ key", () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        body({
          parameters: params,
          search_id: id,
          session_id: id,
          model: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("m".repeat(257), 3)),
          respond_with: fc.constantFrom("full", "lean", null),
        }),
        (raw) => {
          if (agrees(quickExecuteBody, executeBodySchema, ["parameters", "search_id", "session_id"], raw))
            accepted++;
        },
      ),
      { seed: 35, numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(5);
    expect(
      quickExecuteBody(JSON.parse('{"parameters":{"__proto__":{"a":1}},"session_id":"s"}')),
    ).toBeUndefined();
  });

  it("accept the bodies the bench and the reference harness send", () => {
    expect(
      quickSearchBody({ query: "density of steel", limit: 10, session_id: "s", view: "routing" }),
    ).toEqual({
      query: "density of steel",
      limit: 10,
      session_id: "s",
      view: "routing",
    });
    expect(quickSearchBody({ query: "density", session_id: "s" })).toEqual({
      query: "density",
      limit: 10,
      session_id: "s",
    });
    expect(
      quickInspectBody({ tool_ids: ["a.b"], search_id: null, session_id: "s", view: "lean" }),
    ).toBeDefined();
    expect(
      quickExecuteBody({
        parameters: { id: 1 },
        search_id: "x",
        session_id: "s",
        model: "m",
        respond_with: "full",
      }),
    ).toBeDefined();
  });
});
