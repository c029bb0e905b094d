/** The forest plot: nice axis labels, and arrowheads where an interval leaves the plot. */
import { describe, expect, it } from "vitest";
import { forestPlot, type ForestRow } from "../../src/report/svg.ts";

const row = (over: Partial<ForestRow> = {}): ForestRow => ({
  label: "SR-5 · required_fact_recall",
  point: -0.004,
  low: -0.0081,
  high: 0.0025,
  margin: -0.02,
  passSide: "above",
  ...over,
});

const labels = (svg: string) =>
  [...svg.matchAll(/<text [^>]*font-size="11">([^<]*)<\/text>/g)].map((m) => m[1]);
const arrows = (svg: string) => [...svg.matchAll(/<path d="M[^"]*Z" fill="([^"]*)" \/>/g)].map((m) => m[1]);

describe("forestPlot", () => {
  it("labels the axis with nice ticks that include 0, each with the step's decimals", () => {
    const plot = forestPlot([row()], "t");
    // Values within ±0.05 widen to ±0.05; six intervals of 0.02 cover it.
    expect(labels(plot.svg)).toEqual(["-0.06", "-0.04", "-0.02", "0.00", "0.02", "0.04", "0.06"]);
    expect(plot).toMatchObject({ unbounded: false, clipped: false });
    expect(arrows(plot.svg)).toEqual([]);
  });

  it("draws an unbounded calibrated interval to the edge, ending in an arrowhead, not dashed", () => {
    const left = forestPlot([row({ alt: { low: null, high: 0.008 } })], "t");
    expect(left).toMatchObject({ unbounded: true, clipped: false });
    expect(arrows(left.svg)).toEqual(["#999"]);
    expect(left.svg).not.toContain('stroke="#999" stroke-width="1.5" stroke-dasharray');
    // The arrow's tip is on the plot's left edge (x = 300).
    expect(left.svg).toMatch(/<path d="M300 /);
    const both = forestPlot([row({ alt: { low: null, high: null } })], "t");
    expect(arrows(both.svg)).toEqual(["#999", "#999"]);
    expect(both.svg).toMatch(/<path d="M680 /); // and on the right edge (720 − 40)
  });

  it("draws no calibrated interval when the row has no estimate", () => {
    const plot = forestPlot(
      [row({ point: null, low: null, high: null, alt: { low: null, high: null } })],
      "t",
    );
    expect(plot).toMatchObject({ unbounded: false, clipped: false });
    expect(plot.svg).not.toContain("<circle");
  });

  it("ends an interval that reaches beyond a given domain in an arrowhead at that edge", () => {
    const plot = forestPlot(
      [
        row({ point: -0.01, low: -0.3, high: 0.01 }),
        row({ label: "off the right", point: 0.2, low: 0.15, high: 0.3, margin: 0.01, passSide: "below" }),
      ],
      "t",
      { domain: [-0.1, 0.1] },
    );
    expect(plot).toMatchObject({ unbounded: false, clipped: true });
    expect(arrows(plot.svg)).toEqual(["#246", "#246"]);
    // The second row's estimate lies beyond the range: a ring on the right edge, its value in the tooltip.
    expect(plot.svg).toContain('<circle cx="680" cy="63" r="4" fill="#fff"');
    expect(plot.svg).toContain("off the right: 0.2000 [0.1500, 0.3000]");
    expect(labels(plot.svg)).toEqual(["-0.10", "-0.05", "0.00", "0.05", "0.10"]);
    expect(() => forestPlot([row()], "t", { domain: [0.1, 0.1] })).toThrow(RangeError);
  });

  it("is the same string for the same rows", () => {
    const rows = [row(), row({ alt: { low: null, high: 0.01 } })];
    expect(forestPlot(rows, "t").svg).toBe(forestPlot(rows, "t").svg);
  });
});
