/**
 * The preregistered protocol (manifests/preregistration.json) as a schema. Every number a later
 * stage needs — strata, languages, counts, catalogs, conditions, gate thresholds, statistics —
 * is read from here; no stage hard-codes them.
 */
import { z } from "zod";
import { type Problem, type Result, usageError, zodProblems } from "../core/index.ts";
import { INTERVAL_METHODS, type CalibratedMethod, type IntervalMethod } from "./interval-methods.ts";

export { INTERVAL_METHODS, type CalibratedMethod, type IntervalMethod };

const identifier = z.string().min(1);

const visibility = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("all_routes") }),
  z.strictObject({ kind: z.literal("required_routes") }),
  z.strictObject({ kind: z.literal("top_k"), k: z.number().int().positive() }),
  z.strictObject({
    kind: z.literal("progressive"),
    // Each stage shows the top-k routes; null means every route of the catalog.
    stages: z.array(z.number().int().positive().nullable()).min(1),
  }),
  // Tool search (#34): no tool shown at first; each search loads up to k tools, run by fabench
  // over the frozen catalog or by the model's provider (native). Never in the bundled protocol.
  z.strictObject({
    kind: z.literal("search"),
    engine: z.enum(["bm25", "regex"]),
    k: z.number().int().positive(),
    executor: z.enum(["fabench", "provider"]),
  }),
]);

export const PROTOCOL_FORMAT = "fabench-preregistration/v1";

/** How a gate check compares a condition with the baseline. */
export const GATE_RULES = [
  "delta_at_least",
  "delta_at_most",
  "delta_below",
  "value_at_least",
  "ratio_at_most",
  "total_at_most",
] as const;

const gateCheck = z.strictObject({
  id: identifier,
  metric: identifier,
  rule: z.enum(GATE_RULES),
  threshold: z.number(),
  interval_bound: z.enum(["lower", "upper"]).optional(),
  null_delta_passes: z.boolean().optional(),
});

const stage = z.strictObject({
  id: identifier,
  title: z.string(),
  required_state: z.enum(["succeeded", "terminal"]),
  needs_stages: z.array(identifier),
  needs_artifacts: z.array(identifier),
});

