/** The few lines `score` prints: what was written, pooled means per condition, and the gate's status. */
import { baselineWarning, verdictLine } from "../gates/index.ts";
import { POOLED } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";

export function renderHeadline(summary: Summary, out: string): string {
  const pooled = summary.aggregates[POOLED] ?? {};
  const models = Object.keys(summary.reported_models);
  const lines = [
    `wrote ${out}: ${summary.episodes} episodes${summary.complete ? "" : " (INCOMPLETE)"}, ${summary.infrastructure_errors.total} infrastructure error(s)`,
  ];
  if (models.length > 1)
    lines.push(
      `WARNING: the provider reported ${models.length} models (${models.join(", ")}); scored as one run because --allow-mixed-models was given`,
    );
  lines.push("", "pooled means        recall  numeric  unit   provenance  unsupported  schema tokens");
  for (const [condition, a] of Object.entries(pooled)) {
    const f = (m: string, digits = 3) =>
      a.means[m] === null || a.means[m] === undefined ? "–" : (a.means[m] as number).toFixed(digits);
    lines.push(
      `${condition.padEnd(18)}  ${f("required_fact_recall").padStart(6)}  ${f("numeric_value_accuracy").padStart(7)}  ${f("unit_accuracy").padStart(5)}  ${f("provenance_accuracy").padStart(10)}  ${f("unsupported_fact_rate").padStart(11)}  ${f("tool_schema_tokens", 0).padStart(13)}`,
    );
  }
  lines.push("", `gate: ${verdictLine(summary.gate)}`);
  const warning = baselineWarning(summary.gate);
  if (warning) lines.push(warning);
  return `${lines.join("\n")}\n`;
}
