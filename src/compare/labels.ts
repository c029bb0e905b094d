/**
 * The words a comparison is said in, shared by the text and the HTML so they cannot disagree:
 * what it is (B − A, not a gate), the not-preregistered label wherever "excludes 0" could read as a
 * verdict, who A and B are, and the ranks in brief.
 */
import { CONDITIONS_NOT_PREREGISTERED, NOT_PREREGISTERED } from "../gates/index.ts";
import { POOLED } from "../metrics/index.ts";
import { summarizeRanks } from "./ranks.ts";
import type { Comparison, Side } from "./schema.ts";

const short = (sha: string) => `${sha.slice(0, 12)}…`;

export function sideLine(name: "A" | "B", s: Side): string {
  return `${name}: ${s.summary} — router ${s.router_id} (config ${short(s.router_config_sha256)}), condition manifest ${short(s.condition_manifest_sha256)}, agent ${s.agent}${s.model ? ` model ${s.model}` : ""}, ${s.trials} trial(s), ${s.episodes} episodes${s.complete ? "" : " (incomplete run set)"}`;
}

/** The label a verdict-like statement carries under a protocol that is not the preregistration. */
export function pilotLabel(c: Comparison): string | null {
  return c.preregistered ? null : NOT_PREREGISTERED;
}

export function pairingLine(c: Comparison): string {
  const p = c.pairing;
  const left = p.only_in_a + p.only_in_b;
  return `paired: ${p.paired} episode pairs by (task, catalog size, condition, trial) over ${p.tasks} tasks; ${left === 0 ? "none left out" : `left out (no partner): ${p.only_in_a} only in A, ${p.only_in_b} only in B, e.g. ${p.left_out.slice(0, 3).join(", ")}`}`;
}

export function bootstrapLine(c: Comparison): string {
  const b = c.bootstrap;
  return `statistics: the summary's ${b.method} (strata answer_task_stratum × language, the task as cluster), ${b.iterations} iterations, seed ${b.seed}, ${b.rng}; ${Math.round(b.confidence * 100)}% ${b.interval} interval, and the gate's ${b.gate_interval} interval, which "excludes 0" reads`;
}

/** The lines before the tables. */
export function headerLines(c: Comparison): string[] {
  const label = pilotLabel(c);
  return [
    `compare — ${c.what}`,
    ...(label ? [label] : []),
    ...(c.conditions_not_preregistered.length > 0
      ? [
          `NOT PREREGISTERED conditions: ${c.conditions_not_preregistered.join(", ")} (${CONDITIONS_NOT_PREREGISTERED})`,
        ]
      : []),
    `protocol ${c.protocol_id} (${short(c.protocol_sha256)})`,
    sideLine("A", c.a),
    sideLine("B", c.b),
    `A and B differ in: ${c.differs.length === 0 ? "nothing recorded (two runs of the same settings)" : c.differs.join(", ")}`,
    pairingLine(c),
    bootstrapLine(c),
  ];
}

export function conditionTitle(c: Comparison, condition: string): string {
  return c.conditions_not_preregistered.includes(condition) ? `${condition} (not preregistered)` : condition;
}

export function selectionTitle(c: Comparison, selection: string): string {
  if (selection !== POOLED) return `catalog size ${selection}`;
  const sizes = [...new Set(c.tables.map((t) => t.selection))].filter((s) => s !== POOLED);
  return `pooled over catalog sizes ${sizes.join(", ")}`;
}

/** What ranks the comparison can show: a line per catalog size, or how to get them. */
export function rankLines(c: Comparison): string[] {
  const r = c.ranks;
  const lines: string[] = [];
  if (r.a_manifest === null || r.b_manifest === null)
    lines.push(
      `ranks of the required routes: ${r.a_manifest === null ? "A's" : ""}${r.a_manifest === null && r.b_manifest === null ? " and " : ""}${r.b_manifest === null ? "B's" : ""} condition manifest not given — pass each run's manifest with --manifest FILE (repeatable; matched to its summary by manifest_sha256: A ${short(c.a.condition_manifest_sha256)}, B ${short(c.b.condition_manifest_sha256)})`,
    );
  if (r.rows.length === 0) return lines;
  const sizes = [...new Set(r.rows.map((x) => x.catalog_size))];
  const f = (x: number | null) => (x === null ? "–" : x.toFixed(2));
  lines.push(`ranks of the required routes (1 = first; A ${r.a_manifest ?? "–"}, B ${r.b_manifest ?? "–"}):`);
  const both = r.a_manifest !== null && r.b_manifest !== null;
  for (const s of summarizeRanks(r.rows, sizes))
    lines.push(
      `  catalog ${s.catalog_size}: ${s.routes} required routes; mean rank A ${f(s.meanA)}, B ${f(s.meanB)}${both ? `; B ranks ${s.better} higher than A, ${s.worse} lower, ${s.same} the same` : ""}`,
    );
  lines.push("  every task's ranks side by side: --out FILE.html or --json");
  return lines;
}

const signed = (x: number) => `${x > 0 ? "+" : ""}${Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4)}`;

/**
 * At a glance, pooled over catalog sizes: per condition, the gated metrics whose B − A interval
 * (the gate's method) lies wholly on one side of 0, with the difference. No threshold: a metric
 * listed moved, in the direction its sign says; whether that is better depends on the metric.
 */
export function glanceLines(c: Comparison): string[] {
  return c.tables
    .filter((t) => t.selection === POOLED)
    .map((t) => {
      const gated = t.rows.filter((r) => r.gated);
      const moved = gated.filter((r) => r.excludes_zero && r.delta.point !== null);
      const list = moved.map((r) => `${r.metric} ${signed(r.delta.point as number)}`).join(", ");
      return `${conditionTitle(c, t.condition)}: ${moved.length} of ${gated.length} gated metrics moved (interval excludes 0)${moved.length > 0 ? `: ${list}` : ""}`;
    });
}