export const protocolSchema = z.strictObject({
  format: z.literal(PROTOCOL_FORMAT),
  protocol_id: identifier,
  protocol_issue: z.string(),
  title: z.string(),
  task_id_prefix: z.string().regex(/^[a-z0-9]+$/, "lowercase letters and digits"),
  answer_task_strata: z.array(z.string().regex(/^[a-z0-9_]+$/, "lowercase snake_case")).min(1),
  languages: z
    .array(z.strictObject({ id: z.string().regex(/^[a-z0-9_]+$/, "lowercase id"), description: z.string() }))
    .min(1),
  /** Strata whose tasks must carry a corrective contract (an initial candidate miss). */
  corrective_strata: z.array(identifier),
  tasks_per_cell: z.number().int().positive(),
  expected_cell_count: z.number().int().positive(),
  expected_task_count: z.number().int().positive(),
  forbidden_slot_keys: z.array(identifier),
  catalog_sizes: z.array(z.number().int().positive()).min(1),
  catalogs_nested: z.boolean(),
  conditions: z.array(z.strictObject({ id: identifier, deployable: z.boolean(), visibility })).min(1),
  baseline_condition: identifier,
  metrics: z.array(identifier).min(1),
  gate: z.strictObject({ pooled_over_catalog_sizes: z.boolean(), checks: z.array(gateCheck) }),
  statistics: z.strictObject({
    method: z.literal("stratified_task_cluster_bootstrap"),
    unit: z.literal("semantic_task"),
    strata: z.array(identifier).min(1),
    repeated_measures: z.array(identifier),
    pairing: z.literal("same_task_versus_baseline"),
    iterations: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    confidence_level: z.number().gt(0).lt(1),
    interval: z.literal("percentile"),
    gate_verdict: z.literal("point_estimate"),
    /** The interval the gate's `interval_passed` uses; the preregistered percentile one is always reported too. */
    gate_interval: z.enum(INTERVAL_METHODS),
    /**
     * The rule, written before any data, that chose `gate_interval`: every method is simulated on
     * these scenarios (`fabench simulate coverage --select`); a method passes a scenario when its
     * coverage lies in the band and its pass rate at true delta −margin is at most the bound. The pick
     * is the passing-everywhere method with the highest mean power at true delta 0, else the one with
     * the lowest worst-case type I error (ties: power). `selected` must equal `gate_interval`.
     */
    gate_interval_rule: z.strictObject({
      scenarios: z.array(identifier).min(1),
      coverage_band: z.strictObject({ min: z.number().gt(0).lt(1), max: z.number().gt(0).lt(1) }),
      type_one_error_at_most: z.number().gt(0).lt(1),
      min_datasets: z.number().int().positive(),
      iterations: z.number().int().positive(),
      seed: z.number().int().nonnegative(),
      selected: z.enum(INTERVAL_METHODS),
    }),
  }),
  /**
   * The optional secondary judge (`fabench judge run`): the frozen prompt (path relative to the
   * protocol's folder, and its SHA-256), the rating dimensions with an anchor for every point, and
   * the JSON the judge must reply with. It rates answers that exist; it never enters the gate.
   */
  judge: z.strictObject({
    prompt_file: z.string().min(1),
    prompt_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    shows_facts: z.boolean(),
    dimensions: z
      .array(
        z.strictObject({
          id: z.string().regex(/^[a-z_]+$/),
          description: z.string().min(1),
          min: z.number().int(),
          max: z.number().int(),
          /** One anchor per point, keyed "1" … "5". */
          anchors: z.record(z.string().regex(/^[0-9]+$/), z.string().min(1)),
        }),
      )
      .min(1),
    /** A rating at or below this counts as "rated low" when the judge is compared with the factual metrics. */
    low_rating_at_most: z.number().int(),
    rationale_max_chars: z.number().int().positive(),
    output_schema: z.record(z.string(), z.json()),
  }),
  agent_loop: z.strictObject({
    /** The system prompt, relative to the protocol file's folder; hashed into every run record. */
    system_prompt_file: z.string().min(1),
    /** The turn budget of every episode; the system prompt states it (a run checks the two agree). */
    max_turns: z.number().int().positive(),
    /**
     * The rule, written before any data, that gives `max_turns` (it names the number it gives).
     * Checked on a frozen corpus and manifest (`conditions freeze`): the reference agent finishes
     * every task under every condition and catalog size with at least `min_spare_turns` left.
     */
    max_turns_rule: z.string().min(1),
    min_spare_turns: z.number().int().nonnegative(),
    max_tool_calls_per_turn: z.number().int().positive(),
    request_more_tools_token: identifier,
    /**
     * When a staged condition shows its next stage, in words (#32: only on what a deployed system
     * observes — the agent's request, a call to a route not shown yet).
     */
    widening_rule: z.string().min(1),
    /** Sent only by the labelled, never-gated gold-triggered variant (`run --progressive-trigger gold`). */
    incomplete_task_message: identifier,
  }),
  claim_boundary: z.string().min(1),
  prerequisites: z.strictObject({ gate_stage: identifier.nullable(), stages: z.array(stage) }),
});

export type Protocol = z.infer<typeof protocolSchema>;
export type ConditionSpec = Protocol["conditions"][number];
export type GateCheckSpec = Protocol["gate"]["checks"][number];

/** A gate check whose interval verdict reads a bound of the paired delta against the baseline. */
export interface IntervalCheck {
  readonly metric: string;
  /** The delta's threshold (−0.02 for "at most 2 points worse", +0.01 for "at most 1 point more"). */
  readonly threshold: number;
  /** Which side of the threshold passes. */
  readonly passSide: "above" | "below";
}

