/**
 * The comparison as text: who A and B are, what differs, how the episodes paired, then a table per
 * condition (metric, A, B, B − A, its intervals, whether the gate method's interval excludes 0) and
 * the routers' ranks in brief. Shares its labels with the HTML (labels.ts) so both say the same.
 */
import {
  formatInterval,
  intervalNotes,
  POOLED,
  shownInterval,
  type ShownInterval,
} from "../metrics/index.ts";
import { conditionTitle, glanceLines, headerLines, rankLines, selectionTitle } from "./labels.ts";
import type { Comparison, MetricRow } from "./schema.ts";

const num = (x: number | null) => (x === null ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));

/** The delta's two intervals as shown (cut to what the metric can be, marked). */
export function deltaIntervals(row: MetricRow): { ci: ShownInterval; gate: ShownInterval } {
  return {
    ci: shownInterval(row.metric, "delta", [row.delta.low, row.delta.high]),
    gate: shownInterval(row.metric, "delta", [row.delta.gate_low, row.delta.gate_high]),
  };
}

/** `selection`: the pooled tables (default) or one catalog size's. */
export function renderComparison(c: Comparison, selection: string = POOLED): string {
  const lines = headerLines(c);
  lines.push(
    "",
    `at a glance, pooled over catalog sizes (B − A; ${c.bootstrap.gate_interval} interval):`,
    ...glanceLines(c).map((l) => `  ${l}`),
  );
  const shown: ShownInterval[] = [];
  const pct = `${Math.round(c.bootstrap.confidence * 100)}% ${c.bootstrap.interval}`;
  const chosen = c.tables.filter((t) => t.selection === selection);
  const names = (row: MetricRow) => `${row.metric}${row.gated ? " (gated)" : ""}`;
  const width = Math.max(6, ...chosen.flatMap((t) => t.rows.map((r) => names(r).length)));
  for (const t of chosen) {
    lines.push("", `${conditionTitle(c, t.condition)} — ${selectionTitle(c, t.selection)}`);
    lines.push(
      `  ${"metric".padEnd(width)} ${"A".padStart(9)} ${"B".padStart(9)} ${"B − A".padStart(9)}  ${pct.padEnd(22)} ${c.bootstrap.gate_interval.padEnd(22)} excludes 0`,
    );
    for (const row of t.rows) {
      const { ci, gate } = deltaIntervals(row);
      shown.push(ci, gate);
      lines.push(
        `  ${names(row).padEnd(width)} ${num(row.a.point).padStart(9)} ${num(row.b.point).padStart(9)} ${num(row.delta.point).padStart(9)}  ${formatInterval(ci, (x) => num(x)).padEnd(22)} ${formatInterval(gate, (x) => num(x)).padEnd(22)} ${row.excludes_zero ? "yes" : "no"}`,
      );
    }
  }
  if (chosen.length === 0)
    lines.push("", `no tables for catalog size ${selection}: this comparison has ${sizesOf(c)}`);
  const others = [...new Set(c.tables.map((t) => t.selection))].filter((s) => s !== selection);
  if (others.length > 0)
    lines.push(
      "",
      `also: ${others.map((s) => (s === POOLED ? "pooled (the default)" : `catalog size ${s} (--catalog-size ${s})`)).join(", ")}; every table is in --json and in --out FILE.html`,
    );
  const notes = intervalNotes(shown);
  if (notes.length > 0) lines.push("", ...notes);
  lines.push("", ...rankLines(c));
  return `${lines.join("\n")}\n`;
}

function sizesOf(c: Comparison): string {
  const sizes = [...new Set(c.tables.map((t) => t.selection))].filter((s) => s !== POOLED);
  return sizes.length === 0 ? "no catalog size" : `catalog sizes ${sizes.join(", ")}`;
}
