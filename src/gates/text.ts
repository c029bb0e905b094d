/**
 * The verdict in words, shared by the gate's text, `score`'s headline, the Markdown summary and the
 * HTML report, so they cannot say different things: the status, what blocks it and what the numbers
 * alone would say, whether the protocol is the preregistered one, and every check named by its metric.
 */
import { formatInterval, intervalNotes, shownInterval, type ShownInterval } from "../metrics/index.ts";
import type { CheckResult, ConditionVerdict, Gate } from "./verdict.ts";

/** Said wherever a verdict appears under a protocol that is not the bundled preregistration. */
export const NOT_PREREGISTERED =
  "NOT PREREGISTERED: this protocol is not the bundled manifests/preregistration.json — a pilot or exploratory result, never the claim";

/** What a check compares, named by its metric: `required_fact_recall Δ ≥ -0.02`. */
export function checkRule(c: CheckResult): { readonly shows: string; readonly need: string } {
  switch (c.rule) {
    case "delta_at_least":
      return { shows: "Δ", need: `Δ ≥ ${c.threshold}` };
    case "delta_at_most":
      return { shows: "Δ", need: `Δ ≤ ${c.threshold}` };
    case "delta_below":
      return { shows: "Δ", need: `Δ < ${c.threshold}` };
    case "value_at_least":
      return { shows: "level", need: `level ≥ ${c.threshold}` };
    case "ratio_at_most":
      return { shows: "ratio", need: `ratio to FULL ≤ ${c.threshold}` };
    case "total_at_most":
      return { shows: "total", need: `total ≤ ${c.threshold}` };
  }
}

/** The shown (feasible-range) percentile and gate intervals of a check, when it has them. */
export function checkIntervals(c: CheckResult): { ci95?: ShownInterval; gate?: ShownInterval } {
  const kind = c.rule === "value_at_least" ? "level" : "delta";
  return {
    ...(c.ci95 ? { ci95: shownInterval(c.metric, kind, c.ci95) } : {}),
    ...(c.ci95_gate ? { gate: shownInterval(c.metric, kind, c.ci95_gate) } : {}),
  };
}

/** Metrics of the checks a condition fails on point estimates. */
export function failedMetrics(v: ConditionVerdict): string[] {
  return Object.values(v.checks)
    .filter((c) => !c.passed)
    .map((c) => c.metric);
}

/** What the numbers alone say, whatever the prerequisite: "would PASS (SR-10)" or "would FAIL (SR-5: …; …)". */
export function onTheNumbers(g: Gate): string {
  const passing = Object.entries(g.conditions).filter(([, v]) => v.passed);
  if (g.any_deployable_condition_passed)
    return `would PASS (${passing.map(([c]) => c).join(", ")} passes every check)`;
  const reasons = Object.entries(g.conditions).map(
    ([c, v]) => `${c}: ${failedMetrics(v).join(", ") || "no failed check"}`,
  );
  if (!g.complete) reasons.unshift("incomplete run set");
  return `would FAIL (${reasons.join("; ")})`;
}

/** The one line that heads every rendering of a verdict. */
export function verdictLine(g: Gate): string {
  const stages = g.prerequisite.blocking.map((b) => b.stage);
  const head =
    g.status === "BLOCKED"
      ? `BLOCKED by ${[...new Set(stages)].join(", ")} — on the numbers: ${onTheNumbers(g)}`
      : `${g.status}${g.complete ? "" : " (incomplete run set: cannot pass)"}`;
  return g.preregistered ? head : `${head} — ${NOT_PREREGISTERED}`;
}

const num = (x: number | null) => (x === null ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));

export function renderGate(g: Gate): string {
  const lines = [`verdict: ${verdictLine(g)}`];
  if (!g.prerequisite.satisfied)
    lines.push("blocked by:", ...g.prerequisite.blocking.map((b) => `  ${b.stage}: ${b.reason}`));
  const shown: ShownInterval[] = [];
  for (const [condition, v] of Object.entries(g.conditions)) {
    lines.push(
      "",
      `${condition}: ${v.passed ? "passes" : "fails"} on point estimates; ${v.interval_passed ? "passes" : "fails"} with intervals`,
    );
    for (const c of Object.values(v.checks)) {
      const { shows, need } = checkRule(c);
      const { ci95, gate } = checkIntervals(c);
      shown.push(...[ci95, gate].filter((s) => s !== undefined));
      const shownValue = shows === "level" || shows === "total" ? c.value : c.delta;
      const intervals = `${ci95 ? ` ${formatInterval(ci95, (x) => num(x))}` : ""}${gate ? ` ${g.interval_method} ${formatInterval(gate, (x) => num(x))}` : ""}`;
      lines.push(
        `  ${c.passed ? "ok  " : "FAIL"} ${c.metric.padEnd(36)} ${shows.padEnd(5)} ${num(shownValue).padStart(9)}${intervals}  (${condition} ${num(c.value)}, FULL ${num(c.full)})  needs ${need}`,
      );
    }
  }
  const notes = intervalNotes(shown);
  if (notes.length > 0) lines.push("", ...notes);
  return `${lines.join("\n")}\n`;
}