/** The checks that have an interval rule, in protocol order. */
export function intervalChecks(protocol: Protocol): IntervalCheck[] {
  return protocol.gate.checks.flatMap((c) =>
    c.interval_bound === undefined
      ? []
      : [
          {
            metric: c.metric,
            threshold: c.threshold,
            passSide: c.interval_bound === "lower" ? ("above" as const) : ("below" as const),
          },
        ],
  );
}

/**
 * The margin (a positive number) of the "delta at least −margin" check on a metric: what the
 * simulator and the power analysis test against. Null when the protocol gates no such check.
 */
export function gateMargin(protocol: Protocol, metric: string): number | null {
  const check = protocol.gate.checks.find((c) => c.metric === metric && c.rule === "delta_at_least");
  return check === undefined ? null : -check.threshold;
}

/** The gate's margin on a metric, or a usage error (exit 2) saying to give `--margin`. */
export function requireMargin(protocol: Protocol, metric: string): number {
  const margin = gateMargin(protocol, metric);
  if (margin === null)
    throw usageError("no_margin", `the protocol has no "delta at least" check on ${metric}; give --margin`);
  return margin;
}

/**
 * A metric named by the user: the protocol's metric name, or (older usage) the id of the gate check
 * that reads it — accepted, with the metric's name to use instead. Null when it is neither.
 */
export function metricNamed(protocol: Protocol, name: string): { metric: string; checkId: boolean } | null {
  if (protocol.metrics.includes(name)) return { metric: name, checkId: false };
  const check = protocol.gate.checks.find((c) => c.id === name);
  return check ? { metric: check.metric, checkId: true } : null;
}

/** Schema, then coherence; every problem is reported. */
export function parseProtocol(value: unknown, file: string): Result<Protocol> {
  const parsed = protocolSchema.safeParse(value);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, "invalid_protocol", file) };
  const problems = protocolCoherenceProblems(parsed.data).map((p) => ({ ...p, file }));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: parsed.data };
}

/**
 * Rules the schema cannot express: the counts add up, ids are unique, references resolve.
 * Returns every broken rule.
 */
