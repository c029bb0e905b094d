/**
 * The report's forest plot of the paired deltas against the baseline, its notes, and the footnote
 * on the interval method the gate reads and its simulated coverage.
 */
import { intervalChecks, type Protocol } from "../authoring/index.ts";
import { type CoverageStudy, METHODS, type Method, POOLED, statisticKey } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { cardTable, num } from "./html-kit.ts";
import { escape, type ForestRow, forestPlot } from "./svg.ts";

export function forestSection(s: Summary, protocol: Protocol): string {
  const rows: ForestRow[] = [];
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
      // Both bounds null is no interval at all, unless bootstrap-t ranked infinite replicates:
      // then it is unbounded on both sides.
      const infinite = method === "bootstrap_t" ? (i?.calibrated?.bootstrap_t.infinite ?? 0) : 0;
      const defined = calibrated && (calibrated.low !== null || calibrated.high !== null || infinite > 0);
      if (i)
        rows.push({
          label: `${condition} · ${metric}`,
          point: i.point,
          low: i.low,
          high: i.high,
          margin: threshold,
          passSide,
          ...(calibrated && defined ? { alt: { low: calibrated.low, high: calibrated.high } } : {}),
        });
    }
  const heading = `<h2 id="forest">Paired deltas against ${escape(protocol.baseline_condition)}</h2>`;
  if (rows.length === 0)
    return `${heading}<p class="muted" id="forest-empty">No condition beside ${escape(protocol.baseline_condition)} was run: there is no paired delta to plot.</p>`;
  const plot = forestPlot(rows, "Paired deltas with intervals");
  const narrow = forestPlot(rows, "Paired deltas with intervals", { layout: "narrow" });
  return `${heading}<p class="muted">Dots: point estimates; bars: ${Math.round(s.bootstrap.confidence * 100)} % intervals (${s.bootstrap.iterations.toLocaleString("en")} iterations, seed ${s.bootstrap.seed}, ${escape(s.bootstrap.generator)}); thin grey bars: the ${escape(s.gate.interval_method)} interval the interval verdict uses; dashed: the margin (${marginText(checks)}).</p>${plot.svg}${narrow.svg}${arrowNote(plot, method)}`;
}

/** Why an interval method can give an infinite bound, for the note under the plot. */
const UNBOUNDED_BECAUSE: Readonly<Record<string, string>> = {
  bootstrap_t:
    "bootstrap-t's studentised interval is unbounded when a resample's standard error is 0 (every drawn cell constant) while its estimate differs from the point estimate, so its t is ±∞",
};

/** The note under the forest plot, when some interval ends in an arrowhead at its edge. */
function arrowNote(plot: { unbounded: boolean; clipped: boolean }, method: string): string {
  if (!plot.unbounded && !plot.clipped) return "";
  const because = UNBOUNDED_BECAUSE[method] ?? `the ${method} interval has no finite bound on that side`;
  const unbounded = `the interval is unbounded on that side: ${escape(because)}`;
  const clipped = "the interval reaches beyond the plotted range";
  const text =
    plot.unbounded && plot.clipped ? `${unbounded}; or ${clipped}` : plot.unbounded ? unbounded : clipped;
  return `<p class="muted" id="forest-arrows">→ / ← : ${text}.</p>`;
}

/** "−2 pp for a, b; +1 pp for c": each threshold of the protocol's interval checks with its metrics. */
function marginText(checks: ReturnType<typeof intervalChecks>): string {
  const byThreshold = new Map<number, string[]>();
  for (const c of checks) byThreshold.set(c.threshold, [...(byThreshold.get(c.threshold) ?? []), c.metric]);
  const points = (t: number) => `${t < 0 ? "−" : "+"}${Math.abs(Math.round(t * 10000) / 100)} pp`;
  return [...byThreshold].map(([t, metrics]) => `${points(t)} for ${metrics.join(", ")}`).join("; ");
}

/**
 * Which interval the gate reads, the preregistered rule that chose it, and — from a
 * `simulate coverage --json` document — every method's simulated coverage with the gate method's
 * coverage range and worst type I error at the margin.
 */
export function coverageFootnote(s: Summary, study: CoverageStudy | undefined): string {
  const method = s.gate.interval_method;
  const rule = s.bootstrap.gate_interval_rule;
  const chosen = `The gate's interval verdict reads <code>${escape(method)}</code>, the method the preregistered rule picked (<code>statistics.gate_interval_rule</code>: coverage in [${rule.coverage_band.min}, ${rule.coverage_band.max}] and type I error at the margin ≤ ${rule.type_one_error_at_most} on ${rule.scenarios.length} scenarios, ${rule.min_datasets.toLocaleString("en")} datasets each; <code>fabench simulate coverage --select</code>).`;
  if (!study)
    return `<p class="muted" id="coverage">${chosen} Its simulated coverage and type I error, and every other method's: run <code>fabench simulate coverage --select --json</code> and pass it with <code>--coverage</code>.</p>`;
  const methods = METHODS;
  const rows = study.results.map((r) => [
    escape(r.scenario),
    ...methods.map((m) => num(r.methods[m]?.coverage, 3)),
    num(r.methods[method as Method]?.type_one_error, 3),
  ]);
  const own = study.results.map((r) => r.methods[method as Method]).filter((m) => m !== undefined);
  const range =
    own.length === 0
      ? ""
      : ` In these ${own.length} scenarios ${escape(method)} covers ${num(Math.min(...own.map((m) => m.coverage)), 3)}–${num(Math.max(...own.map((m) => m.coverage)), 3)} and passes a condition whose true delta is the margin at most ${num(Math.max(...own.map((m) => m.type_one_error)), 3)} of the time.`;
  const picked = study.selection
    ? ` That run ${study.selection.preregistered ? "is the rule's own configuration" : "is not the rule's configuration"}; the rule picks ${escape(study.selection.selected)}${study.selection.protocol_agrees ? ", as the protocol says" : `, but the protocol says ${escape(study.selection.protocol_gate_interval)}`}.`
    : "";
  return `<p class="muted" id="coverage">${chosen} Achieved coverage of the nominal ${Math.round(s.bootstrap.confidence * 100)} % intervals in this design, from <code>fabench simulate coverage</code> (${study.design.datasets.toLocaleString("en")} datasets × ${study.design.iterations} iterations per scenario, seed ${study.design.seed}).${range}${picked}</p>${cardTable(["scenario", ...methods.map(escape), `${escape(method)} type I at −${study.design.margin}`], rows)}`;
}
