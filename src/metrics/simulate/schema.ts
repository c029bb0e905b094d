/**
 * The published shapes of `fabench simulate coverage --json` (with `--select`, the same document
 * plus the rule's selection) and `fabench power --json` (schemas/coverage-study.schema.json,
 * schemas/power.schema.json). The commands build their output as these types, and `report
 * --coverage` checks a study against the first before reading it.
 */
import { z } from "zod";
import { INTERVAL_METHODS, type IntervalMethod } from "../../authoring/index.ts";

const share = z.number().min(0).max(1);
/** The interval methods, as the protocol defines them (one list, in authoring/protocol.ts). */
export const METHODS = INTERVAL_METHODS;
export type Method = IntervalMethod;

/** One schema per method, keyed by method name. */
function perMethod<S extends z.ZodType>(schema: S) {
  return z.strictObject(Object.fromEntries(METHODS.map((m) => [m, schema])) as Record<Method, S>);
}

export const methodResultSchema = z.strictObject({
  /** Shares of the datasets with a defined interval. */
  coverage: share,
  below: share,
  above: share,
  /** Over the bounded intervals only. */
  mean_width: z.number().min(0),
  /** "lower bound ≥ −margin" at the scenario's own truth: the type I error when that is −margin, power otherwise. */
  margin_pass_rate: share,
  /** The same rule's pass rate with the scenario re-centred to true delta −margin: the type I error at the margin. */
  type_one_error: share,
  /** The same rule's pass rate with the scenario re-centred to true delta 0: the power when nothing changes. */
  power_at_zero: share,
  /** Intervals unbounded on a side (bootstrap-t on a degenerate replicate): they count as ∓∞. */
  unbounded: share,
  /** Datasets without an interval (counted, not shares). */
  undefined: z.number().int().min(0),
});

export type MethodResult = z.infer<typeof methodResultSchema>;

export const scenarioResultSchema = z.strictObject({
  scenario: z.string().min(1),
  kind: z.enum(["continuous", "one-stratum", "binary"]),
  true_delta: z.number(),
  /** How the scenario was moved to true delta −margin and 0: every delta shifted, or (binary) its loss and gain rates tilted. */
  recentring: z.enum(["location_shift", "loss_gain_balance"]),
  datasets: z.number().int().positive(),
  methods: perMethod(methodResultSchema),
});
export type ScenarioResult = z.infer<typeof scenarioResultSchema>;

/** The protocol's `statistics.gate_interval_rule`, as the selection read it. */
export const gateIntervalRuleSchema = z.strictObject({
  scenarios: z.array(z.string().min(1)).min(1),
  coverage_band: z.strictObject({ min: share, max: share }),
  type_one_error_at_most: share,
  min_datasets: z.number().int().positive(),
  iterations: z.number().int().positive(),
  seed: z.number().int().min(0),
  selected: z.enum(METHODS),
});
export type GateIntervalRule = z.infer<typeof gateIntervalRuleSchema>;

/** One method on one of the rule's scenarios. */
export const ruleVerdictSchema = z.strictObject({
  scenario: z.string().min(1),
  coverage: share,
  type_one_error: share,
  power_at_zero: share,
  coverage_in_band: z.boolean(),
  type_one_within_bound: z.boolean(),
  /** Both of the above. */
  passes: z.boolean(),
});
export type RuleVerdict = z.infer<typeof ruleVerdictSchema>;

export const methodVerdictSchema = z.strictObject({
  method: z.enum(METHODS),
  passes_everywhere: z.boolean(),
  scenarios_passed: z.number().int().min(0),
  mean_power_at_zero: share,
  worst_type_one_error: share,
  scenarios: z.array(ruleVerdictSchema).min(1),
});
export type MethodVerdict = z.infer<typeof methodVerdictSchema>;

export const selectionSchema = z.strictObject({
  rule: gateIntervalRuleSchema,
  /** Whether this run is the rule's own configuration (its seed and iterations, at least its datasets, the protocol's design). */
  preregistered: z.boolean(),
  /** How this run departs from the rule's configuration, in words (empty when preregistered). */
  deviations: z.array(z.string()),
  methods: z.array(methodVerdictSchema).min(1),
  selected: z.enum(METHODS),
  /** Which branch of the rule picked it. */
  reason: z.enum(["highest_power_among_passing", "lowest_worst_type_one_error"]),
  protocol_gate_interval: z.enum(METHODS),
  protocol_agrees: z.boolean(),
});
export type Selection = z.infer<typeof selectionSchema>;

export const coverageStudySchema = z.strictObject({
  design: z.strictObject({
    cells: z.number().int().positive(),
    tasks_per_cell: z.number().int().positive(),
    /** Answer strata the cells divide into (cells = strata × languages); a one-stratum scenario hurts one. */
    strata: z.number().int().positive(),
    /** Repeated measures per task (catalog sizes × trials). */
    repeats: z.number().int().positive(),
    margin: z.number().min(0),
    confidence: z.number().gt(0).lt(1),
    datasets: z.number().int().positive(),
    iterations: z.number().int().positive(),
    seed: z.number().int(),
  }),
  gate_interval: z.enum(METHODS),
  results: z.array(scenarioResultSchema).min(1),
  /** With `--select`: the protocol's gate-interval rule applied to the results. */
  selection: selectionSchema.optional(),
});
export type CoverageStudy = z.infer<typeof coverageStudySchema>;

const tasksNeededSchema = z.strictObject({
  at_zero: z.number().int().positive().nullable(),
  at_minus_0_01: z.number().int().positive().nullable(),
});

export const powerReportSchema = z.strictObject({
  condition: z.string(),
  metric: z.string(),
  /** The method `pass_rate` and `at_zero` / `at_minus_0_01` are about (the gate's, unless --method); every method is in `pass_rates` and `methods`. */
  method: z.enum(METHODS),
  margin: z.number().min(0),
  pilot: z.strictObject({
    tasks: z.number().int().min(2),
    trials: z.number().int().positive(),
    mean_delta: z.number(),
    /** A delta's trial-noise variance: spread of a task's trials within one catalog size and condition. */
    trial_noise_variance: z.number().min(0),
  }),
  /** What the simulation takes for granted, in words. */
  assumption: z.string(),
  rows: z.array(
    z.strictObject({
      tasks_per_cell: z.number().int().positive(),
      trials: z.number().int().positive(),
      true_delta: z.number(),
      pass_rate: share,
      /** Every method's pass rate on the same simulated datasets. */
      pass_rates: perMethod(share),
    }),
  ),
  tasks_per_cell_for_80_percent_power: z.array(
    z.strictObject({
      trials: z.number().int().positive(),
      ...tasksNeededSchema.shape,
      methods: perMethod(tasksNeededSchema),
    }),
  ),
});
export type PowerReport = z.infer<typeof powerReportSchema>;

export function coverageStudyJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/coverage-study.schema.json",
    title: "fabench simulate coverage --json",
    ...z.toJSONSchema(coverageStudySchema),
  };
}

export function powerReportJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/power.schema.json",
    title: "fabench power --json",
    ...z.toJSONSchema(powerReportSchema),
  };
}