export function protocolCoherenceProblems(p: Protocol): Problem[] {
  const problems: Problem[] = [];
  const add = (code: string, message: string) => problems.push({ code, message });
  const cells = p.answer_task_strata.length * p.languages.length;
  if (cells !== p.expected_cell_count)
    add(
      "protocol_counts_mismatch",
      `${p.answer_task_strata.length} strata × ${p.languages.length} languages = ${cells} cells, but expected_cell_count is ${p.expected_cell_count}`,
    );
  if (cells * p.tasks_per_cell !== p.expected_task_count)
    add(
      "protocol_counts_mismatch",
      `${cells} cells × ${p.tasks_per_cell} tasks = ${cells * p.tasks_per_cell}, but expected_task_count is ${p.expected_task_count}`,
    );
  for (const [what, ids] of [
    ["answer_task_strata", p.answer_task_strata],
    ["languages", p.languages.map((l) => l.id)],
    ["conditions", p.conditions.map((c) => c.id)],
    ["catalog_sizes", p.catalog_sizes.map(String)],
    ["gate.checks", p.gate.checks.map((c) => c.id)],
    ["prerequisites.stages", p.prerequisites.stages.map((s) => s.id)],
  ] as const) {
    for (const id of duplicates(ids)) add("protocol_duplicate_id", `${what} lists ${id} more than once`);
  }
  for (const stratum of p.corrective_strata)
    if (!p.answer_task_strata.includes(stratum))
      add("protocol_unknown_reference", `corrective_strata lists ${stratum}, which is not an answer stratum`);
  const conditionIds = new Set(p.conditions.map((c) => c.id));
  if (!conditionIds.has(p.baseline_condition))
    add("protocol_unknown_reference", `baseline_condition ${p.baseline_condition} is not a condition`);
  for (const check of p.gate.checks)
    if (!p.metrics.includes(check.metric))
      add(
        "protocol_unknown_reference",
        `gate check ${check.id} uses metric ${check.metric}, which is not in metrics`,
      );
  const stageIds = new Set(p.prerequisites.stages.map((s) => s.id));
  if (p.prerequisites.gate_stage !== null && !stageIds.has(p.prerequisites.gate_stage))
    add(
      "protocol_unknown_reference",
      `prerequisites.gate_stage ${p.prerequisites.gate_stage} is not a listed stage`,
    );
  for (const s of p.prerequisites.stages)
    for (const need of s.needs_stages)
      if (!stageIds.has(need))
        add("protocol_unknown_reference", `stage ${s.id} needs ${need}, which is not a listed stage`);
  const rule = p.statistics.gate_interval_rule;
  if (rule.selected !== p.statistics.gate_interval)
    add(
      "protocol_gate_interval_rule",
      `statistics.gate_interval is ${p.statistics.gate_interval}, but gate_interval_rule selected ${rule.selected}`,
    );
  if (rule.coverage_band.min >= rule.coverage_band.max)
    add("protocol_gate_interval_rule", "gate_interval_rule.coverage_band.min must be below its max");
  for (const id of duplicates(rule.scenarios))
    add("protocol_duplicate_id", `statistics.gate_interval_rule.scenarios lists ${id} more than once`);
  for (const d of p.judge.dimensions) {
    if (d.min >= d.max) add("protocol_judge_scale", `judge dimension ${d.id}: min must be below max`);
    const points = Array.from({ length: Math.max(0, d.max - d.min + 1) }, (_, i) => String(d.min + i));
    const keys = Object.keys(d.anchors);
    if (points.length !== keys.length || points.some((k) => !keys.includes(k)))
      add(
        "protocol_judge_scale",
        `judge dimension ${d.id} needs exactly one anchor for each point ${d.min}–${d.max}`,
      );
  }
  for (const id of duplicates(p.judge.dimensions.map((d) => d.id)))
    add("protocol_duplicate_id", `judge.dimensions lists ${id} more than once`);
  problems.push(...turnBudgetRuleProblems(p));
  const sorted = [...p.catalog_sizes].sort((a, b) => a - b);
  if (sorted.some((size, i) => size !== p.catalog_sizes[i]))
    add("protocol_catalog_order", "catalog_sizes must be listed in ascending order");
  return problems;
}

/**
 * What the protocol alone can say of its turn budget: the rule names the number it gives, and the
 * budget holds at least one call, the answer turn, every widening a progressive condition can need
 * and the spare turns. Whether the corpus fits it is checked against the corpus and the manifest.
 */
export function turnBudgetRuleProblems(p: Protocol): Problem[] {
  const loop = p.agent_loop;
  const problems: Problem[] = [];
  if (!new RegExp(`(?<![0-9.])${loop.max_turns}(?![0-9]|\\.[0-9])`).test(loop.max_turns_rule))
    problems.push({
      code: "protocol_turn_budget",
      message: `agent_loop.max_turns_rule must name the number it gives (max_turns ${loop.max_turns})`,
    });
  // A turn before the first call: a widening of a staged condition, or a search (a search
  // condition shows no tool until one ran). Conditions are separate episodes: the most of either.
  const extra = Math.max(
    0,
    ...p.conditions.map((c) =>
      c.visibility.kind === "progressive"
        ? c.visibility.stages.length - 1
        : c.visibility.kind === "search"
          ? 1
          : 0,
    ),
  );
  const least = 1 + extra + 1 + loop.min_spare_turns;
  if (loop.max_turns < least)
    problems.push({
      code: "protocol_turn_budget",
      message: `agent_loop.max_turns ${loop.max_turns} cannot hold one call, ${extra} widening(s) or search(es), the answer turn and ${loop.min_spare_turns} spare turn(s) (${least})`,
    });
  return problems;
}

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const id of ids) (seen.has(id) ? repeated : seen).add(id);
  return [...repeated];
}
