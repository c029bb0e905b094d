/**
 * The report: one self-contained static HTML file (inline CSS and SVG, no script, no network) —
 * the verdict with its blocking chain, the gate tables, a forest plot of the paired deltas,
 * tokens per condition, breakdowns, answer failures, an episode browser and the provenance.
 * It reads at a 1280 px window, at 800 and on a 390 px phone: long hashes, JSON and answers wrap,
 * the gate table and the episode list become one card per row on a narrow screen, each plot is
 * drawn twice (a wide and a narrow layout, one shown by window width) so its text never shrinks
 * below 10 px, and other wide tables scroll inside their own box.
 */
import { intervalChecks, type Protocol } from "../authoring/index.ts";
import {
  baselineWarning,
  checkIntervals,
  checkRule,
  comparesToBaseline,
  conditionsNotRun,
  NOT_PREREGISTERED,
  notRunReason,
  onTheNumbers,
} from "../gates/index.ts";
import {
  BOUND_MARKS,
  formatInterval,
  intervalNotes,
  METHODS,
  shownBound,
  shownInterval,
  POOLED,
  statisticKey,
  type Breakdown,
  type CoverageStudy,
  type Method,
  type ShownInterval,
} from "../metrics/index.ts";
import { episodeBrowser } from "./episodes.ts";
import { barChart, escape, forestPlot, type ForestRow } from "./svg.ts";
import type { Summary } from "../summary/index.ts";

/**
 * Nothing may be wider than the window: text breaks at spaces where it can and anywhere in a
 * hash, JSON or code (`overflow-wrap:anywhere` also lets a table cell shrink below its longest
 * token); answers keep their line breaks but wrap (`pre-wrap`); the provenance table has a fixed
 * layout; the SVG plots scale down; and a table that still cannot fit (many columns at 800 px)
 * scrolls inside its `.wide` box instead of widening the page.
 *
 * At 760 px and below (a phone; also where the 720-unit plots would start to shrink) the gate
 * table and the data tables (`.cards`) are a card per row, each cell labelled with its column
 * (`data-label`), the gate's verdict rows come first (flex `order`), so every condition's verdict
 * is on screen without a sideways scroll, and the narrow plots replace the wide ones.
 * `.caution` is a pass beside a failed baseline: amber and marked ⚠, never the green ✓.
 */
const CSS = `*,*::before,*::after{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem;overflow-wrap:break-word}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.6rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;color:#fff;font-weight:700}
.pilot{font-size:.9rem;padding:.15rem .5rem;border-radius:4px;background:#c33;color:#fff;vertical-align:middle}.pilot-note{border-left:4px solid #c33;padding:.3rem .6rem;background:#fdf0f0}
.PASS{background:#2a7}.FAIL{background:#c33}.BLOCKED{background:#b70}.ok{color:#2a7}.no{color:#c33}.caution{color:#b70}
.warn{border-left:4px solid #b70;padding:.3rem .6rem;background:#fdf6e8;font-weight:600}
code,pre{font-size:12px;overflow-wrap:anywhere}pre{white-space:pre-wrap;margin:.4rem 0}
details{margin:.2rem 0}summary{cursor:pointer}.muted{color:#777}
.wide{max-width:100%;overflow-x:auto}svg.plot{display:block;max-width:100%;height:auto}svg.plot.narrow{display:none}
table.provenance{table-layout:fixed;width:100%}table.provenance td{text-align:left}table.provenance td:first-child{width:15rem}
@media (max-width:1000px){td,th{padding:.2rem .3rem}th{font-size:12px}table.provenance td:first-child{width:9rem}}
@media (max-width:760px){svg.plot{display:none}svg.plot.narrow{display:block}body{margin:1rem auto}table.provenance td:first-child{width:6rem}
table.cards,table.cards tbody,table.cards tr,table.cards td,table.cards th{display:block}table.cards{width:100%;margin:.3rem 0}
table.cards tbody{display:flex;flex-direction:column}table.cards tr.cols{display:none}table.gate tr.verdicts{order:-1}
table.cards tr{border:1px solid #ddd;border-radius:4px;margin:.25rem 0;padding:.2rem .5rem}
table.cards td,table.cards th{border:0;padding:.1rem 0;text-align:left;font-size:14px}table.cards tr>:first-child{font-weight:700}
table.cards [data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#222}table.cards td:empty,table.gate .verdicts>:nth-child(2){display:none}}`;

/** A table in a box that scrolls sideways if the table cannot be made to fit the page. */
const wide = (table: string) => `<div class="wide">${table}</div>`;

