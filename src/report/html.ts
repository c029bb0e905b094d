/**
 * The report: one self-contained static HTML file (inline CSS and SVG, no script, no network) —
 * the verdict with its blocking chain, the gate tables, a forest plot of the paired deltas,
 * tokens per condition, breakdowns, answer failures, an episode browser and the provenance.
 * It reads at a 1280 px window, at 800 and on a 390 px phone: long hashes, JSON and answers wrap,
 * the gate table and the episode list become one card per row on a narrow screen, each plot is
 * drawn twice (a wide and a narrow layout, one shown by window width) so its text never shrinks
 * below 10 px, and other wide tables scroll inside their own box.
 */
import type { Protocol } from "../authoring/index.ts";
import {
  baselineWarning,
  CONDITIONS_NOT_PREREGISTERED,
  NOT_PREREGISTERED,
  notPreregisteredConditions,
  notRunReason,
  onTheNumbers,
} from "../gates/index.ts";
import type { CoverageStudy } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { episodeBrowser } from "./episodes.ts";
import { coverageFootnote, forestSection } from "./html-forest.ts";
import type { EpisodeSources } from "./episode-sources.ts";
import { failedChecks, gateSection } from "./html-gate.ts";
import { CSS } from "./html-style.ts";
import { breakdownSection, failureSection, judgeHtml, tokenSection } from "./html-tables.ts";
import { searchSection } from "./html-search.ts";
import { escape } from "./svg.ts";

/** `protocol` is the one the summary was scored under (the caller checks its hash): the plot's margins come from its gate. */
export function renderHtml(
  summary: Summary,
  protocol: Protocol,
  sources?: EpisodeSources,
  coverage?: CoverageStudy,
): string {
  const g = summary.gate;
  const episodes = episodeBrowser(summary, sources);
  const sections = [
    header(summary),
    gateSection(summary),
    forestSection(summary, protocol),
    coverageFootnote(summary, coverage),
    tokenSection(summary),
    searchSection(summary),
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
    g.status === "NOT_GATED"
      ? `<strong id="not-gated">${escape(g.not_gated ?? "")}: no verdict, numbers for comparison only</strong>`
      : "",
    s.complete
      ? ""
      : `<strong>incomplete run set (${s.missing_episodes} episodes missing): the gate cannot pass</strong>`,
    // BLOCKED says it within the numbers above; otherwise it is said here.
    g.status !== "BLOCKED" && notRunReason(g)
      ? `<strong id="not-run">${escape(notRunReason(g) ?? "")}</strong>`
      : "",
  ].filter((part) => part !== "");
  const warning = baselineWarning(g);
  const unnamed = notPreregisteredConditions(g);
  const labelled = !g.preregistered || unnamed.length > 0;
  const lines = [
    `<h1>fabench report — ${escape(s.protocol_id)}${labelled ? ' <span class="pilot">not preregistered</span>' : ""}</h1>`,
    g.preregistered ? "" : `<p id="not-preregistered" class="pilot-note">${escape(NOT_PREREGISTERED)}.</p>`,
    unnamed.length === 0
      ? ""
      : `<p id="conditions-not-preregistered" class="pilot-note">NOT PREREGISTERED conditions: ${escape(unnamed.join(", "))} — ${escape(CONDITIONS_NOT_PREREGISTERED)}.</p>`,
    identityLine(s),
    `<p id="verdict">Verdict: ${verdict.join(" ")}</p>`,
    failedChecks(s),
    warning ? `<p id="baseline-warning" class="warn">⚠ ${escape(warning)}.</p>` : "",
    g.prerequisite.satisfied
      ? ""
      : `<p>Blocked by the prerequisite chain:</p><ul>${g.prerequisite.blocking.map((b) => `<li><strong>${escape(b.stage)}</strong>: ${escape(b.reason)}</li>`).join("")}</ul>`,
    `<p class="muted">Agent <code>${escape(s.run.agent)}</code>${s.run.model ? ` model <code>${escape(s.run.model)}</code>` : ""}; ${s.episodes} episodes; ${s.infrastructure_errors.total} infrastructure errors. The point-estimate rule is the protocol's verdict; the interval rule is reported beside it.</p>`,
  ];
  return `<header id="decision">${lines.filter((line) => line !== "").join("\n")}</header>`;
}

/** What was run: the protocol (a pilot said so), the router, the agent and model, the catalog sizes. */
function identityLine(s: Summary): string {
  const r = s.run;
  // `pilot init` names its protocol with this suffix (as src/world reads it too).
  const pilot = s.protocol_id.endsWith("-pilot") ? " PILOT" : "";
  const label = s.preregistered ? "" : `${pilot} <span class="pilot">not preregistered</span>`;
  const parts = [
    `protocol <code>${escape(s.protocol_id)}</code>${label}`,
    `router <code>${escape(r.router_id)}</code> <code title="router config sha256">${escape(r.router_config_sha256.slice(0, 12))}</code>`,
    `agent <code>${escape(r.agent)}</code>${r.model ? ` model <code>${escape(r.model)}</code>` : ""}`,
    `catalog sizes ${escape(r.catalogs.map((c) => c.size).join(", "))}`,
  ];
  return `<p id="run-identity">${parts.join(" · ")}</p>`;
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
