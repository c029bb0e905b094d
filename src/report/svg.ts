/** Small, dependency-free SVG charts for the static report (no browser, no network). */
import { niceTicks } from "./ticks.ts";

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export interface ForestRow {
  readonly label: string;
  readonly point: number | null;
  readonly low: number | null;
  readonly high: number | null;
  /** The margin this row is judged against (drawn as a dashed line), and which side passes. */
  readonly margin: number;
  readonly passSide: "above" | "below";
  /**
   * A second (calibrated) interval, drawn thin below the first. A null bound beside a defined
   * estimate is unbounded on that side (the caller leaves out an interval that is undefined).
   */
  readonly alt?: { readonly low: number | null; readonly high: number | null };
}

/**
 * How a plot is laid out. `wide`: labels in a column left of the bars, 720 units wide, for a
 * window that shows it near full size. `narrow`: each label on its own line above its bars, 340
 * units wide, for a phone: a 720-unit plot shrunk to a 358 px column draws 12-unit text at 6 px,
 * while this one is not shrunk at all there (the report shows one or the other by window width).
 */
export type PlotLayout = "wide" | "narrow";

/** The box of each layout: width, the labels' column, margins and the height of a row. */
const FOREST_LAYOUT = {
  wide: { width: 720, left: 300, right: 40, rowHeight: 22, labelAbove: 0, className: "plot forest" },
  narrow: {
    width: 340,
    left: 12,
    right: 16,
    rowHeight: 40,
    labelAbove: 15,
    className: "plot narrow forest-narrow",
  },
} as const;

export interface ForestOptions {
  readonly layout?: PlotLayout;
  /**
   * The plotted range. Absent: every finite value of the rows and ±0.05, widened to nice ticks.
   * A bound beyond it is drawn to the edge and ends in an arrowhead.
   */
  readonly domain?: readonly [number, number];
}

export interface ForestPlot {
  readonly svg: string;
  /** Some drawn interval is unbounded on a side: it ends in an arrowhead at the plot's edge. */
  readonly unbounded: boolean;
  /** Some drawn interval (or estimate) lies partly beyond the plotted range: an arrowhead too. */
  readonly clipped: boolean;
}

/** The most tick intervals on the axis: with 1/2/5 steps that gives 4 to 7 labelled ticks. */
const FOREST_TICKS = 6;

/** Coordinates with one decimal: enough for a screen, and the file stays small and stable. */
const at = (v: number) => Number(v.toFixed(1));

/**
 * Where a forest plot draws: the plotted range [lo, hi], the x coordinate of a value, and the
 * flags the drawing sets as it goes (an interval unbounded on a side, or reaching past the range).
 */
interface ForestFrame {
  readonly lo: number;
  readonly hi: number;
  readonly x: (v: number) => number;
  readonly inside: (v: number) => boolean;
  readonly state: { unbounded: boolean; clipped: boolean };
}

/** The axis: the caller's domain (checked to be increasing), or every finite value and ±0.05, as nice ticks. */
function forestAxis(rows: readonly ForestRow[], domain: ForestOptions["domain"]) {
  const values = rows
    .flatMap((r) => [r.low, r.high, r.point, r.margin, r.alt?.low ?? null, r.alt?.high ?? null])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  if (domain && !(domain[0] < domain[1]))
    throw new RangeError(`forestPlot: the domain must be an increasing pair, got [${domain.join(", ")}]`);
  const axis = domain
    ? niceTicks(domain[0], domain[1], FOREST_TICKS)
    : niceTicks(Math.min(-0.05, ...values), Math.max(0.05, ...values), FOREST_TICKS);
  const [lo, hi] = domain ?? [axis.ticks[0] as number, axis.ticks[axis.ticks.length - 1] as number];
  return { axis, lo, hi };
}

/**
 * An interval from low to high (null: unbounded on that side) at height y, clamped to the
 * plotted range, with an arrowhead (size s × h) on each side it leaves the range.
 */
