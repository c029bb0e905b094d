/**
 * The secondary judge's section as data — its title, rows, interval notes and sentences — which
 * both the HTML and the Markdown renderings lay out.
 */
import { BOUND_MARKS, intervalNotes, POOLED, shownBound, type ShownInterval } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";

/** The judge section's title: what it is, and that the gate never reads it. */
export const JUDGE_TITLE =
  "Secondary judge (coherence and completeness) — secondary: it never moves the gate";

export interface JudgeRow {
  readonly condition: string;
  /** "pooled" or a catalog size. */
  readonly selection: string;
  readonly judged: number;
  /** Per dimension: the mean rating, and the paired delta against the baseline with its interval (null for the baseline). */
  readonly cells: ReadonlyArray<{
    readonly mean: number | null;
    readonly delta: { readonly point: number | null; readonly interval: ShownInterval | null } | null;
  }>;
}

/**
 * The judge section's table, one row per condition × selection (pooled first), for both renderings.
 * Intervals are the summary's gate-interval method, shown within what a rating delta can be:
 * ±(max − min) of the dimension's scale.
 */
export function judgeRows(s: Summary, judge: NonNullable<Summary["judge"]>): JudgeRow[] {
  const method = s.bootstrap.gate_interval;
  const rows: JudgeRow[] = [];
  for (const [selection, conditions] of Object.entries(judge.levels))
    for (const [condition, level] of Object.entries(conditions))
      rows.push({
        condition,
        selection,
        judged: level.judged,
        cells: judge.dimensions.map((d) => {
          const mean = level.means[d.id] ?? null;
          if (condition === judge.baseline) return { mean, delta: null };
          const i = judge.delta_intervals[selection]?.[condition]?.[d.id];
          const g = method === "percentile" ? i : i?.calibrated?.[method];
          const span = d.max - d.min;
          const interval =
            !i || i.point === null || !g
              ? null
              : {
                  low: shownBound(g.low, "low", [-span, span]),
                  high: shownBound(g.high, "high", [-span, span]),
                  zeroWidth: g.low !== null && g.low === g.high,
                };
          return { mean, delta: { point: i?.point ?? null, interval } };
        }),
      });
  // Conditions in the protocol's order (as the section lists them), pooled before the catalog
  // sizes in ascending order (a JSON object lists numeric keys first, so its order will not do).
  const conditions = Object.keys(judge.levels[POOLED] ?? {});
  const selectionRank = (x: string) => (x === POOLED ? -1 : Number(x));
  return rows.sort(
    (a, b) =>
      conditions.indexOf(a.condition) - conditions.indexOf(b.condition) ||
      selectionRank(a.selection) - selectionRank(b.selection),
  );
}

/** Notes for the marks on the judge's intervals; "clipped" says what a rating delta can be. */
export function judgeNotes(rows: readonly JudgeRow[]): string[] {
  const shown = rows.flatMap((r) => r.cells.flatMap((c) => (c.delta?.interval ? [c.delta.interval] : [])));
  return intervalNotes(shown).map((line) =>
    line.startsWith(BOUND_MARKS.clipped)
      ? `${BOUND_MARKS.clipped} clipped: the method's bound lies outside what a rating delta can be (± the scale's max − min); shown at that limit.`
      : line,
  );
}

/** What the section says in prose: the judges, the counts, and the judge against the scorer. */
export function judgeSentences(judge: NonNullable<Summary["judge"]>): {
  judges: string;
  counts: string;
  factual: string;
} {
  const c = judge.counts;
  const reasons = (r: { total: number; by_reason: Record<string, number> }) =>
    r.total === 0
      ? ""
      : ` (${Object.entries(r.by_reason)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")})`;
  const share = (x: { count: number; share: number | null }) =>
    `${x.count}${x.share === null ? "" : ` (${(x.share * 100).toFixed(1)} %)`}`;
  const f = judge.factual;
  const low = judge.dimensions
    .map(
      (d) =>
        `${d.id} ≤ ${d.low_at_most}: ${share(f.fully_correct.rated_low[d.id] ?? { count: 0, share: null })}`,
    )
    .join(", ");
  const high = judge.dimensions
    .map(
      (d) =>
        `${d.id} ≥ ${d.high_at_least}: ${share(f.factually_short.rated_high[d.id] ?? { count: 0, share: null })}`,
    )
    .join(", ");
  return {
    judges: `${
      judge.judges
        .map(
          (j) =>
            `${j.agent}${j.model ? ` ${j.model}` : ""}${j.reported_model && j.reported_model !== j.model ? ` (reported ${j.reported_model})` : ""}: ${j.episodes}`,
        )
        .join("; ") || "none"
    }; prompt ${judge.prompt_sha256.map((h) => h.slice(0, 12)).join(", ") || "–"}`,
    counts: `${c.episodes} episodes: ${c.judged} judged, ${c.malformed.total} malformed${reasons(c.malformed)}, ${c.not_judged.total} not judged${reasons(c.not_judged)}, ${c.error.total} error${reasons(c.error)}, ${c.missing} with no judgment${c.not_in_runs > 0 ? `; ${c.not_in_runs} judgment(s) of episodes not in these runs` : ""}.`,
    factual: `Of ${f.fully_correct.episodes} judged episodes the scorer finds fully correct (every required fact, none unsupported or contradicting), rated low — ${low}. Of ${f.factually_short.episodes} it finds factually short (a required fact missed, or no valid envelope), rated high — ${high}. ${f.neither} judged episode(s) are neither.`,
  };
}
