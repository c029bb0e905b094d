/**
 * The report: one self-contained static HTML file (inline CSS and SVG, no script, no network) —
 * the verdict with its blocking chain, the gate tables, a forest plot of the paired deltas,
 * tokens per condition, breakdowns, answer failures, an episode browser and the provenance.
 */
import { intervalChecks } from "../authoring/index.js";
import { episodeKey } from "../core/index.js";
import { METHODS, POOLED, statisticKey } from "../metrics/index.js";
import { barChart, escape, forestPlot } from "./svg.js";
const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.6rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;color:#fff;font-weight:700}
.PASS{background:#2a7}.FAIL{background:#c33}.BLOCKED{background:#b70}.ok{color:#2a7}.no{color:#c33}
code{font-size:12px}details{margin:.2rem 0}summary{cursor:pointer}.muted{color:#777}`;
const num = (v, digits = 4) => v === null || v === undefined ? "–" : Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(digits);
/** A gate bound is null beside a defined estimate only when the interval is unbounded on that side. */
const gateBound = (v, side) => v === null ? (side === "low" ? "−∞" : "+∞") : num(v);
/** `protocol` is the one the summary was scored under (the caller checks its hash): the plot's margins come from its gate. */
export function renderHtml(summary, protocol, finalTexts, coverage) {
    const g = summary.gate;
    const sections = [
        `<h1>fabench report — ${escape(summary.protocol_id)}</h1>`,
        `<p id="verdict">Verdict: <span class="verdict ${g.status}">${g.status}</span>${summary.complete ? "" : ` <strong>incomplete run set (${summary.missing_episodes} episodes missing): the gate cannot pass</strong>`}</p>`,
        g.prerequisite.satisfied
            ? ""
            : `<p>Blocked by the prerequisite chain:</p><ul>${g.prerequisite.blocking.map((b) => `<li><strong>${escape(b.stage)}</strong>: ${escape(b.reason)}</li>`).join("")}</ul>`,
        `<p class="muted">Agent <code>${escape(summary.run.agent)}</code>${summary.run.model ? ` model <code>${escape(summary.run.model)}</code>` : ""}; ${summary.episodes} episodes; ${summary.infrastructure_errors.total} infrastructure errors. The point-estimate rule is the protocol's verdict; the interval rule is reported beside it.</p>`,
        gateSection(summary),
        forestSection(summary, protocol),
        coverageFootnote(summary, coverage),
        tokenSection(summary),
        breakdownSection(summary),
        failureSection(summary),
        episodeSection(summary, finalTexts),
        provenanceSection(summary),
    ];
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fabench report — ${escape(g.status)}</title><style>${CSS}</style></head><body>${sections.join("\n")}</body></html>\n`;
}
function gateTable(conditions) {
    const checks = Object.keys(Object.values(conditions)[0]?.checks ?? {});
    const head = `<tr><th>check</th>${Object.keys(conditions)
        .map((c) => `<th>${escape(c)}</th>`)
        .join("")}</tr>`;
    const body = checks.map((name) => {
        const cells = Object.values(conditions).map((v) => {
            const c = v.checks[name];
            if (!c)
                return "<td>–</td>";
            const ci = c.ci95 ? ` <span class="muted">[${num(c.ci95[0])}, ${num(c.ci95[1])}]</span>` : "";
            const gateCi = c.ci95_gate
                ? ` <span class="muted">gate [${gateBound(c.ci95_gate[0], "low")}, ${gateBound(c.ci95_gate[1], "high")}]</span>`
                : "";
            return `<td class="${c.passed ? "ok" : "no"}">${c.passed ? "✓" : "✗"} ${num(c.delta ?? c.value)}${ci}${gateCi}</td>`;
        });
        return `<tr><td>${escape(name)}</td>${cells.join("")}</tr>`;
    });
    const verdicts = `<tr><th>point-estimate verdict</th>${Object.values(conditions)
        .map((v) => `<th class="${v.passed ? "ok" : "no"}">${v.passed ? "pass" : "fail"}</th>`)
        .join("")}</tr><tr><th>interval verdict</th>${Object.values(conditions)
        .map((v) => `<th class="${v.interval_passed ? "ok" : "no"}">${v.interval_passed ? "pass" : "fail"}</th>`)
        .join("")}</tr>`;
    return `<table>${head}${body.join("")}${verdicts}</table>`;
}
function gateSection(s) {
    const perCatalog = Object.entries(s.gate.per_catalog)
        .map(([size, conditions]) => `<details><summary>catalog size ${escape(size)}</summary>${gateTable(conditions)}</details>`)
        .join("");
    return `<h2 id="gate">Gate, pooled over catalog sizes</h2><p class="muted">Each cell: the paired delta against FULL (or the value, ratio or total the check uses), with its preregistered ${escape(s.bootstrap.interval)} ${Math.round(s.bootstrap.confidence * 100)} % interval and, marked "gate", the ${escape(s.gate.interval_method)} interval the interval verdict uses.</p>${gateTable(s.gate.conditions)}${perCatalog}`;
}
function forestSection(s, protocol) {
    const rows = [];
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
            if (i)
                rows.push({
                    label: `${condition} · ${metric}`,
                    point: i.point,
                    low: i.low,
                    high: i.high,
                    margin: threshold,
                    passSide,
                    ...(calibrated ? { alt: { low: calibrated.low, high: calibrated.high } } : {}),
                });
        }
    return `<h2 id="forest">Paired deltas against ${escape(protocol.baseline_condition)}</h2><p class="muted">Dots: point estimates; bars: ${Math.round(s.bootstrap.confidence * 100)} % intervals (${s.bootstrap.iterations.toLocaleString("en")} iterations, seed ${s.bootstrap.seed}, ${escape(s.bootstrap.generator)}); thin grey bars: the ${escape(s.gate.interval_method)} interval the interval verdict uses; dashed: the margin (${marginText(checks)}).</p>${forestPlot(rows, "Paired deltas with intervals")}`;
}
/** "−2 pp for a, b; +1 pp for c": each threshold of the protocol's interval checks with its metrics. */
function marginText(checks) {
    const byThreshold = new Map();
    for (const c of checks)
        byThreshold.set(c.threshold, [...(byThreshold.get(c.threshold) ?? []), c.metric]);
    const points = (t) => `${t < 0 ? "−" : "+"}${Math.abs(Math.round(t * 10000) / 100)} pp`;
    return [...byThreshold].map(([t, metrics]) => `${points(t)} for ${metrics.join(", ")}`).join("; ");
}
function coverageFootnote(s, study) {
    if (!study)
        return `<p class="muted">Achieved coverage of each interval method: run <code>fabench simulate coverage --json</code> and pass it with <code>--coverage</code>.</p>`;
    const methods = METHODS;
    const rows = study.results.map((r) => `<tr><td>${escape(r.scenario)}</td>${methods.map((m) => `<td>${num(r.methods[m]?.coverage, 3)}</td>`).join("")}</tr>`);
    return `<p class="muted" id="coverage">Achieved coverage of the nominal ${Math.round(s.bootstrap.confidence * 100)} % intervals in this design, from <code>fabench simulate coverage</code> (${study.design.datasets} datasets × ${study.design.iterations} iterations per scenario, seed ${study.design.seed}); the gate's interval verdict uses ${escape(s.gate.interval_method)}.</p><table><tr><th>scenario</th>${methods.map((m) => `<th>${escape(m)}</th>`).join("")}</tr>${rows.join("")}</table>`;
}
function tokenSection(s) {
    const groups = Object.entries(s.aggregates)
        .filter(([selection]) => selection !== POOLED)
        .flatMap(([size, conditions]) => Object.entries(conditions).map(([condition, a]) => ({
        label: `${condition} @ ${size}`,
        values: [
            { series: "input tokens", value: a.means["input_tokens"] ?? 0 },
            { series: "tool-schema tokens", value: a.means["tool_schema_tokens"] ?? 0 },
        ],
    })));
    return `<h2 id="tokens">Tokens per episode</h2>${barChart(groups, "Mean input and tool-schema tokens per episode")}`;
}
function breakdownSection(s) {
    const table = (title, groups) => {
        const conditions = Object.keys(Object.values(groups)[0]?.deltas ?? {});
        const head = `<tr><th>${title}</th><th>tasks</th>${conditions.map((c) => `<th>${escape(c)} recall Δ</th>`).join("")}</tr>`;
        const interval = (b, c) => {
            const i = b.delta_intervals[c]?.["required_fact_recall"];
            const g = method === "percentile" ? i : i?.calibrated?.[method];
            return g && i?.point !== null
                ? ` <span class="muted">[${gateBound(g.low, "low")}, ${gateBound(g.high, "high")}]</span>`
                : "";
        };
        const rows = Object.entries(groups).map(([name, b]) => `<tr><td>${escape(name)}</td><td>${b.tasks}</td>${conditions.map((c) => `<td>${num(b.deltas[c]?.["required_fact_recall"])}${interval(b, c)}</td>`).join("")}</tr>`);
        return `<table>${head}${rows.join("")}</table>`;
    };
    const method = s.bootstrap.gate_interval;
    return `<h2 id="breakdowns">By language and by stratum</h2><p class="muted">Paired recall delta per group, with its ${escape(method)} interval from a bootstrap of the group's own tasks (diagnostics: a group holds a sixth of the tasks, so these intervals are wide; the gate reads the whole benchmark).</p>${table("language", s.breakdowns.by_language)}${table("stratum", s.breakdowns.by_stratum)}`;
}
function failureSection(s) {
    const pooled = s.aggregates[POOLED] ?? {};
    const rows = Object.entries(pooled).map(([condition, a]) => {
        const reasons = Object.entries(a.malformed_reasons)
            .map(([r, n]) => `${escape(r)} ${n}`)
            .join(", ") || "none";
        return `<tr><td>${escape(condition)}</td><td>${num(a.means["envelope_valid"])}</td><td>${reasons}</td><td>${a.totals["unsupported_fact_count"] ?? 0}</td><td>${a.totals["contradiction_count"] ?? 0}</td><td>${num(a.means["initial_required_route_recall"])}</td><td>${num(a.means["recovered"])}</td><td>${a.totals["infrastructure_error"] ?? 0}</td></tr>`;
    });
    return `<h2 id="failures">Answer failures and router diagnostics</h2><table><tr><th>condition</th><th>valid envelopes</th><th>malformed reasons</th><th>unsupported facts</th><th>contradictions</th><th>initial required-route recall</th><th>recovery rate</th><th>infrastructure errors</th></tr>${rows.join("")}</table>`;
}
function episodeSection(s, finalTexts) {
    const byTask = new Map();
    for (const e of s.episode_scores)
        byTask.set(e.semantic_task_id, [...(byTask.get(e.semantic_task_id) ?? []), e]);
    const tasks = [...byTask].map(([task, episodes]) => {
        const items = episodes.map((e) => {
            const facts = e.facts
                .map((f) => `<tr><td>${escape(f.key)}</td><td>${f.licensed ? "✓" : "✗"}</td><td>${escape(f.reason)}</td></tr>`)
                .join("");
            const text = finalTexts?.get(episodeKey(e));
            return `<details><summary>${escape(e.condition)} @ ${e.catalog_size}, trial ${e.trial}: recall ${num(e.metrics["required_fact_recall"], 2)}${e.malformed_reason ? `, malformed (${escape(e.malformed_reason)})` : ""}${e.status === "error" ? `, error ${escape(e.error_code ?? "")}` : ""}</summary>${facts ? `<table><tr><th>fact</th><th>licensed</th><th>verdict</th></tr>${facts}</table>` : "<p class=muted>no facts</p>"}${text !== undefined ? `<pre>${escape(text)}</pre>` : ""}</details>`;
        });
        return `<details><summary><code>${escape(task)}</code></summary>${items.join("")}</details>`;
    });
    return `<h2 id="episodes">Episodes</h2><p class="muted">Task → condition → the verdict of every emitted fact${finalTexts ? " and the final answer" : " (give --runs to include the final answers)"}.</p>${tasks.join("")}`;
}
function provenanceSection(s) {
    const r = s.run;
    const rows = [
        ["protocol", `${s.protocol_id} ${s.protocol_sha256}`],
        ["plan slots", r.plan_slots_sha256],
        ["corpus tasks / file", `${r.corpus_tasks_sha256} / ${r.corpus_file_sha256}`],
        ["catalogs", r.catalogs.map((c) => `${c.size}: ${c.sha256}`).join(", ")],
        ["condition manifest", r.condition_manifest_sha256],
        ["router", `${r.router_id} ${r.router_config_sha256}`],
        ["system prompt", r.system_prompt_sha256],
        ["agent", `${r.agent}${r.model ? ` ${r.model}` : ""} ${JSON.stringify(r.agent_settings)}`],
        [
            "models the provider reported (turns)",
            Object.entries(s.reported_models)
                .map(([m, n]) => `${m}: ${n}`)
                .join(", ") || "none reported",
        ],
        ["tokenizer", r.tokenizer],
        ["tool", `fabench ${r.tool_version}${r.git_revision ? ` @ ${r.git_revision}` : ""}`],
        ["metric versions", JSON.stringify(s.metric_versions)],
        [
            "bootstrap",
            `${s.bootstrap.iterations} iterations, seed ${s.bootstrap.seed}, ${s.bootstrap.generator}, ${s.bootstrap.cells} cells`,
        ],
        ["run files", s.run_files.map((f) => `${f.path} ${f.sha256}`).join(", ")],
    ];
    return `<h2 id="provenance">Provenance</h2><table>${rows.map(([k, v]) => `<tr><td>${escape(k)}</td><td><code>${escape(v)}</code></td></tr>`).join("")}</table>`;
}
