/**
 * The report's data-table sections: tokens per episode, the breakdowns by language and stratum,
 * answer failures with router diagnostics, and the secondary judge.
 */
import {
  formatInterval,
  intervalNotes,
  POOLED,
  type Breakdown,
  shownInterval,
  type ShownInterval,
} from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { cardTable, num } from "./html-kit.ts";
import { JUDGE_TITLE, judgeNotes, judgeRows, judgeSentences } from "./judge.ts";
import { barChart, escape } from "./svg.ts";

export function tokenSection(s: Summary): string {
  const groups = Object.entries(s.aggregates)
    .filter(([selection]) => selection !== POOLED)
    .flatMap(([size, conditions]) =>
      Object.entries(conditions).map(([condition, a]) => ({
        label: `${condition} @ ${size}`,
        values: [
          { series: "input tokens", value: a.means["input_tokens"] ?? 0 },
          { series: "tool-schema tokens", value: a.means["tool_schema_tokens"] ?? 0 },
        ],
      })),
    );
  const title = "Mean input and tool-schema tokens per episode";
  return `<h2 id="tokens">Tokens per episode</h2>${barChart(groups, title)}${barChart(groups, title, "narrow")}`;
}

export function breakdownSection(s: Summary): string {
  const table = (title: string, groups: Summary["breakdowns"]["by_language"]) => {
    const conditions = Object.keys(Object.values(groups)[0]?.deltas ?? {});
    const headers = [title, "tasks", ...conditions.map((c) => `${escape(c)} recall Δ`)];
    const interval = (b: Breakdown, c: string) => {
      const i = b.delta_intervals[c]?.["required_fact_recall"];
      const g = method === "percentile" ? i : i?.calibrated?.[method];
      if (!g || i?.point === null) return "";
      const interval = shownInterval("required_fact_recall", "delta", [g.low, g.high]);
      shown.push(interval);
      return ` <span class="muted">${escape(formatInterval(interval, (x) => num(x)))}</span>`;
    };
    const rows = Object.entries(groups).map(([name, b]) => [
      escape(name),
      String(b.tasks),
      ...conditions.map((c) => `${num(b.deltas[c]?.["required_fact_recall"])}${interval(b, c)}`),
    ]);
    return cardTable(headers, rows);
  };
  const method = s.bootstrap.gate_interval;
  const shown: ShownInterval[] = [];
  const tables = `${table("language", s.breakdowns.by_language)}${table("stratum", s.breakdowns.by_stratum)}`;
  const notes = intervalNotes(shown)
    .map((n) => `<li>${escape(n)}</li>`)
    .join("");
  return `<h2 id="breakdowns">By language and by stratum</h2><p class="muted">Paired recall delta per group, with its ${escape(method)} interval from a bootstrap of the group's own tasks (diagnostics: a group holds a sixth of the tasks, so these intervals are wide; the gate reads the whole benchmark).</p>${tables}${notes ? `<ul class="muted">${notes}</ul>` : ""}`;
}

export function failureSection(s: Summary): string {
  const pooled = s.aggregates[POOLED] ?? {};
  const rows = Object.entries(pooled).map(([condition, a]) => {
    const reasons =
      Object.entries(a.malformed_reasons)
        .map(([r, n]) => `${escape(r)} ${n}`)
        .join(", ") || "none";
    return [
      escape(condition),
      num(a.means["envelope_valid"]),
      reasons,
      String(a.totals["unsupported_fact_count"] ?? 0),
      String(a.totals["contradiction_count"] ?? 0),
      num(a.means["initial_required_route_recall"]),
      num(a.means["recovered"]),
      String(a.totals["infrastructure_error"] ?? 0),
    ];
  });
  const headers = [
    "condition",
    "valid envelopes",
    "malformed reasons",
    "unsupported facts",
    "contradictions",
    "initial required-route recall",
    "recovery rate",
    "infrastructure errors",
  ];
  return `<h2 id="failures">Answer failures and router diagnostics</h2>${cardTable(headers, rows)}`;
}

export function judgeHtml(s: Summary): string {
  const judge = s.judge;
  if (!judge) return "";
  const rows = judgeRows(s, judge);
  const text = judgeSentences(judge);
  const rating = (v: number | null) => num(v, 2);
  const delta = (v: number | null) => (v === null ? "–" : `${v < 0 ? "−" : "+"}${Math.abs(v).toFixed(2)}`);
  const headers = [
    "condition",
    "catalog",
    "judged",
    ...judge.dimensions.flatMap((d) => [
      `${escape(d.id)} (${d.min}–${d.max})`,
      `${escape(d.id)} Δ vs ${escape(judge.baseline)}`,
    ]),
  ];
  const body = rows.map((r) => [
    escape(r.condition),
    escape(r.selection),
    String(r.judged),
    ...r.cells.flatMap((c) => [
      rating(c.mean),
      c.delta === null
        ? ""
        : `${delta(c.delta.point)}${c.delta.interval ? ` <span class="muted">${escape(formatInterval(c.delta.interval, (x) => num(x, 2)))}</span>` : ""}`,
    ]),
  ]);
  const notes = judgeNotes(rows)
    .map((n) => `<li>${escape(n)}</li>`)
    .join("");
  return `<h2 id="judge">${escape(JUDGE_TITLE)}</h2><p class="muted">A judge (a model, or a command) rated each episode's final answer from the task's query and the answer alone, blind to its condition, catalog and routes. The gate above was computed without these ratings and never reads them. Judges (lines): ${escape(text.judges)}.</p><p>${escape(text.counts)}</p>${cardTable(headers, body)}<p class="muted">Means over judged episodes; Δ: paired delta against ${escape(judge.baseline)} with its ${escape(s.bootstrap.gate_interval)} ${Math.round(s.bootstrap.confidence * 100)} % interval from the summary's own task-cluster bootstrap (${s.bootstrap.iterations.toLocaleString("en")} iterations, seed ${s.bootstrap.seed}).</p>${notes ? `<ul class="muted">${notes}</ul>` : ""}<p id="judge-factual">${escape(text.factual)}</p>`;
}
