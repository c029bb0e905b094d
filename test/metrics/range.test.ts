import { describe, expect, it } from "vitest";
import { formatInterval, intervalNotes, shownInterval } from "../../src/metrics/index.ts";
import { feasibleRange } from "../../src/metrics/range.ts";

const f4 = (x: number) => x.toFixed(4);

describe("intervals within what a metric can be", () => {
  it("knows shares lie in [0, 1] and their deltas in [−1, 1]; counts are unbounded above", () => {
    expect(feasibleRange("required_fact_recall", "level")).toEqual([0, 1]);
    expect(feasibleRange("required_fact_recall", "delta")).toEqual([-1, 1]);
    expect(feasibleRange("input_tokens", "level")).toEqual([0, Infinity]);
    expect(feasibleRange("contradiction_count", "delta")).toEqual([-Infinity, Infinity]);
  });

  it("clips a bootstrap-t bound of −1.0081 to −1 and shows +∞ of a share delta at +1, each marked", () => {
    const shown = shownInterval("required_fact_recall", "delta", [-1.0081, null]);
    expect(shown.low).toEqual({ value: -1, note: "clipped" });
    expect(shown.high).toEqual({ value: 1, note: "unbounded" });
    expect(formatInterval(shown, f4)).toBe("[-1.0000*, 1.0000†]");
    const notes = intervalNotes([shown]);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^\* clipped/);
    expect(notes[1]).toMatch(/^† unbounded/);
  });

  it("keeps an unbounded side of an unbounded metric as ∞, and leaves bounds inside the range alone", () => {
    const tokens = shownInterval("input_tokens", "delta", [null, -400]);
    expect(formatInterval(tokens, (x) => x.toFixed(0))).toBe("[−∞†, -400]");
    const inside = shownInterval("unit_accuracy", "delta", [-0.2, 0.05]);
    expect(formatInterval(inside, f4)).toBe("[-0.2000, 0.0500]");
    expect(intervalNotes([inside])).toEqual([]);
  });

  it("explains a zero-width interval as agreement of every task, not exactness", () => {
    const zero = shownInterval("unsupported_fact_rate", "delta", [0, 0]);
    expect(zero.zeroWidth).toBe(true);
    expect(intervalNotes([zero]).join("\n")).toMatch(/every task of every stratum gave the same value/);
    expect(shownInterval("unsupported_fact_rate", "delta", [null, null]).zeroWidth).toBe(false);
  });
});
