/** The few lines `score` prints: what was written, pooled means per condition, and the gate's status. */
import {
  baselineWarning,
  CONDITIONS_NOT_PREREGISTERED,
  notPreregisteredConditions,
  verdictLine,
} from "../gates/index.ts";
import { isSearchCondition, POOLED } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";

/** Marks a condition the preregistration does not name, in tables too narrow for the words. */
const UNNAMED_MARK = " *";

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
  // Search columns only when a search condition was scored, so a routers-only headline is as it was.
  const searching = Object.values(pooled).some((a) => isSearchCondition(a.means));
  const unnamed = notPreregisteredConditions(summary.gate);
  const name = (c: string) => `${c}${unnamed.includes(c) ? UNNAMED_MARK : ""}`;
  const width = Math.max(18, ...Object.keys(pooled).map((c) => name(c).length));
  lines.push(
    "",
    `${"pooled means".padEnd(width)}  recall  numeric  unit   provenance  unsupported  schema tokens${searching ? "  searches  with a search" : ""}`,
  );
  for (const [condition, a] of Object.entries(pooled)) {
    const f = (m: string, digits = 3) =>
      a.means[m] === null || a.means[m] === undefined ? "–" : (a.means[m] as number).toFixed(digits);
    const search = searching ? `  ${f("search_count", 2).padStart(8)}  ${f("searched").padStart(13)}` : "";
    lines.push(
      `${name(condition).padEnd(width)}  ${f("required_fact_recall").padStart(6)}  ${f("numeric_value_accuracy").padStart(7)}  ${f("unit_accuracy").padStart(5)}  ${f("provenance_accuracy").padStart(10)}  ${f("unsupported_fact_rate").padStart(11)}  ${f("tool_schema_tokens", 0).padStart(13)}${search}`,
    );
  }
  if (searching)
    lines.push("searches: mean searches per episode; with a search: the share of episodes with at least one");
  if (unnamed.length > 0)
    lines.push(`${UNNAMED_MARK.trim()} not preregistered: ${CONDITIONS_NOT_PREREGISTERED}`);
  lines.push("", `gate: ${verdictLine(summary.gate)}`);
  const warning = baselineWarning(summary.gate);
  if (warning) lines.push(warning);
  return `${lines.join("\n")}\n`;
}