/**
 * A data table that reads on a phone (see the CSS): a header row (`cols`), then rows whose cells
 * after the first carry their column's header as `data-label`. Headers and cells are HTML, already
 * escaped (so a header is safe in an attribute too).
 */
function cardTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const head = `<tr class="cols">${headers.map((h) => `<th>${h}</th>`).join("")}</tr>`;
  const body = rows.map(
    (cells) =>
      `<tr>${cells.map((c, i) => (i === 0 || c === "" ? `<td>${c}</td>` : `<td data-label="${headers[i] ?? ""}">${c}</td>`)).join("")}</tr>`,
  );
  return wide(`<table class="cards">${head}${body.join("")}</table>`);
}

const num = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined ? "–" : Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(digits);

/** `protocol` is the one the summary was scored under (the caller checks its hash): the plot's margins come from its gate. */
export function renderHtml(
  summary: Summary,
  protocol: Protocol,
  finalTexts?: ReadonlyMap<string, string>,
  coverage?: CoverageStudy,
): string {
  const g = summary.gate;
  const episodes = episodeBrowser(summary, finalTexts);
  const sections = [
    header(summary),
    gateSection(summary),
    forestSection(summary, protocol),
    coverageFootnote(summary, coverage),
    tokenSection(summary),
    breakdownSection(summary),
    failureSection(summary),
    judgeHtml(summary),
    episodes.html,
    provenanceSection(summary),
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>fabench report — ${escape(g.status)}</title><style>${CSS}\n${episodes.css}</style></head><body>${sections.join("\n")}</body></html>\n`;
}

/**
 * The top of the report, the decision: the title, the verdict line, the blocking chain and the
 * run in one sentence. Each is one entry of a list, and the verdict line is a list of parts after
 * its badge, so a label or a line can be added without touching the others.
 */
function header(s: Summary): string {
  const g = s.gate;
  const verdict = [
    `<span class="verdict ${g.status}">${g.status}</span>`,
    g.status === "BLOCKED" ? `<span id="numbers">on the numbers: ${escape(onTheNumbers(g))}</span>` : "",
    s.complete
      ? ""
      : `<strong>incomplete run set (${s.missing_episodes} episodes missing): the gate cannot pass</strong>`,
    // BLOCKED says it within the numbers above; otherwise it is said here.
    g.status !== "BLOCKED" && notRunReason(g)
      ? `<strong id="not-run">${escape(notRunReason(g) ?? "")}</strong>`
      : "",
  ].filter((part) => part !== "");
  const warning = baselineWarning(g);
  const lines = [
    `<h1>fabench report — ${escape(s.protocol_id)}${g.preregistered ? "" : ' <span class="pilot">not preregistered</span>'}</h1>`,
    g.preregistered ? "" : `<p id="not-preregistered" class="pilot-note">${escape(NOT_PREREGISTERED)}.</p>`,
    `<p id="verdict">Verdict: ${verdict.join(" ")}</p>`,
    warning ? `<p id="baseline-warning" class="warn">⚠ ${escape(warning)}.</p>` : "",
    g.prerequisite.satisfied
      ? ""
      : `<p>Blocked by the prerequisite chain:</p><ul>${g.prerequisite.blocking.map((b) => `<li><strong>${escape(b.stage)}</strong>: ${escape(b.reason)}</li>`).join("")}</ul>`,
    `<p class="muted">Agent <code>${escape(s.run.agent)}</code>${s.run.model ? ` model <code>${escape(s.run.model)}</code>` : ""}; ${s.episodes} episodes; ${s.infrastructure_errors.total} infrastructure errors. The point-estimate rule is the protocol's verdict; the interval rule is reported beside it.</p>`,
  ];
  return `<header id="decision">${lines.filter((line) => line !== "").join("\n")}</header>`;
}

/** What the gate table needs besides the verdicts: which conditions were not run, and whether the baseline failed. */
interface GateContext {
  readonly method: string;
  readonly notRun: readonly string[];
  readonly baselineFailed: boolean;
  readonly shown: ShownInterval[];
}

/**
 * One gate table; the shown intervals are collected for the notes under the tables. Every cell
 * carries its column's name (`data-label`) for the phone layout, and each verdict cell its
 * condition (`data-condition`). A pass of a delta check, or a verdict, beside a failed baseline is
 * marked ⚠ in amber, never a bare green ✓.
 */
