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

/** Said once per verdict line when some conditions are not the preregistration's (a search condition). */
export const CONDITIONS_NOT_PREREGISTERED =
  "not conditions of the bundled manifests/preregistration.json: exploratory, never the claim";

/** The gate's conditions the preregistration does not name (none in a summary that does not say). */
export function notPreregisteredConditions(g: Gate): readonly string[] {
  return g.conditions_not_preregistered ?? [];
}

/** A condition's name as every verdict shows it: marked when the preregistration does not name it. */
export function conditionLabel(g: Gate, condition: string): string {
  return notPreregisteredConditions(g).includes(condition) ? `${condition} (not preregistered)` : condition;
}

/**
 * Below this required fact recall the baseline itself failed, and "no worse than the baseline" says
 * little: a condition that answers nothing is non-inferior to a baseline that answers nothing.
 * Presentation, not protocol: it never changes a verdict, a check or an exit code, only the words
 * beside them, so it lives here with those words rather than in the preregistration (whose hash
 * every run, summary and frozen artefact names). Half the required facts: a baseline below it
 * misses most of what the corpus asks for.
 */
export const BASELINE_FAILED_BELOW = 0.5;

/** The pooled required fact recall of the baseline, as the gate's checks read it (null: no such check, or undefined). */
export function baselineRecall(g: Gate): number | null {
  for (const v of Object.values(g.conditions))
    for (const c of Object.values(v.checks)) if (c.metric === "required_fact_recall") return c.full;
  return null;
}

/** The warning shown wherever a verdict is when the baseline's own recall is below {@link BASELINE_FAILED_BELOW}. */
export function baselineWarning(g: Gate): string | null {
  const recall = baselineRecall(g);
  if (recall === null || recall >= BASELINE_FAILED_BELOW) return null;
  // Rounded down, so a recall just under the threshold never reads as the threshold itself.
  const shown = (Math.floor(recall * 1000) / 1000).toFixed(3);
  return `WARNING: the FULL baseline's required fact recall is ${shown} (below ${BASELINE_FAILED_BELOW}): the baseline itself failed; non-inferiority against it says little`;
}

/** Whether a check compares against the baseline (a paired delta): what a failed baseline undermines. */
export function comparesToBaseline(c: CheckResult): boolean {
  return c.rule.startsWith("delta");
}

/** The conditions the gate reads that the runs do not hold (none in a summary that does not say). */
export function conditionsNotRun(g: Gate): readonly string[] {
  return g.conditions_not_run ?? [];
}

/**
 * Why conditions cannot be judged, when some were not run: the baseline missing (nothing to
 * compare against), no comparison condition at all (a FULL-only pilot), or which ones are missing.
 */
export function notRunReason(g: Gate): string | null {
  const missing = conditionsNotRun(g);
  if (missing.length === 0) return null;
  const baseline = missing.filter((c) => !(c in g.conditions));
  const deployable = missing.filter((c) => c in g.conditions);
  if (baseline.length > 0)
    return `the baseline ${baseline.join(", ")} was not run: nothing to compare against`;
  const names = deployable.join(", ");
  if (deployable.length === Object.keys(g.conditions).length)
    return `no comparison condition was run: ${names} ${deployable.length === 1 ? "is" : "are"} not in the run files`;
  return `not run: ${names}`;
}

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
    return `would PASS (${passing.map(([c]) => conditionLabel(g, c)).join(", ")} passes every check)`;
  const missing = conditionsNotRun(g);
  const notRun = notRunReason(g);
  const reasons = [
    ...(g.complete ? [] : ["incomplete run set"]),
    ...(notRun ? [notRun] : []),
    // Without the baseline every condition fails every check: the reason above says so once.
    ...(missing.some((c) => !(c in g.conditions))
      ? []
      : Object.entries(g.conditions)
          .filter(([c]) => !missing.includes(c))
          .map(([c, v]) => `${conditionLabel(g, c)}: ${failedMetrics(v).join(", ") || "no failed check"}`)),
  ];
  return `would FAIL (${reasons.join("; ")})`;
}

/** The one line that heads every rendering of a verdict. */
export function verdictLine(g: Gate): string {
  const stages = g.prerequisite.blocking.map((b) => b.stage);
  const head =
    g.status === "NOT_GATED"
      ? `NOT_GATED: ${g.not_gated ?? "a labelled variant"} — no verdict; its numbers are shown for comparison only`
      : g.status === "BLOCKED"
        ? `BLOCKED by ${[...new Set(stages)].join(", ")} — on the numbers: ${onTheNumbers(g)}`
        : `${g.status}${g.complete ? "" : ` (incomplete run set: cannot pass${notRunReason(g) ? `; ${notRunReason(g)}` : ""})`}`;
  const whole = g.preregistered ? head : `${head} — ${NOT_PREREGISTERED}`;
  const unnamed = notPreregisteredConditions(g);
  return unnamed.length === 0
    ? whole
    : `${whole} — NOT PREREGISTERED conditions: ${unnamed.join(", ")} (${CONDITIONS_NOT_PREREGISTERED})`;
}

const num = (x: number | null) => (x === null ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));

export function renderGate(g: Gate): string {
  const lines = [`verdict: ${verdictLine(g)}`];
  const warning = baselineWarning(g);
  if (warning) lines.push(warning);
  if (!g.prerequisite.satisfied)
    lines.push("blocked by:", ...g.prerequisite.blocking.map((b) => `  ${b.stage}: ${b.reason}`));
  const shown: ShownInterval[] = [];
  const missing = conditionsNotRun(g);
  for (const [condition, v] of Object.entries(g.conditions)) {
    if (missing.includes(condition)) {
      lines.push("", `${conditionLabel(g, condition)}: not run (no episode in the run files): cannot pass`);
      continue;
    }
    lines.push(
      "",
      `${conditionLabel(g, condition)}: ${v.passed ? "passes" : "fails"} on point estimates; ${v.interval_passed ? "passes" : "fails"} with intervals`,
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