function forestInterval(
  frame: ForestFrame,
  [low, high]: readonly [number | null, number | null],
  y: number,
  [stroke, strokeWidth]: readonly [string, number],
  [s, h]: readonly [number, number],
): string {
  const { lo, hi, x, state } = frame;
  const openLeft = low === null || low < lo;
  const openRight = high === null || high > hi;
  if (low === null || high === null) state.unbounded = true;
  if ((low !== null && low < lo) || (high !== null && high > hi)) state.clipped = true;
  const x1 = x(Math.min(hi, Math.max(lo, low ?? lo)));
  const x2 = x(Math.max(lo, Math.min(hi, high ?? hi)));
  const parts = [
    // The line stops short of an arrow's tip so its square end cannot show past it.
    `<line x1="${openLeft ? at(x1 + s / 2) : x1}" y1="${y}" x2="${openRight ? at(x2 - s / 2) : x2}" y2="${y}" stroke="${stroke}" stroke-width="${strokeWidth}" />`,
  ];
  if (openLeft)
    parts.push(`<path d="M${x1} ${y}L${at(x1 + s)} ${y - h}L${at(x1 + s)} ${y + h}Z" fill="${stroke}" />`);
  if (openRight)
    parts.push(`<path d="M${x2} ${y}L${at(x2 - s)} ${y - h}L${at(x2 - s)} ${y + h}Z" fill="${stroke}" />`);
  return parts.join("");
}

/** A row's point estimate: a dot coloured by its side of the margin, or a ring on the edge it lies past. */
function forestPoint(frame: ForestFrame, r: ForestRow, point: number, y: number): string {
  const { lo, hi, x, inside, state } = frame;
  const ok = r.passSide === "above" ? point >= r.margin : point <= r.margin;
  const tip = `<title>${escape(`${r.label}: ${point.toFixed(4)} [${r.low?.toFixed(4) ?? "–"}, ${r.high?.toFixed(4) ?? "–"}]`)}</title>`;
  if (inside(point))
    return `<circle cx="${x(point)}" cy="${y}" r="4" fill="${ok ? "#2a7" : "#c33"}">${tip}</circle>`;
  // An estimate beyond the range: a ring on the edge it lies past, its value in the tooltip.
  state.clipped = true;
  return `<circle cx="${x(point < lo ? lo : hi)}" cy="${y}" r="4" fill="#fff" stroke="${ok ? "#2a7" : "#c33"}" stroke-width="2">${tip}</circle>`;
}

/** One row at height y: its label, its margin, its interval, the calibrated interval below it and its estimate. */
function forestRow(
  frame: ForestFrame,
  r: ForestRow,
  y: number,
  { left, labelAbove }: { readonly left: number; readonly labelAbove: number },
): string[] {
  const { x, inside } = frame;
  const parts = [
    labelAbove > 0
      ? `<text x="${left}" y="${y - labelAbove + 2}" font-size="12">${escape(r.label)}</text>`
      : `<text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="12">${escape(r.label)}</text>`,
  ];
  if (inside(r.margin))
    parts.push(
      `<line x1="${x(r.margin)}" y1="${y - 9}" x2="${x(r.margin)}" y2="${y + 9}" stroke="#c33" stroke-dasharray="3,2" />`,
    );
  if (r.low !== null && r.high !== null)
    parts.push(forestInterval(frame, [r.low, r.high], y, ["#246", 2], [7, 4]));
  if (r.alt && r.point !== null)
    parts.push(forestInterval(frame, [r.alt.low, r.alt.high], y + 5, ["#999", 1.5], [5, 3]));
  if (r.point !== null) parts.push(forestPoint(frame, r, r.point, y));
  return parts;
}

/**
 * A forest plot of paired deltas with their intervals, a zero line, each row's margin and nice
 * ticks (see ticks.ts). Intervals unbounded on a side, or reaching beyond the plotted range, run
 * to the edge and end in an arrowhead; the returned flags say whether any did, for the note the
 * caller prints under the plot.
 */
