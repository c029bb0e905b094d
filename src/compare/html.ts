/**
 * The comparison as one self-contained HTML page (inline CSS, no script, no network), in the
 * report's style and with its phone-readable tables: who A and B are, then per condition the pooled
 * table (per catalog size folded below it), the routers' ranks of the required routes side by side,
 * and the notes on intervals. Reads at 1280 px and on a 390 px phone (tables become cards there).
 */
import { intervalNotes, formatInterval, POOLED, type ShownInterval } from "../metrics/index.ts";
import { cardTable, CSS, escape, num } from "../report/index.ts";
import {
  bootstrapLine,
  conditionTitle,
  glanceLines,
  pairingLine,
  pilotLabel,
  rankLines,
  selectionTitle,
  sideLine,
} from "./labels.ts";
import type { Comparison, RankRow } from "./schema.ts";
import type { Table } from "./statistics.ts";
import { deltaIntervals } from "./text.ts";

const EXTRA_CSS = `.excl{font-weight:700}.up{color:#2a7}.down{color:#c33}h3{font-size:1.05rem;margin:1rem 0 .2rem}`;

export function renderComparisonHtml(c: Comparison): string {
  const shown: ShownInterval[] = [];
  const conditions = [...new Set(c.tables.map((t) => t.condition))];
  const sections = conditions.map((condition) => conditionSection(c, condition, shown));
  const notes = intervalNotes(shown);
  const glance = glanceLines(c);
  const body = [
    header(c),
    glance.length === 0
      ? ""
      : `<section id="glance"><h2>At a glance</h2><p class="muted">Pooled over catalog sizes; B − A, ${escape(c.bootstrap.gate_interval)} interval. A comparison: no threshold, no verdict.</p><ul>${glance.map((l) => `<li>${escape(l)}</li>`).join("")}</ul></section>`,
    ...sections,
    ranksSection(c),
    notes.length > 0
      ? `<h2 id="notes">Notes</h2>${notes.map((n) => `<p class="muted">${escape(n)}</p>`).join("")}`
      : "",
  ].filter((s) => s !== "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>fabench compare — B − A</title><style>${CSS}\n${EXTRA_CSS}</style></head><body>${body.join("\n")}</body></html>\n`;
}

function header(c: Comparison): string {
  const label = pilotLabel(c);
  const lines = [
    `<h1>fabench compare — B − A${label ? ' <span class="pilot">not preregistered</span>' : ""}</h1>`,
    label ? `<p id="not-preregistered" class="pilot-note">${escape(label)}.</p>` : "",
    c.conditions_not_preregistered.length > 0
      ? `<p class="pilot-note">NOT PREREGISTERED conditions: ${escape(c.conditions_not_preregistered.join(", "))}.</p>`
      : "",
    `<p id="what"><strong>${escape(c.what)}.</strong></p>`,
    `<ul><li>protocol <code>${escape(c.protocol_id)}</code> <code>${escape(c.protocol_sha256)}</code></li>`,
    `<li id="side-a">${escape(sideLine("A", c.a))}</li><li id="side-b">${escape(sideLine("B", c.b))}</li>`,
    `<li>A and B differ in: ${escape(c.differs.join(", ") || "nothing recorded")}</li>`,
    `<li id="pairing">${escape(pairingLine(c))}</li><li>${escape(bootstrapLine(c))}</li></ul>`,
  ];
  return `<header id="comparison">${lines.filter((l) => l !== "").join("\n")}</header>`;
}

function table(c: Comparison, t: Table, shown: ShownInterval[]): string {
  const pct = `${Math.round(c.bootstrap.confidence * 100)}% ${c.bootstrap.interval}`;
  const headers = ["metric", "A", "B", "B − A", escape(pct), escape(c.bootstrap.gate_interval), "excludes 0"];
  const rows = t.rows.map((row) => {
    const { ci, gate } = deltaIntervals(row);
    shown.push(ci, gate);
    const d = row.delta.point;
    const dir = d === null || d === 0 ? "" : d > 0 ? "up" : "down";
    return [
      `${escape(row.metric)}${row.gated ? ' <span class="muted">(gated)</span>' : ""}`,
      num(row.a.point),
      num(row.b.point),
      `<span class="${dir}">${num(d)}</span>`,
      escape(formatInterval(ci, (x) => num(x))),
      escape(formatInterval(gate, (x) => num(x))),
      row.excludes_zero ? '<span class="excl">yes</span>' : "no",
    ];
  });
  return cardTable(headers, rows);
}

function conditionSection(c: Comparison, condition: string, shown: ShownInterval[]): string {
  const mine = c.tables.filter((t) => t.condition === condition);
  const pooled = mine.filter((t) => t.selection === POOLED);
  const sizes = mine.filter((t) => t.selection !== POOLED);
  const id = `condition-${condition.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return [
    `<section id="${escape(id)}"><h2>${escape(conditionTitle(c, condition))}</h2>`,
    ...pooled.map((t) => `<h3>${escape(selectionTitle(c, t.selection))}</h3>${table(c, t, shown)}`),
    ...sizes.map(
      (t) =>
        `<details><summary>${escape(selectionTitle(c, t.selection))}</summary>${table(c, t, shown)}</details>`,
    ),
    "</section>",
  ].join("\n");
}

function ranksSection(c: Comparison): string {
  const lines = rankLines(c).filter((l) => !l.includes("--out FILE.html"));
  const intro = lines.map((l) => `<p>${escape(l.trim())}</p>`).join("");
  const sizes = [...new Set(c.ranks.rows.map((r) => r.catalog_size))];
  const folded = sizes.map((size) => {
    const rows = c.ranks.rows.filter((r) => r.catalog_size === size);
    return `<details><summary>catalog ${size}: every task's required routes (${rows.length})</summary>${rankTable(rows)}</details>`;
  });
  return `<section id="ranks"><h2>Routers' ranks of the required routes</h2>${intro}${folded.join("")}</section>`;
}

function rankTable(rows: readonly RankRow[]): string {
  const rank = (x: number | null) => (x === null ? "–" : String(x));
  return cardTable(
    ["task", "required route", "rank A", "rank B", "B − A"],
    rows.map((r) => {
      const d = r.a === null || r.b === null ? null : r.b - r.a;
      // A lower rank is better: B ranking the route higher shows green.
      const dir = d === null || d === 0 ? "" : d < 0 ? "up" : "down";
      return [
        escape(r.semantic_task_id),
        `<code>${escape(r.route)}</code>`,
        rank(r.a),
        rank(r.b),
        d === null ? "–" : `<span class="${dir}">${d > 0 ? "+" : ""}${d}</span>`,
      ];
    }),
  );
}