function gateTable(conditions: Summary["gate"]["conditions"], id: string, context: GateContext): string {
  const { method, notRun, baselineFailed, shown } = context;
  const names = Object.keys(conditions);
  const checks = Object.keys(Object.values(conditions)[0]?.checks ?? {});
  const head = `<tr class="cols"><th>check</th><th>needs</th>${names.map((c) => `<th>${escape(c)}</th>`).join("")}</tr>`;
  const body = checks.map((name) => {
    const first = Object.values(conditions)[0]?.checks[name];
    const cells = Object.entries(conditions).map(([condition, v]) => {
      const label = ` data-label="${escape(condition)}"`;
      const c = v.checks[name];
      if (!c) return `<td${label}>–</td>`;
      if (notRun.includes(condition)) return `<td class="muted"${label}>not run</td>`;
      const { shows } = checkRule(c);
      const { ci95, gate } = checkIntervals(c);
      shown.push(...[ci95, gate].filter((x) => x !== undefined));
      const value = shows === "level" || shows === "total" ? c.value : c.delta;
      const ci = ci95 ? ` <span class="muted">${escape(formatInterval(ci95, (x) => num(x)))}</span>` : "";
      const gateCi = gate
        ? ` <span class="muted">${escape(method)} ${escape(formatInterval(gate, (x) => num(x)))}</span>`
        : "";
      const caution = c.passed && baselineFailed && comparesToBaseline(c);
      const mark = caution
        ? `<td class="caution" title="passes against a failed baseline"${label}>⚠ ✓`
        : `<td class="${c.passed ? "ok" : "no"}"${label}>${c.passed ? "✓" : "✗"}`;
      return `${mark} ${num(value)}${ci}${gateCi}</td>`;
    });
    return `<tr><td>${escape(first?.metric ?? name)}</td><td data-label="needs">${first ? escape(checkRule(first).need) : ""}</td>${cells.join("")}</tr>`;
  });
  const verdictRow = (title: string, passed: (v: ConditionVerdict) => boolean) =>
    `<tr class="verdicts"><th>${title}</th><th></th>${Object.entries(conditions)
      .map(([condition, v]) => {
        const [cls, text] = notRun.includes(condition)
          ? ["no", "not run"]
          : passed(v)
            ? baselineFailed
              ? ["caution", "⚠ pass"]
              : ["ok", "pass"]
            : ["no", "fail"];
        return `<th class="cond-verdict ${cls}" data-condition="${escape(condition)}" data-label="${escape(condition)}">${text}</th>`;
      })
      .join("")}</tr>`;
  const verdicts = `${verdictRow("point-estimate verdict", (v) => v.passed)}${verdictRow("interval verdict", (v) => v.interval_passed)}`;
  return wide(`<table class="gate cards" id="${id}">${head}${body.join("")}${verdicts}</table>`);
}

type ConditionVerdict = Summary["gate"]["conditions"][string];

function gateSection(s: Summary): string {
  const method = s.gate.interval_method;
  const warning = baselineWarning(s.gate);
  const notRun = notRunReason(s.gate);
  const context: GateContext = {
    method,
    notRun: conditionsNotRun(s.gate),
    baselineFailed: warning !== null,
    shown: [],
  };
  const pooled = gateTable(s.gate.conditions, "gate-pooled", context);
  const perCatalog = Object.entries(s.gate.per_catalog)
    .map(
      ([size, conditions]) =>
        `<details><summary>catalog size ${escape(size)}</summary>${gateTable(conditions, `gate-${escape(size)}`, context)}</details>`,
    )
    .join("");
  const notes = intervalNotes(context.shown)
    .map((n) => `<li>${escape(n)}</li>`)
    .join("");
  const said = [
    warning ? `<p class="warn">⚠ ${escape(warning)}: a ⚠ marks each pass that leans on it.</p>` : "",
    notRun ? `<p class="no">${escape(notRun)}: a condition not run cannot pass.</p>` : "",
  ].join("");
  return `<h2 id="gate">Gate, pooled over catalog sizes</h2><p class="muted">Each cell: the paired delta against FULL (or the level, ratio or total the check uses), with its preregistered ${escape(s.bootstrap.interval)} ${Math.round(s.bootstrap.confidence * 100)} % interval and the ${escape(method)} interval the interval verdict uses, both shown within what the metric can be.</p>${said}${pooled}${notes ? `<ul id="interval-notes" class="muted">${notes}</ul>` : ""}${perCatalog}`;
}

