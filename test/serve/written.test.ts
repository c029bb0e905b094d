/**
 * What serve writes once instead of per request (#35): the texts a search or inspect answer is put
 * together from equal `JSON.stringify` of the answer's own body, for every route of the catalog and
 * every task's query; the query memo keeps its bound, drops the least recently used first and never
 * lets a short query's key equal a long one's.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/index.ts";
import { handleInspect, handleSearch } from "../../src/serve/index.ts";
import { QueryMemo, queryKey } from "../../src/serve/memo.ts";
import { testContext, testWorld } from "./helpers.ts";

const world = testWorld();

describe("answers put together from written texts", () => {
  it("equal JSON.stringify of their body for every task's query at limits 1, 10 and 100", async () => {
    const { context } = testContext(world);
    let checked = 0;
    for (const [n, task] of [...world.taskByQuery.values()].entries())
      for (const limit of [1, 10, 100]) {
        const reply = await handleSearch({ query: task.query, limit, session_id: `s${n}-${limit}` }, context);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe(JSON.stringify(reply.body));
        checked += 1;
      }
    expect(checked).toBe(world.taskByQuery.size * 3);
  });

  it("equal JSON.stringify of their body for every route inspected, alone and with repeats", () => {
    const { context } = testContext(world);
    const ids = [...world.tools.keys()];
    expect(ids).toHaveLength(100);
    for (const id of ids) {
      const reply = handleInspect({ tool_ids: [id, id], session_id: "s" }, context);
      expect(reply.text).toBe(JSON.stringify(reply.body));
      expect(reply.body).toEqual({ results: [world.tools.get(id)] });
    }
    const all = handleInspect({ tool_ids: ids, session_id: "s" }, context);
    expect(all.text).toBe(JSON.stringify({ results: ids.map((id) => world.tools.get(id)) }));
  });

  it("are not written for refusals: the shell serialises those as before", async () => {
    const { context } = testContext(world);
    const reply = await handleSearch({ query: " ", session_id: "s" }, context);
    expect(reply.status).toBe(400);
    expect(reply.text).toBeUndefined();
  });
});

describe("QueryMemo", () => {
  it("keeps at most its bound, dropping the least recently used first", () => {
    const memo = new QueryMemo<number>(2);
    memo.set("a", 1);
    memo.set("b", 2);
    expect(memo.get("a")).toBe(1); // a is now the most recently used
    memo.set("c", 3);
    expect(memo.size).toBe(2);
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toBe(1);
    expect(memo.get("c")).toBe(3);
  });

  it("forgets a key only while it holds the value given", () => {
    const memo = new QueryMemo<string>(4);
    memo.set("k", "first");
    memo.set("k", "second");
    memo.forget("k", "first");
    expect(memo.get("k")).toBe("second");
    memo.forget("k", "second");
    expect(memo.get("k")).toBeUndefined();
  });

  it("keys a short query by itself and a long one by its sha256, never the same key", () => {
    const long = "x".repeat(1_025);
    expect(queryKey("density of steel")).toBe("qdensity of steel");
    expect(queryKey("x".repeat(1_024))).toBe(`q${"x".repeat(1_024)}`);
    expect(queryKey(long)).toBe(`h${sha256Hex(long)}`);
    // A short query spelling a long one's key gets another key (its own, prefixed).
    expect(queryKey(`h${sha256Hex(long)}`)).not.toBe(queryKey(long));
  });
});
