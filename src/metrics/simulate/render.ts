/** The text tables of `fabench simulate coverage` and `--select` (pure: results in, text out). */
import { METHODS, type ScenarioResult, type Selection } from "./schema.ts";

const f3 = (x: number) => x.toFixed(3);

export function renderCoverage(results: readonly ScenarioResult[], margin: number): string {
  const lines = [
    `scenario               true Δ   method              coverage  below  above  unbounded  mean width  P(lower ≥ −${margin})  type I at −${margin}  P(pass) at 0`,
  ];
  for (const r of results)
    for (const m of METHODS) {
      const x = r.methods[m];
      lines.push(
        `${r.scenario.padEnd(22)} ${r.true_delta.toFixed(3).padStart(6)}   ${m.padEnd(18)} ${f3(x.coverage).padStart(8)} ${f3(x.below).padStart(6)} ${f3(x.above).padStart(6)} ${f3(x.unbounded).padStart(10)} ${x.mean_width.toFixed(4).padStart(11)} ${f3(x.margin_pass_rate).padStart(16)} ${f3(x.type_one_error).padStart(15)} ${f3(x.power_at_zero).padStart(13)}`,
      );
    }
  return `${lines.join("\n")}\n`;
}

/** One line: does the protocol's gate_interval agree with the rule's pick? */
export function protocolLine(s: Selection): string {
  return s.protocol_agrees
    ? `protocol: statistics.gate_interval is ${s.protocol_gate_interval}, the rule's pick`
    : `protocol: statistics.gate_interval is ${s.protocol_gate_interval}, but the rule picks ${s.selected}`;
}

export function renderSelection(
  s: Selection,
  run: { datasets: number; iterations: number; seed: number; margin: number },
): string {
  const { rule } = s;
  const band = `[${rule.coverage_band.min}, ${rule.coverage_band.max}]`;
  const lines = [
    `gate interval rule: coverage in ${band} and type I at −${run.margin} ≤ ${rule.type_one_error_at_most} on every scenario; ${rule.scenarios.length} scenarios × ${run.datasets} datasets × ${run.iterations} bootstrap iterations, seed ${run.seed}`,
    s.preregistered
      ? "this run is the rule's preregistered configuration"
      : `this run is NOT the rule's preregistered configuration: ${s.deviations.join("; ")}`,
    "",
    `method              scenario               coverage  type I at −${run.margin}  P(pass) at 0  rule`,
  ];
  for (const m of s.methods) {
    for (const v of m.scenarios) {
      const why = v.passes
        ? "pass"
        : `FAIL (${[v.coverage_in_band ? null : "coverage", v.type_one_within_bound ? null : "type I"].filter((x) => x !== null).join(", ")})`;
      lines.push(
        `${m.method.padEnd(18)}  ${v.scenario.padEnd(22)} ${f3(v.coverage).padStart(8)} ${f3(v.type_one_error).padStart(15)} ${f3(v.power_at_zero).padStart(13)}  ${why}`,
      );
    }
    lines.push(
      `${m.method.padEnd(18)}  passes ${m.scenarios_passed}/${m.scenarios.length}; mean P(pass) at 0 ${f3(m.mean_power_at_zero)}; worst type I ${f3(m.worst_type_one_error)}`,
      "",
    );
  }
  lines.push(
    s.reason === "highest_power_among_passing"
      ? `the rule picks ${s.selected}: the highest mean P(pass) at 0 among the methods that pass every scenario`
      : `the rule picks ${s.selected}: no method passes every scenario, and it has the lowest worst-case type I (ties: mean P(pass) at 0)`,
    protocolLine(s),
  );
  return `${lines.join("\n")}\n`;
}
