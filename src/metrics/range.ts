/**
 * What a metric can be, and how an interval is shown within it. Statistics keep the bounds a
 * method computed (a bootstrap-t bound can be −1.008 or unbounded for a delta of shares); what a
 * reader sees is cut to the metric's feasible range, and every cut or missing bound is marked so
 * an interval never looks narrower or wider than the data allow without saying why.
 */

/** Metrics that are shares of something: each episode's value, and so every mean, lies in [0, 1]. */
const SHARE_METRICS: ReadonlySet<string> = new Set([
  "required_fact_recall",
  "numeric_value_accuracy",
  "unit_accuracy",
  "provenance_accuracy",
  "unsupported_fact_rate",
  "mandatory_field_completion",
  "envelope_valid",
  "source_list_valid",
  "required_evidence_coverage",
  "infrastructure_error",
  "initial_required_route_recall",
  "initial_miss",
  "recovered",
]);

/** The values a level or a paired delta of `metric` can take; counts and tokens are unbounded above. */
export function feasibleRange(metric: string, kind: "level" | "delta"): readonly [number, number] {
  const share = SHARE_METRICS.has(metric);
  if (kind === "level") return [0, share ? 1 : Infinity];
  return share ? [-1, 1] : [-Infinity, Infinity];
}

/** How a shown bound relates to the computed one. */
export type BoundNote = "clipped" | "unbounded";

export interface ShownBound {
  /** ±Infinity when neither the method nor the metric bounds that side. */
  readonly value: number;
  readonly note: BoundNote | null;
}

/**
 * One bound as shown: a null bound (the method gave none) becomes the metric's limit, marked
 * `unbounded`; a bound beyond the limit is cut to it, marked `clipped`.
 */
export function shownBound(
  bound: number | null,
  side: "low" | "high",
  range: readonly [number, number],
): ShownBound {
  const limit = side === "low" ? range[0] : range[1];
  if (bound === null) return { value: limit, note: "unbounded" };
  if (side === "low" ? bound < limit : bound > limit) return { value: limit, note: "clipped" };
  return { value: bound, note: null };
}

export interface ShownInterval {
  readonly low: ShownBound;
  readonly high: ShownBound;
  /** Both bounds equal: every task of every cell agreed, so resampling tasks cannot move the estimate. */
  readonly zeroWidth: boolean;
}

export function shownInterval(
  metric: string,
  kind: "level" | "delta",
  bounds: readonly [number | null, number | null],
): ShownInterval {
  const range = feasibleRange(metric, kind);
  const low = shownBound(bounds[0], "low", range);
  const high = shownBound(bounds[1], "high", range);
  return { low, high, zeroWidth: bounds[0] !== null && bounds[0] === bounds[1] };
}

export const BOUND_MARKS: Readonly<Record<BoundNote, string>> = { clipped: "*", unbounded: "†" };

/** `[low, high]` with marks, numbers formatted by `num` (±∞ written as such). */
export function formatInterval(shown: ShownInterval, num: (x: number) => string): string {
  const one = (b: ShownBound) =>
    `${b.value === -Infinity ? "−∞" : b.value === Infinity ? "+∞" : num(b.value)}${b.note ? BOUND_MARKS[b.note] : ""}`;
  return `[${one(shown.low)}, ${one(shown.high)}]`;
}

/** The legend for the marks that occur, one line each; empty when none do. */
export function intervalNotes(shown: readonly ShownInterval[]): string[] {
  const notes = new Set(shown.flatMap((s) => [s.low.note, s.high.note]));
  const lines: string[] = [];
  if (notes.has("clipped"))
    lines.push(
      `${BOUND_MARKS.clipped} clipped: the method's bound lies outside what the metric can be (a share is in [0, 1], a delta of shares in [−1, 1]); shown at that limit.`,
    );
  if (notes.has("unbounded"))
    lines.push(
      `${BOUND_MARKS.unbounded} unbounded: the method gave no bound on that side (bootstrap-t has none when resampled standard errors are 0); shown at the metric's limit.`,
    );
  if (shown.some((s) => s.zeroWidth))
    lines.push(
      "Zero-width intervals: every task of every stratum gave the same value, so resampling tasks cannot move the estimate; this says the tasks agreed, not that the estimate is exact.",
    );
  return lines;
}
