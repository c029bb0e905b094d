/** The judging order: a seeded shuffle of every episode, the same for the same episodes and seed. */
import { describe, expect, it } from "vitest";
import { episodeKey } from "../../src/core/index.ts";
import { inJudgeOrder, judgeOrder } from "../../src/judge/order.ts";
import { bundledProtocol } from "../helpers/protocol.ts";

const protocol = bundledProtocol();
const CONDITIONS = protocol.conditions.map((c) => c.id);
const SEED = protocol.statistics.seed;

/** 12 tasks × 2 sizes × every condition × 2 trials, in run-file (condition-grouped) order. */
const items = Array.from({ length: 12 }, (_, t) => `task-${String(t).padStart(2, "0")}`).flatMap((task) =>
  [100, 250].flatMap((size) =>
    CONDITIONS.flatMap((condition) =>
      [1, 2].map((trial) => ({ key: { semantic_task_id: task, catalog_size: size, condition, trial } })),
    ),
  ),
);
const keys = (list: typeof items) => list.map((i) => episodeKey(i.key));

describe("judgeOrder", () => {
  it("is a permutation, deterministic for a seed, and independent of the input order", () => {
    const once = judgeOrder(items, SEED);
    expect([...keys(once)].sort()).toEqual([...keys(items)].sort());
    expect(keys(judgeOrder(items, SEED))).toEqual(keys(once));
    expect(keys(judgeOrder([...items].reverse(), SEED))).toEqual(keys(once));
    expect(keys(judgeOrder(items, SEED + 1))).not.toEqual(keys(once));
    expect(items.length).toBe(12 * 2 * CONDITIONS.length * 2);
  });

  it("does not group episodes by condition", () => {
    const order = judgeOrder(items, SEED).map((i) => i.key.condition);
    // Every window of 2 × the number of conditions holds at least 3 different conditions.
    const width = 2 * CONDITIONS.length;
    for (let start = 0; start + width <= order.length; start += width)
      expect(new Set(order.slice(start, start + width)).size).toBeGreaterThanOrEqual(3);
    // Consecutive episodes share a condition about as often as chance says (1 in 5), not always.
    const same = order.slice(1).filter((c, i) => c === order[i]).length;
    expect(same / (order.length - 1)).toBeLessThan(0.4);
  });

  it("handles nothing and one episode", () => {
    expect(judgeOrder([], SEED)).toEqual([]);
    expect(judgeOrder(items.slice(0, 1), SEED)).toEqual(items.slice(0, 1));
  });
});

describe("inJudgeOrder", () => {
  const key = (trial: number) => ({ semantic_task_id: "t", catalog_size: 100, condition: "FULL", trial });
  const order = [3, 1, 2].map((trial) => ({ key: key(trial) }));
  const line = (trial: number) => ({ episode: key(trial), text: `line ${trial}` });

  it("lays finished lines down in the judge's order, whatever order they were written in", () => {
    expect(inJudgeOrder([line(1), line(2), line(3)], order)?.map((l) => l.text)).toEqual([
      "line 3",
      "line 1",
      "line 2",
    ]);
  });

  it("refuses a file that is not exactly one line per episode", () => {
    expect(inJudgeOrder([line(1), line(2)], order)).toBeNull();
    expect(inJudgeOrder([line(1), line(2), line(3), line(3)], order)).toBeNull();
    expect(inJudgeOrder([line(1), line(2), line(4)], order)).toBeNull();
  });
});