function forestSection(s: Summary, protocol: Protocol): string {
  const rows: ForestRow[] = [];
  const checks = intervalChecks(protocol);
  // Every condition compared with the baseline: the deployable ones the gate judges, and the
  // reference conditions (ORACLE) that show what a perfect router would give.
  const compared = protocol.conditions
    .map((c) => c.id)
    .filter((c) => c !== protocol.baseline_condition && s.aggregates[POOLED]?.[c]);
  const method = s.bootstrap.gate_interval;
  for (const condition of compared)
    for (const { metric, threshold, passSide } of checks) {
      const i = s.bootstrap.intervals[statisticKey(POOLED, condition, metric, "delta")];
      const calibrated = method === "percentile" ? undefined : i?.calibrated?.[method];
      // Both bounds null is no interval at all, unless bootstrap-t ranked infinite replicates:
      // then it is unbounded on both sides.
      const infinite = method === "bootstrap_t" ? (i?.calibrated?.bootstrap_t.infinite ?? 0) : 0;
      const defined = calibrated && (calibrated.low !== null || calibrated.high !== null || infinite > 0);
      if (i)
        rows.push({
          label: `${condition} · ${metric}`,
          point: i.point,
          low: i.low,
          high: i.high,
          margin: threshold,
          passSide,
          ...(calibrated && defined ? { alt: { low: calibrated.low, high: calibrated.high } } : {}),
        });
    }
  const heading = `<h2 id="forest">Paired deltas against ${escape(protocol.baseline_condition)}</h2>`;
  if (rows.length === 0)
    return `${heading}<p class="muted" id="forest-empty">No condition beside ${escape(protocol.baseline_condition)} was run: there is no paired delta to plot.</p>`;
  const plot = forestPlot(rows, "Paired deltas with intervals");
  const narrow = forestPlot(rows, "Paired deltas with intervals", { layout: "narrow" });
  return `${heading}<p class="muted">Dots: point estimates; bars: ${Math.round(s.bootstrap.confidence * 100)} % intervals (${s.bootstrap.iterations.toLocaleString("en")} iterations, seed ${s.bootstrap.seed}, ${escape(s.bootstrap.generator)}); thin grey bars: the ${escape(s.gate.interval_method)} interval the interval verdict uses; dashed: the margin (${marginText(checks)}).</p>${plot.svg}${narrow.svg}${arrowNote(plot, method)}`;
}

/** Why an interval method can give an infinite bound, for the note under the plot. */
const UNBOUNDED_BECAUSE: Readonly<Record<string, string>> = {
  bootstrap_t:
    "bootstrap-t's studentised interval is unbounded when a resample's standard error is 0 (every drawn cell constant) while its estimate differs from the point estimate, so its t is ±∞",
};

/** The note under the forest plot, when some interval ends in an arrowhead at its edge. */
function arrowNote(plot: { unbounded: boolean; clipped: boolean }, method: string): string {
  if (!plot.unbounded && !plot.clipped) return "";
  const because = UNBOUNDED_BECAUSE[method] ?? `the ${method} interval has no finite bound on that side`;
  const unbounded = `the interval is unbounded on that side: ${escape(because)}`;
  const clipped = "the interval reaches beyond the plotted range";
  const text =
    plot.unbounded && plot.clipped ? `${unbounded}; or ${clipped}` : plot.unbounded ? unbounded : clipped;
  return `<p class="muted" id="forest-arrows">→ / ← : ${text}.</p>`;
}

/** "−2 pp for a, b; +1 pp for c": each threshold of the protocol's interval checks with its metrics. */
function marginText(checks: ReturnType<typeof intervalChecks>): string {
  const byThreshold = new Map<number, string[]>();
  for (const c of checks) byThreshold.set(c.threshold, [...(byThreshold.get(c.threshold) ?? []), c.metric]);
  const points = (t: number) => `${t < 0 ? "−" : "+"}${Math.abs(Math.round(t * 10000) / 100)} pp`;
  return [...byThreshold].map(([t, metrics]) => `${points(t)} for ${metrics.join(", ")}`).join("; ");
}

/**
 * Which interval the gate reads, the preregistered rule that chose it, and — from a
 * `simulate coverage --json` document — every method's simulated coverage with the gate method's
 * coverage range and worst type I error at the margin.
 */
