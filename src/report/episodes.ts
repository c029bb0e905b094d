/**
 * The episode browser: one table row per episode (its outcome, recall, and — folded — the verdict
 * of every emitted fact and the final answer), inside a `<details>` closed by default, with
 * filters by condition, catalog size, stratum, language and outcome.
 *
 * The filters are radio buttons and CSS, no script: a rule per choice hides the rows that do not
 * match (`:has(input:checked)`), and a CSS counter says how many rows are shown. A browser without
 * `:has()` hides the filters and shows every row; the full table is always in the file.
 */
import type { Summary } from "../summary/index.ts";
import { failedDetail, passedDetail } from "./episode-detail.ts";
import { failSummary } from "./episode-facts.ts";
import type { EpisodeSources } from "./episode-sources.ts";
import { escape } from "./svg.ts";

type Episode = Summary["episode_scores"][number];

/** What became of an episode, for the outcome filter. */
export type Outcome = "pass" | "fail" | "malformed" | "error";

/**
 * `error`: the episode failed for infrastructure reasons; `malformed`: the answer envelope was
 * not valid; `pass`: every required fact recalled (recall 1, or no required fact) and no
 * unsupported or contradicting fact; `fail`: the rest.
 */
export function episodeOutcome(e: Episode): Outcome {
  if (e.status === "error") return "error";
  if (e.malformed_reason !== null) return "malformed";
  const m = e.metrics;
  const recalled = m["required_fact_recall"] === null || m["required_fact_recall"] === 1;
  const clean = !m["unsupported_fact_count"] && !m["contradiction_count"];
  return recalled && clean ? "pass" : "fail";
}

const OUTCOMES: readonly Outcome[] = ["pass", "fail", "malformed", "error"];

/** The filters: the row attribute each one reads, and the value of that attribute per episode. */
const FILTERS: ReadonlyArray<{ name: string; label: string; value: (e: Episode) => string }> = [
  { name: "condition", label: "condition", value: (e) => e.condition },
  { name: "catalog", label: "catalog size", value: (e) => String(e.catalog_size) },
  { name: "stratum", label: "stratum", value: (e) => e.answer_task_stratum },
  { name: "language", label: "language", value: (e) => e.language },
  { name: "outcome", label: "outcome", value: episodeOutcome },
];

/** A CSS string literal that cannot end the string or the `<style>` element, whatever `value` holds. */
function cssString(value: string): string {
  return `"${value.replace(/[^A-Za-z0-9_-]/gu, (c) => `\\${(c.codePointAt(0) as number).toString(16)} `)}"`;
}

/** The values a filter offers, in the order of first appearance (the summary's order: deterministic). */
function choices(episodes: readonly Episode[], value: (e: Episode) => string, name: string): string[] {
  const seen = [...new Set(episodes.map(value))];
  // Outcomes in their fixed order, the rest as the summary lists them.
  return name === "outcome" ? OUTCOMES.filter((o) => seen.includes(o)) : seen;
}

export interface EpisodeBrowser {
  readonly html: string;
  /** The filter rules, for the page's `<style>`. */
  readonly css: string;
}