export function forestPlot(
  rows: readonly ForestRow[],
  title: string,
  options: ForestOptions = {},
): ForestPlot {
  const { width, left, right, rowHeight, labelAbove, className } = FOREST_LAYOUT[options.layout ?? "wide"];
  const top = 30;
  const height = top + rows.length * rowHeight + 30;
  const { axis, lo, hi } = forestAxis(rows, options.domain);
  const x = (v: number) => at(left + ((v - lo) / (hi - lo)) * (width - left - right));
  const inside = (v: number) => v >= lo && v <= hi;
  const frame: ForestFrame = { lo, hi, x, inside, state: { unbounded: false, clipped: false } };
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escape(title)}" class="${className}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escape(title)}</title>`,
  ];
  for (const tick of axis.ticks)
    if (inside(tick) && tick !== 0)
      parts.push(
        `<line x1="${x(tick)}" y1="${top - 10}" x2="${x(tick)}" y2="${height - 20}" stroke="#eee" />`,
      );
  if (inside(0))
    parts.push(`<line x1="${x(0)}" y1="${top - 10}" x2="${x(0)}" y2="${height - 20}" stroke="#888" />`);
  rows.forEach((r, i) => {
    // The bars sit in the row's lower part when the label has a line of its own above them.
    const y = top + i * rowHeight + (rowHeight + labelAbove) / 2;
    parts.push(...forestRow(frame, r, y, { left, labelAbove }));
  });
  axis.ticks.forEach((tick, i) => {
    if (inside(tick))
      parts.push(
        `<text x="${x(tick)}" y="${height - 6}" text-anchor="middle" font-size="11">${axis.labels[i]}</text>`,
      );
  });
  parts.push("</svg>");
  return { svg: parts.join(""), ...frame.state };
}

/** The bar chart's box per layout (see {@link PlotLayout}); `narrow` puts each label above its bars. */
const BAR_LAYOUT = {
  wide: { width: 720, left: 200, room: 90, labelAbove: 0, valueSize: 10, className: "plot bars" },
  narrow: {
    width: 340,
    left: 12,
    room: 60,
    labelAbove: 16,
    valueSize: 11,
    className: "plot narrow bars-narrow",
  },
} as const;

/** Grouped horizontal bars: one group per label, one bar per series. */
export function barChart(
  groups: ReadonlyArray<{ label: string; values: ReadonlyArray<{ series: string; value: number }> }>,
  title: string,
  layout: PlotLayout = "wide",
): string {
  const { width, left, room, labelAbove, valueSize, className } = BAR_LAYOUT[layout];
  const barHeight = 12;
  const series = [...new Set(groups.flatMap((g) => g.values.map((v) => v.series)))];
  const colours = ["#246", "#8ac", "#c84", "#7a5", "#a5a"];
  const groupHeight = labelAbove + series.length * barHeight + 10;
  const height = 30 + groups.length * groupHeight + 20;
  const max = Math.max(1, ...groups.flatMap((g) => g.values.map((v) => v.value)));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escape(title)}" class="${className}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escape(title)}</title>`,
  ];
  series.forEach((s, i) =>
    parts.push(
      `<rect x="${left + i * 130}" y="4" width="10" height="10" fill="${colours[i % colours.length]}" /><text x="${left + i * 130 + 14}" y="13" font-size="11">${escape(s)}</text>`,
    ),
  );
  groups.forEach((g, gi) => {
    const y0 = 30 + gi * groupHeight;
    parts.push(
      labelAbove > 0
        ? `<text x="${left}" y="${y0 + 11}" font-size="12">${escape(g.label)}</text>`
        : `<text x="${left - 8}" y="${y0 + groupHeight / 2}" text-anchor="end" font-size="12">${escape(g.label)}</text>`,
    );
    g.values.forEach((v) => {
      const si = series.indexOf(v.series);
      const w = (v.value / max) * (width - left - room);
      parts.push(
        `<rect x="${left}" y="${y0 + labelAbove + si * barHeight}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${colours[si % colours.length]}"><title>${escape(`${g.label} ${v.series}: ${Math.round(v.value)}`)}</title></rect>`,
      );
      parts.push(
        `<text x="${left + w + 4}" y="${y0 + labelAbove + si * barHeight + barHeight - 3}" font-size="${valueSize}">${Math.round(v.value)}</text>`,
      );
    });
  });
  parts.push("</svg>");
  return parts.join("");
}

export { escape };
