/** A short Markdown summary for a pull request. */
import { POOLED } from "../metrics/index.js";
const num = (v) => v === null || v === undefined ? "–" : Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(4);
export function renderMarkdown(s) {
    const g = s.gate;
    const lines = [`## fabench: **${g.status}**${s.complete ? "" : " (incomplete run set)"}`, ""];
    if (!g.prerequisite.satisfied)
        lines.push("Blocked by:", ...g.prerequisite.blocking.map((b) => `- ${b.stage}: ${b.reason}`), "");
    const models = Object.entries(s.reported_models);
    if (models.length > 1)
        lines.push(`**Warning:** the provider reported ${models.length} models (${models.map(([m, n]) => `${m}: ${n} turns`).join(", ")}).`, "");
    const conditions = Object.keys(g.conditions);
    lines.push(`| check | ${conditions.join(" | ")} |`, `|---|${conditions.map(() => "---").join("|")}|`);
    for (const name of Object.keys(Object.values(g.conditions)[0]?.checks ?? {}))
        lines.push(`| ${name} | ${conditions
            .map((c) => {
            const k = g.conditions[c]?.checks[name];
            return k
                ? `${k.passed ? "✅" : "❌"} ${num(k.delta ?? k.value)}${k.ci95 ? ` [${num(k.ci95[0])}, ${num(k.ci95[1])}]` : ""}${k.ci95_gate ? ` (${g.interval_method} [${k.ci95_gate[0] === null ? "−∞" : num(k.ci95_gate[0])}, ${k.ci95_gate[1] === null ? "+∞" : num(k.ci95_gate[1])}])` : ""}`
                : "–";
        })
            .join(" | ")} |`);
    lines.push(`| **verdict (point / interval)** | ${conditions.map((c) => `${g.conditions[c]?.passed ? "pass" : "fail"} / ${g.conditions[c]?.interval_passed ? "pass" : "fail"}`).join(" | ")} |`, "");
    lines.push("| condition | recall | tool-schema tokens | input tokens |", "|---|---|---|---|");
    for (const [condition, a] of Object.entries(s.aggregates[POOLED] ?? {}))
        lines.push(`| ${condition} | ${num(a.means["required_fact_recall"])} | ${num(a.means["tool_schema_tokens"])} | ${num(a.means["input_tokens"])} |`);
    lines.push("", `Agent \`${s.run.agent}${s.run.model ? ` ${s.run.model}` : ""}\`, ${s.episodes} episodes, bootstrap ${s.bootstrap.iterations} iterations (seed ${s.bootstrap.seed}); protocol \`${s.protocol_sha256.slice(0, 12)}\`, condition manifest \`${s.run.condition_manifest_sha256.slice(0, 12)}\`.`);
    return `${lines.join("\n")}\n`;
}
