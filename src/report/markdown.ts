/** A short Markdown summary for a pull request. */
import {
  baselineWarning,
  checkIntervals,
  checkRule,
  comparesToBaseline,
  conditionLabel,
  conditionsNotRun,
  NOT_PREREGISTERED,
  notPreregisteredConditions,
  verdictLine,
} from "../gates/index.ts";
import {
  formatInterval,
  intervalNotes,
  isSearchCondition,
  POOLED,
  type ShownInterval,
} from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { JUDGE_TITLE, judgeNotes, judgeRows, judgeSentences } from "./judge.ts";

const num = (v: number | null | undefined) =>
  v === null || v === undefined ? "–" : Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(4);

export function renderMarkdown(s: Summary): string {
  const g = s.gate;
  const labelled = !g.preregistered || notPreregisteredConditions(g).length > 0;
  const lines = [`## fabench: **${g.status}**${labelled ? " — not preregistered" : ""}`, ""];
  lines.push(`**Verdict:** ${verdictLine(g)}`, "");
  const warning = baselineWarning(g);
  if (warning) lines.push(`> ⚠️ **${warning}.**`, "");
  if (!g.preregistered) lines.push(`> **${NOT_PREREGISTERED}.**`, "");
  if (!g.prerequisite.satisfied)
    lines.push("Blocked by:", ...g.prerequisite.blocking.map((b) => `- ${b.stage}: ${b.reason}`), "");
  const models = Object.entries(s.reported_models);
  if (models.length > 1)
    lines.push(
      `**Warning:** the provider reported ${models.length} models (${models.map(([m, n]) => `${m}: ${n} turns`).join(", ")}).`,
      "",
    );
  const conditions = Object.keys(g.conditions);
  const missing = conditionsNotRun(g);
  const shown: ShownInterval[] = [];
  lines.push(
    `| check | needs | ${conditions.map((c) => conditionLabel(g, c)).join(" | ")} |`,
    `|---|---|${conditions.map(() => "---").join("|")}|`,
  );
  for (const name of Object.keys(Object.values(g.conditions)[0]?.checks ?? {})) {
    const first = Object.values(g.conditions)[0]?.checks[name];
    if (!first) continue;
    const cells = conditions.map((c) => {
      const k = g.conditions[c]?.checks[name];
      if (!k) return "–";
      if (missing.includes(c)) return "not run";
      const { shows } = checkRule(k);
      const { ci95, gate } = checkIntervals(k);
      shown.push(...[ci95, gate].filter((x) => x !== undefined));
      const value = shows === "level" || shows === "total" ? k.value : k.delta;
      // A pass against a failed baseline is marked, never a bare ✅ (the warning above says why).
      const mark = k.passed ? (warning && comparesToBaseline(k) ? "⚠️✅" : "✅") : "❌";
      return `${mark} ${num(value)}${ci95 ? ` ${formatInterval(ci95, num)}` : ""}${gate ? ` (${g.interval_method} ${formatInterval(gate, num)})` : ""}`;
    });
    lines.push(`| ${first.metric} | ${checkRule(first).need} | ${cells.join(" | ")} |`);
  }
  lines.push(
    `| **verdict (point / interval)** | | ${conditions.map((c) => (missing.includes(c) ? "not run" : `${g.conditions[c]?.passed ? "pass" : "fail"} / ${g.conditions[c]?.interval_passed ? "pass" : "fail"}`)).join(" | ")} |`,
    "",
  );
  const notes = intervalNotes(shown);
  if (notes.length > 0) lines.push(...notes.map((n) => `- ${n}`), "");
  lines.push(...conditionTable(s));
  lines.push(...judgeMarkdown(s));
  lines.push(
    "",
    `Agent \`${s.run.agent}${s.run.model ? ` ${s.run.model}` : ""}\`, ${s.episodes} episodes, bootstrap ${s.bootstrap.iterations} iterations (seed ${s.bootstrap.seed}); protocol \`${s.protocol_id}\` \`${s.protocol_sha256.slice(0, 12)}\` (${s.preregistered ? "preregistered" : "not preregistered"}), condition manifest \`${s.run.condition_manifest_sha256.slice(0, 12)}\`.`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * Pooled means per condition; when a search condition was scored, its searches per episode and
 * the share of episodes with a search beside the routers (– for a router, which cannot search).
 */
function conditionTable(s: Summary): string[] {
  const pooled = Object.entries(s.aggregates[POOLED] ?? {});
  const searching = pooled.some(([, a]) => isSearchCondition(a.means));
  const lines = [
    `| condition | recall | tool-schema tokens | input tokens |${searching ? " searches / episode | episodes with a search |" : ""}`,
    `|---|---|---|---|${searching ? "---|---|" : ""}`,
  ];
  for (const [condition, a] of pooled) {
    const search = searching ? ` ${num(a.means["search_count"])} | ${num(a.means["searched"])} |` : "";
    lines.push(
      `| ${conditionLabel(s.gate, condition)} | ${num(a.means["required_fact_recall"])} | ${num(a.means["tool_schema_tokens"])} | ${num(a.means["input_tokens"])} |${search}`,
    );
  }
  return lines;
}

/** The secondary judge's section, after the gate and the metrics; nothing when the summary has none. */
function judgeMarkdown(s: Summary): string[] {
  const judge = s.judge;
  if (!judge) return [];
  const rows = judgeRows(s, judge);
  const text = judgeSentences(judge);
  const rating = (v: number | null) => (v === null ? "–" : v.toFixed(2));
  const delta = (v: number | null) => (v === null ? "–" : `${v < 0 ? "−" : "+"}${Math.abs(v).toFixed(2)}`);
  const lines = [
    "",
    `### ${JUDGE_TITLE}`,
    "",
    `Judges (lines): ${text.judges}. ${text.counts}`,
    "",
    `| condition | catalog | judged | ${judge.dimensions.map((d) => `${d.id} (${d.min}–${d.max}) | ${d.id} Δ vs ${judge.baseline}`).join(" | ")} |`,
    `|---|---|---|${judge.dimensions.map(() => "---|---").join("|")}|`,
    ...rows.map(
      (r) =>
        `| ${r.condition} | ${r.selection} | ${r.judged} | ${r.cells
          .map(
            (c) =>
              `${rating(c.mean)} | ${c.delta === null ? "" : `${delta(c.delta.point)}${c.delta.interval ? ` ${formatInterval(c.delta.interval, (x) => x.toFixed(2))}` : ""}`}`,
          )
          .join(" | ")} |`,
    ),
    "",
    `Δ: paired delta against ${judge.baseline}, ${s.bootstrap.gate_interval} ${Math.round(s.bootstrap.confidence * 100)} % interval from the summary's task-cluster bootstrap.`,
  ];
  const notes = judgeNotes(rows);
  if (notes.length > 0) lines.push("", ...notes.map((n) => `- ${n}`));
  lines.push("", text.factual);
  return lines;
}