function coverageFootnote(s: Summary, study: CoverageStudy | undefined): string {
  const method = s.gate.interval_method;
  const rule = s.bootstrap.gate_interval_rule;
  const chosen = `The gate's interval verdict reads <code>${escape(method)}</code>, the method the preregistered rule picked (<code>statistics.gate_interval_rule</code>: coverage in [${rule.coverage_band.min}, ${rule.coverage_band.max}] and type I error at the margin ≤ ${rule.type_one_error_at_most} on ${rule.scenarios.length} scenarios, ${rule.min_datasets.toLocaleString("en")} datasets each; <code>fabench simulate coverage --select</code>).`;
  if (!study)
    return `<p class="muted" id="coverage">${chosen} Its simulated coverage and type I error, and every other method's: run <code>fabench simulate coverage --select --json</code> and pass it with <code>--coverage</code>.</p>`;
  const methods = METHODS;
  const rows = study.results.map((r) => [
    escape(r.scenario),
    ...methods.map((m) => num(r.methods[m]?.coverage, 3)),
    num(r.methods[method as Method]?.type_one_error, 3),
  ]);
  const own = study.results.map((r) => r.methods[method as Method]).filter((m) => m !== undefined);
  const range =
    own.length === 0
      ? ""
      : ` In these ${own.length} scenarios ${escape(method)} covers ${num(Math.min(...own.map((m) => m.coverage)), 3)}–${num(Math.max(...own.map((m) => m.coverage)), 3)} and passes a condition whose true delta is the margin at most ${num(Math.max(...own.map((m) => m.type_one_error)), 3)} of the time.`;
  const picked = study.selection
    ? ` That run ${study.selection.preregistered ? "is the rule's own configuration" : "is not the rule's configuration"}; the rule picks ${escape(study.selection.selected)}${study.selection.protocol_agrees ? ", as the protocol says" : `, but the protocol says ${escape(study.selection.protocol_gate_interval)}`}.`
    : "";
  return `<p class="muted" id="coverage">${chosen} Achieved coverage of the nominal ${Math.round(s.bootstrap.confidence * 100)} % intervals in this design, from <code>fabench simulate coverage</code> (${study.design.datasets.toLocaleString("en")} datasets × ${study.design.iterations} iterations per scenario, seed ${study.design.seed}).${range}${picked}</p>${cardTable(["scenario", ...methods.map(escape), `${escape(method)} type I at −${study.design.margin}`], rows)}`;
}

function tokenSection(s: Summary): string {
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

function breakdownSection(s: Summary): string {
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

function failureSection(s: Summary): string {
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

function judgeHtml(s: Summary): string {
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

function provenanceSection(s: Summary): string {
  const r = s.run;
  const rows: Array<[string, string]> = [
    ["protocol", `${s.protocol_id} ${s.protocol_sha256}`],
    ["plan slots", r.plan_slots_sha256],
    ["corpus tasks / file", `${r.corpus_tasks_sha256} / ${r.corpus_file_sha256}`],
    ["catalogs", r.catalogs.map((c) => `${c.size}: ${c.sha256}`).join(", ")],
    ["condition manifest", r.condition_manifest_sha256],
    ["router", `${r.router_id} ${r.router_config_sha256}`],
    ["system prompt", r.system_prompt_sha256],
    ["prerequisite lock", unlockText(r.unlocked_by)],
    ["agent", `${r.agent}${r.model ? ` ${r.model}` : ""} ${spacedJson(r.agent_settings)}`],
    [
      "models the provider reported (turns)",
      Object.entries(s.reported_models)
        .map(([m, n]) => `${m}: ${n}`)
        .join(", ") || "none reported",
    ],
    ["tokenizer", r.tokenizer],
    ["tool", `fabench ${r.tool_version}${r.git_revision ? ` @ ${r.git_revision}` : ""}`],
    ["metric versions", spacedJson(s.metric_versions)],
    [
      "bootstrap",
      `${s.bootstrap.iterations} iterations, seed ${s.bootstrap.seed}, ${s.bootstrap.generator}, ${s.bootstrap.cells} cells`,
    ],
    ["run files", s.run_files.map((f) => `${f.path} ${f.sha256}`).join(", ")],
  ];
  return `<h2 id="provenance">Provenance</h2><table class="provenance">${rows.map(([k, v]) => `<tr><td>${escape(k)}</td><td><code>${escape(v)}</code></td></tr>`).join("")}</table>`;
}

/** What opened the prerequisite lock for the run's answers, said plainly. */
function unlockText(unlock: Summary["run"]["unlocked_by"]): string {
  if (unlock === undefined) return "not recorded (a run file from an older fabench)";
  if (unlock === null) return "no lock applies (the reference agent is not answer inference)";
  if (unlock.gate_stage === null) return "no lock: the protocol has no gate stage (a pilot)";
  return `opened by ${unlock.conveyor_path} (sha256 ${unlock.conveyor_sha256}): ${unlock.gate_stage} recorded as satisfied`;
}

/** JSON on one line with a space after each comma and colon, so it wraps between entries. */
function spacedJson(value: unknown): string {
  // Indented JSON has line breaks only between tokens (a string's own are escaped): fold them.
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
}
