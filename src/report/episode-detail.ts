/**
 * What one episode opens to in the report. An episode that did not pass opens in full: the request
 * and the answer form, every required fact hit or missed with its gold value, unit and accepted
 * sources beside what the agent gave and why it failed, the forbidden and unsupported facts, the
 * routes its condition showed with the router's ranks, the trajectory and the final answer. A pass
 * gets a compact view (its facts' verdicts, its number of calls and the answer), which keeps the page's size
 * in check: most episodes pass, and a trajectory's replies are what weighs.
 */
import type { Task } from "../authoring/index.ts";
import { episodeKey, taskSizeKey } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";
import { envelopeFacts, type FactView, factView, type RequiredRow } from "./episode-facts.ts";
import { routesSection } from "./episode-routes.ts";
import type { EpisodeRecord, EpisodeSources } from "./episode-sources.ts";
import { ANSWER_BYTES, cutBlock, trajectory } from "./episode-trajectory.ts";
import { escapeText } from "./html-kit.ts";
import { escape } from "./svg.ts";

type Episode = Summary["episode_scores"][number];

/** A value as the view shows it: a string bare, anything else as JSON. */
export const shownValue = (value: unknown) =>
  escape(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));

const codes = (ids: readonly string[]) => ids.map((id) => `<code>${escape(id)}</code>`).join(", ");

function requestSection(task: Task): string {
  const fields = task.answer_fields.map(
    (f) =>
      `<li><code>${escape(f.key)}</code> <span class="muted">${escape(f.kind)}${f.unit ? ` in ${escape(f.unit)}` : ""}</span> — ${escape(f.description)}</li>`,
  );
  return `<h4>Request</h4><pre class="request">${escapeText(task.query)}</pre><h4>Answer form</h4><ul>${fields.join("")}</ul>`;
}

function requiredItem(row: RequiredRow): string {
  const f = row.fact;
  const gold = `gold <strong>${shownValue(f.value)}</strong>${f.unit ? ` ${escape(f.unit)}` : ""}${row.units.length > 0 ? ` <span class="muted">(also ${escape(row.units.join(", "))})</span>` : ""}; sources ${codes(row.accepted)}`;
  const g = row.given;
  const given =
    g === null
      ? row.verdict === null
        ? "gave no fact with this key"
        : `gave fact ${row.verdict.index} (give --runs to see its value)`
      : `gave ${shownValue(g.value)}${g.unit ? ` ${escape(g.unit)}` : ""} from <code>${escape(g.source_id)}</code>`;
  const mark = row.hit
    ? '<span class="ok">✓ hit</span>'
    : `<span class="no">✗ missed: ${escape(row.why.join(", "))}</span>`;
  return `<li class="${row.hit ? "hit" : "miss"}">${mark} <code>${escape(f.key)}</code><br>${gold}<br>${given}</li>`;
}

function factsSection(view: FactView): string {
  const hits = view.required.filter((r) => r.hit).length;
  const required = `<h4>Required facts: ${hits} of ${view.required.length} recalled</h4><ul class="facts">${view.required.map(requiredItem).join("")}</ul>`;
  const given = (g: FactView["unsupported"][number]["given"]) =>
    g === null
      ? ""
      : ` = ${shownValue(g.value)}${g.unit ? ` ${escape(g.unit)}` : ""} from <code>${escape(g.source_id)}</code>`;
  const forbidden =
    view.forbidden.length === 0
      ? ""
      : `<h4 class="no">Forbidden facts emitted: ${view.forbidden.length}</h4><ul>${view.forbidden
          .map(
            (f) =>
              `<li>fact ${f.verdict.index} <code>${escape(f.verdict.key)}</code>${given(f.given)} — matches the forbidden ${f.matches.map((m) => `${shownValue(m.value)}${m.unit ? ` ${escape(m.unit)}` : ""}`).join(" or ")}</li>`,
          )
          .join("")}</ul>`;
  const unsupported =
    view.unsupported.length === 0
      ? ""
      : `<h4>Unsupported facts (licensed for no required fact): ${view.unsupported.length}</h4><ul>${view.unsupported
          .map(
            (f) =>
              `<li>fact ${f.verdict.index} <code>${escape(f.verdict.key)}</code>${given(f.given)} — ${escape(f.verdict.reason)}</li>`,
          )
          .join("")}</ul>`;
  return `${required}${forbidden}${unsupported}`;
}

/** The summary's own verdict per emitted fact: what the view shows without the corpus. */
function verdictTable(e: Episode): string {
  if (e.facts.length === 0) return '<p class="muted">no facts</p>';
  const rows = e.facts.map(
    (f) =>
      `<li><code>${escape(f.key)}</code> ${f.licensed ? '<span class="ok">✓</span>' : '<span class="no">✗</span>'} ${escape(f.reason)}</li>`,
  );
  return `<h4>Facts emitted: ${e.facts.length}</h4><ul class="facts">${rows.join("")}</ul>`;
}

function routeBlock(
  e: Episode,
  sources: EpisodeSources,
  task: Task | undefined,
  record: EpisodeRecord | undefined,
): string {
  if (sources.routes === undefined) return "";
  const entry = sources.routes.get(taskSizeKey(e));
  const reached = record ? Math.max(0, ...record.candidate_history.map((c) => c.stage)) : undefined;
  const required = task?.required_routes ?? Object.keys(entry?.required_route_ranks ?? {});
  return `<h4>Routes</h4>${routesSection(entry, { condition: e.condition, catalogSize: e.catalog_size, required, ...(reached === undefined ? {} : { reached }) })}`;
}

/** The full view of an episode that did not pass. */
export function failedDetail(e: Episode, sources: EpisodeSources): string {
  const task = sources.tasks?.get(e.semantic_task_id);
  const record = sources.records?.get(episodeKey(e));
  const parts = [
    task ? requestSection(task) : "",
    e.malformed_reason === null
      ? ""
      : `<p class="no">The final answer is not a valid envelope (${escape(e.malformed_reason)}): none of its facts was scored.</p>`,
    e.status === "error"
      ? `<p class="no">Infrastructure error: ${escape(e.error_code ?? "unknown")}.</p>`
      : "",
    task ? factsSection(factView(task, e, envelopeFacts(record?.final_text))) : verdictTable(e),
    routeBlock(e, sources, task, record),
    record
      ? `<h4>Trajectory</h4>${trajectory(record)}<h4>Final answer</h4>${cutBlock(record.final_text, ANSWER_BYTES)}`
      : '<p class="muted">The trajectory and the final answer need the run file: give --runs.</p>',
  ];
  return `<div class="episode-detail">${parts.join("")}</div>`;
}

/** The compact view of a pass: the verdicts, the calls on one line, the answer. */
export function passedDetail(e: Episode, sources: EpisodeSources): string {
  const record = sources.records?.get(episodeKey(e));
  const calls = record ? record.attempts.length : undefined;
  const line =
    calls === undefined
      ? ""
      : `<p class="muted">${calls} tool call${calls === 1 ? "" : "s"} over ${record?.turns.length ?? 0} turns.</p>`;
  const answer = record ? `<h4>Final answer</h4>${cutBlock(record.final_text, ANSWER_BYTES)}` : "";
  return `<div class="episode-detail">${verdictTable(e)}${line}${answer}</div>`;
}
