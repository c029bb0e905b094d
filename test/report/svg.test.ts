/** The forest plot: nice axis labels, and arrowheads where an interval leaves the plot; both plots' phone layout. */
import { describe, expect, it } from "vitest";
import { barChart, forestPlot, type ForestRow } from "../../src/report/svg.ts";

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

/** Every text's font size, in the SVG's own units. */
const fontSizes = (svg: string) =>
  [...svg.matchAll(/<text [^>]*font-size="([0-9.]+)"/g)].map((m) => Number(m[1]));
const viewWidth = (svg: string) => Number(/viewBox="0 0 ([0-9.]+) /.exec(svg)?.[1]);

describe("the narrow (phone) layout", () => {
  const rows = [
    row(),
    row({ label: "SR-PROGRESSIVE · numeric_value_accuracy", alt: { low: null, high: 0.01 } }),
  ];

  it("draws the forest plot's marks on a 340-unit box, each label on its own line above its bars", () => {
    const wide = forestPlot(rows, "t");
    const narrow = forestPlot(rows, "t", { layout: "narrow" });
    expect([viewWidth(wide.svg), viewWidth(narrow.svg)]).toEqual([720, 340]);
    expect(narrow.svg).toContain('class="plot narrow forest-narrow"');
    // Same axis, flags and arrowheads; the labels start at the left edge instead of ending at the bars.
    expect(labels(narrow.svg)).toEqual(labels(wide.svg));
    expect({ unbounded: narrow.unbounded, clipped: narrow.clipped }).toEqual({
      unbounded: wide.unbounded,
      clipped: wide.clipped,
    });
    expect(arrows(narrow.svg)).toEqual(arrows(wide.svg));
    expect(narrow.svg).not.toContain('text-anchor="end"');
    const label = /<text x="12" y="([0-9.]+)" font-size="12">SR-5 · required_fact_recall<\/text>/.exec(
      narrow.svg,
    );
    const dot = /<circle cx="[0-9.]+" cy="([0-9.]+)"/.exec(narrow.svg);
    expect(Number(label?.[1])).toBeLessThan(Number(dot?.[1]) - 6); // above the bar, not beside it
    // Drawn at most at its own size in a 358 px column (390 px less the page's padding): no text below 10 px.
    expect(Math.min(...fontSizes(narrow.svg)) * Math.min(1, 358 / 340)).toBeGreaterThanOrEqual(10);
  });

  it("draws the bar chart on a 340-unit box with labels above the bars and no text under 11 units", () => {
    const groups = [
      {
        label: "SR-PROGRESSIVE @ 250",
        values: [
          { series: "input tokens", value: 1200 },
          { series: "tool-schema tokens", value: 300 },
        ],
      },
    ];
    const wide = barChart(groups, "t");
    const narrow = barChart(groups, "t", "narrow");
    expect([viewWidth(wide), viewWidth(narrow)]).toEqual([720, 340]);
    expect(narrow).toContain('<text x="12" y="41" font-size="12">SR-PROGRESSIVE @ 250</text>');
    expect(Math.min(...fontSizes(narrow))).toBe(11);
    // The longest bar ends where the value's label still fits inside the box.
    const bars = [...narrow.matchAll(/<rect x="12" y="[0-9.]+" width="([0-9.]+)"[^>]*><title>/g)].map((m) =>
      Number(m[1]),
    );
    expect(bars).toEqual([268, 67]);
  });
});