export function episodeBrowser(s: Summary, sources: EpisodeSources = {}): EpisodeBrowser {
  const episodes = s.episode_scores;
  const filters = FILTERS.map((f) => ({ ...f, choices: choices(episodes, f.value, f.name) }));
  const css = [
    "#episode-browser>summary{font-weight:600}",
    ".filters{display:none;margin:.6rem 0}",
    "@supports selector(:has(a)){.filters{display:block}}",
    ".filters fieldset{border:0;margin:0;padding:.1rem 0}",
    ".filters legend{float:left;font-weight:600;width:7rem;padding:0}",
    // A flex box beside a float keeps clear of it: the choices wrap under each other, not under the legend.
    ".filters .choices{display:flex;flex-wrap:wrap;gap:.1rem .8rem}.filters label{white-space:nowrap}",
    ".episode-list{display:flex;flex-direction:column;counter-reset:ep-shown}",
    ".episode-list .shown{order:-1;margin:.3rem 0}.shown .count::before{content:counter(ep-shown)}",
    "tr.ep{counter-increment:ep-shown}table.episodes td{vertical-align:top}",
    "table.episodes td:last-child,table.episodes th:last-child,table.episodes td td{text-align:left}",
    // An opened episode: headings, lists of facts and turns, and replies that wrap (long JSON included).
    ".episode-detail h4{margin:.7rem 0 .2rem;font-size:14px}.episode-detail ul,.episode-detail ol{margin:.2rem 0;padding-left:1.3rem}",
    ".episode-detail li{margin:.15rem 0}.facts li.miss{border-left:3px solid #c33;padding-left:.4rem;list-style:none;margin-left:-1rem}",
    ".facts li.hit{list-style:none;margin-left:-1rem;padding-left:.4rem;border-left:3px solid #2a7}.why{color:#a33;font-weight:400}",
    ".more{color:#777;font-style:italic}pre.request{background:#f6f6f6;padding:.3rem .5rem}.reply pre{background:#f6f6f6;padding:.2rem .4rem}",
    // Anything in an opened episode may break anywhere (a URI, a hash, a long id), so no word sets
    // the cell's width and the table never needs its sideways scroll box.
    ".episode-detail{overflow-wrap:anywhere}table.episodes tr.ep>td{min-width:0}",
    // On a phone the filters' legends go above their choices and a long choice wraps, and each
    // episode is a card: its task on one line, its labelled cells on the next, its details below.
    "@media (max-width:760px){.filters legend{float:none;width:auto}.filters label{white-space:normal;overflow-wrap:anywhere}",
    "table.episodes,table.episodes tbody{display:block}table.episodes thead{display:none}",
    "table.episodes tr.ep{display:flex;flex-wrap:wrap;gap:0 .8rem;border-top:1px solid #ddd;padding:.3rem 0}",
    "table.episodes tr.ep>td{display:block;border:0;padding:0;text-align:left}table.episodes tr.ep>td:first-child,table.episodes tr.ep>td:last-child{flex-basis:100%}",
    'table.episodes tr.ep>td[data-label]::before{content:attr(data-label) " ";color:#777}}',
    ...filters.flatMap((f) =>
      f.choices.map(
        (v) =>
          `#episode-browser:has(input[name="ep-${f.name}"][value=${cssString(v)}]:checked) tr.ep:not([data-${f.name}=${cssString(v)}]){display:none}`,
      ),
    ),
  ].join("\n");
  const radios = (f: (typeof filters)[number]) =>
    `<fieldset><legend>${escape(f.label)}</legend><div class="choices"><label><input type="radio" name="ep-${f.name}" value="" checked> all</label>${f.choices
      .map((v) => `<label><input type="radio" name="ep-${f.name}" value="${escape(v)}"> ${escape(v)}</label>`)
      .join("")}</div></fieldset>`;
  const rows = episodes.map((e) => episodeRow(e, filters, sources));
  const notes = (sources.notes ?? []).map((n) => `<li>${escape(n)}</li>`).join("");
  const html = `<h2 id="episodes">Episodes</h2><p class="muted">One row per episode: its outcome (pass: every required fact recalled and nothing unsupported or contradicted; beside any other outcome, why), its recall and, folded, what it did: an episode that did not pass opens to its request, its required facts beside the gold, the routes its condition showed with the router's ranks and its trajectory; a pass to its facts' verdicts${sources.records ? " and the final answer" : " (give --runs to include the trajectories and the final answers)"}.</p>${notes ? `<ul id="episode-notes" class="muted">${notes}</ul>` : ""}<details id="episode-browser"><summary>Browse the ${episodes.length} episodes</summary><div class="filters">${filters.map(radios).join("")}</div><div class="episode-list"><div class="wide"><table class="episodes"><thead><tr><th>task</th><th>condition</th><th>catalog</th><th>trial</th><th>outcome</th><th>recall</th><th>details</th></tr></thead><tbody>${rows.join("")}</tbody></table></div><p class="shown muted"><span class="count"></span> of ${episodes.length} episodes shown</p></div></details>`;
  return { html, css };
}

type Filter = (typeof FILTERS)[number];

/** Beside an outcome that is not a pass: why, in a few words. */
function outcomeWhy(e: Episode, outcome: Outcome, sources: EpisodeSources): string {
  if (outcome === "malformed") return e.malformed_reason ?? "";
  if (outcome === "error") return e.error_code ?? "";
  if (outcome === "pass") return "";
  return failSummary(e, sources.tasks?.get(e.semantic_task_id)?.required_facts.length);
}

function episodeRow(e: Episode, filters: readonly Filter[], sources: EpisodeSources): string {
  const outcome = episodeOutcome(e);
  const why = outcomeWhy(e, outcome, sources);
  const recall = e.metrics["required_fact_recall"];
  const attributes = filters.map((f) => ` data-${f.name}="${escape(f.value(e))}"`).join("");
  const opened = outcome === "pass" ? passedDetail(e, sources) : failedDetail(e, sources);
  const label =
    outcome === "pass"
      ? `${e.facts.length} fact${e.facts.length === 1 ? "" : "s"}${sources.records ? " and the answer" : ""}`
      : "why";
  return `<tr class="ep"${attributes}><td><code>${escape(e.semantic_task_id)}</code></td><td>${escape(e.condition)}</td><td data-label="catalog">${e.catalog_size}</td><td data-label="trial">${e.trial}</td><td class="${outcome === "pass" ? "ok" : "no"}">${outcome}${why ? ` <span class="why">(${escape(why)})</span>` : ""}</td><td data-label="recall">${recall === null || recall === undefined ? "–" : recall.toFixed(2)}</td><td><details><summary>${label}</summary>${opened}</details></td></tr>`;
}
