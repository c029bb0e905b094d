/**
 * The summary file (`fabench-summary/v4`, published as schemas/summary.schema.json): the schema is
 * written first and the `Summary` type is inferred from it, so what `score` builds and what `gate`
 * and `report` read cannot drift apart. Readers refuse a summary that does not match, with every
 * problem, so a hand-edited or truncated summary is never half-read.
 */
import { z } from "zod";
import { GATE_RULES } from "../authoring/index.ts";
import { runMetadataSchema, runRecordSchema } from "../conditions/runner/index.ts";
import { METHODS } from "../metrics/index.ts";

export const SUMMARY_FORMAT = "fabench-summary/v4";

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().nonnegative();
const bound = z.number().nullable();
const bounds = z.strictObject({ low: bound, high: bound });

const intervalSchema = z.strictObject({
  point: bound,
  /** The preregistered percentile interval. */
  low: bound,
  high: bound,
  n: count,
  calibrated: z
    .strictObject({
      se: z.number().nullable(),
      df: z.number().nullable(),
      percentile_widened: bounds,
      bootstrap_t: z.strictObject({ low: bound, high: bound, n: count, degenerate: count, infinite: count }),
      t_stratified: bounds,
      skew_t: bounds,
    })
    .exactOptional(),
});

const aggregateSchema = z.strictObject({
  episodes: count,
  means: z.record(z.string(), z.number().nullable()),
  totals: z.record(z.string(), z.number()),
  malformed_reasons: z.record(z.string(), count),
  infrastructure_errors: z.record(z.string(), count),
});

const breakdownSchema = z.strictObject({
  tasks: count,
  levels: z.record(z.string(), z.record(z.string(), z.number().nullable())),
  deltas: z.record(z.string(), z.record(z.string(), z.number().nullable())),
  delta_intervals: z.record(z.string(), z.record(z.string(), intervalSchema)),
});

const pair = z.tuple([bound, bound]).readonly().nullable();
const checkSchema = z.strictObject({
  metric: z.string(),
  rule: z.enum(GATE_RULES),
  value: z.number().nullable(),
  full: z.number().nullable(),
  delta: z.number().nullable(),
  threshold: z.number(),
  passed: z.boolean(),
  ci95: pair,
  ci95_gate: pair,
  interval_passed: z.boolean(),
});
const verdictSchema = z.strictObject({
  passed: z.boolean(),
  interval_passed: z.boolean(),
  checks: z.record(z.string(), checkSchema),
});

const gateSchema = z.strictObject({
  status: z.enum(["PASS", "FAIL", "BLOCKED", "NOT_GATED"]),
  /** Why no verdict: the runs are a labelled variant (gold-triggered widening). Absent otherwise. */
  not_gated: z.string().exactOptional(),
  preregistered: z.boolean(),
  prerequisite: z.strictObject({
    satisfied: z.boolean(),
    blocking: z.array(z.strictObject({ stage: z.string(), reason: z.string() })),
  }),
  complete: z.boolean(),
  verdict_rule: z.literal("point_estimate"),
  interval_method: z.string(),
  interval_rule: z.string(),
  any_deployable_condition_passed: z.boolean(),
  /** The baseline and deployable conditions the runs do not hold; absent when every one ran. */
  conditions_not_run: z.array(z.string()).readonly().exactOptional(),
  /** The deployable conditions the bundled preregistration does not name (search conditions); absent when none. */
  conditions_not_preregistered: z.array(z.string()).readonly().exactOptional(),
  conditions: z.record(z.string(), verdictSchema),
  per_catalog: z.record(z.string(), z.record(z.string(), verdictSchema)),
});

const factVerdictSchema = z.strictObject({
  index: count,
  key: z.string(),
  licensed: z.boolean(),
  value_ok: z.boolean().nullable(),
  unit_ok: z.boolean().nullable(),
  source_ok: z.boolean().nullable(),
  duplicate: z.boolean(),
  contradicts: z.boolean(),
  reason: z.string(),
});

/** An episode's score: its run record's identity and status, then what scoring found. */
const episodeSchema = runRecordSchema
  .pick({
    semantic_task_id: true,
    answer_task_stratum: true,
    language: true,
    catalog_size: true,
    condition: true,
    trial: true,
    status: true,
    error_code: true,
  })
  .extend({
    malformed_reason: z.string().nullable(),
    metrics: z.record(z.string(), z.number().nullable()),
    facts: z.array(factVerdictSchema).readonly(),
  });

const byReasonSchema = z.strictObject({ total: count, by_reason: z.record(z.string(), count) });
const ratedSchema = z.record(z.string(), z.strictObject({ count, share: z.number().nullable() }));

/**
 * The secondary judge (`score --judgments`): ratings of each episode's answer, joined to the
 * episodes by key and answer hash. Secondary by construction: the gate is computed before it exists
 * and never reads it.
 */
const judgeSchema = z.strictObject({
  files: z.array(z.strictObject({ path: z.string(), sha256: sha })),
  /** Each distinct judge (agent, model, what the provider reported, settings) and how many lines it wrote. */
  judges: z.array(
    z.strictObject({
      agent: z.string(),
      model: z.string().nullable(),
      reported_model: z.string().nullable(),
      settings: z.record(z.string(), z.json()),
      episodes: count,
    }),
  ),
  prompt_sha256: z.array(sha),
  /** The protocol's scales, and the thresholds the factual comparison uses. */
  dimensions: z.array(
    z.strictObject({
      id: z.string(),
      min: z.number().int(),
      max: z.number().int(),
      low_at_most: z.number().int(),
      high_at_least: z.number().int(),
    }),
  ),
  counts: z.strictObject({
    episodes: count,
    judged: count,
    malformed: byReasonSchema,
    not_judged: byReasonSchema,
    error: byReasonSchema,
    /** Scored episodes no judgments line names. */
    missing: count,
    /** Judgment lines for episodes these runs do not hold. */
    not_in_runs: count,
  }),
  /** The condition the deltas are taken against (the protocol's baseline). */
  baseline: z.string(),
  /** levels[selection][condition]: judged episodes and their mean rating per dimension. */
  levels: z.record(
    z.string(),
    z.record(
      z.string(),
      z.strictObject({ judged: count, means: z.record(z.string(), z.number().nullable()) }),
    ),
  ),
  /** delta_intervals[selection][condition][dimension]: paired delta against the baseline, the summary's bootstrap. */
  delta_intervals: z.record(z.string(), z.record(z.string(), z.record(z.string(), intervalSchema))),
  /** The judge against the deterministic scorer, over judged episodes. */
  factual: z.strictObject({
    fully_correct: z.strictObject({ episodes: count, rated_low: ratedSchema }),
    factually_short: z.strictObject({ episodes: count, rated_high: ratedSchema }),
    neither: count,
  }),
});

export const summarySchema = z.strictObject({
  format: z.literal(SUMMARY_FORMAT),
  complete: z.boolean(),
  missing_episodes: count,
  protocol_id: z.string(),
  protocol_sha256: sha,
  /** Whether the protocol is the bundled preregistration; every verdict under another one says so. */
  preregistered: z.boolean(),
  /**
   * The protocol file it was scored under, relative to the summary's folder; only when it is not the
   * bundled preregistration (a pilot's). `gate` and `report` read it when they are given no protocol
   * and its bytes still hash to `protocol_sha256` (#35).
   */
  protocol_file: z.string().exactOptional(),
  run: runMetadataSchema,
  run_files: z.array(z.strictObject({ path: z.string(), sha256: sha })),
  episodes: count,
  infrastructure_errors: z.strictObject({ total: count, by_code: z.record(z.string(), count) }),
  reported_models: z.record(z.string(), count),
  metric_versions: z.record(z.string(), z.number().int()),
  aggregates: z.record(z.string(), z.record(z.string(), aggregateSchema)),
  bootstrap: z.strictObject({
    method: z.string(),
    unit: z.string(),
    iterations: z.number().int().positive(),
    seed: z.number().int(),
    confidence: z.number().gt(0).lt(1),
    rng: z.enum(["seedrandom", "python"]),
    generator: z.string(),
    interval: z.string(),
    methods: z.array(z.enum(METHODS)).readonly(),
    gate_interval: z.enum(METHODS),
    /** The preregistered rule that chose `gate_interval` (the protocol's statistics.gate_interval_rule). */
    gate_interval_rule: z.strictObject({
      scenarios: z.array(z.string()).readonly(),
      coverage_band: z.strictObject({ min: z.number(), max: z.number() }),
      type_one_error_at_most: z.number(),
      min_datasets: count,
      iterations: count,
      seed: count,
      selected: z.enum(METHODS),
    }),
    cells: count,
    tasks: count,
    metrics: z.array(z.string()).readonly(),
    intervals: z.record(z.string(), intervalSchema),
  }),
  breakdowns: z.strictObject({
    by_language: z.record(z.string(), breakdownSchema),
    by_stratum: z.record(z.string(), breakdownSchema),
  }),
  gate: gateSchema,
  /** Present only when `score` was given judgments; a summary without them is as it was. */
  judge: judgeSchema.exactOptional(),
  episode_scores: z.array(episodeSchema),
});

export type Summary = z.infer<typeof summarySchema>;
/** The secondary judge's section (`score --judgments`). */
export type JudgeSection = NonNullable<Summary["judge"]>;
/** What the statistics step adds to a summary. */
export type Statistics = Pick<Summary, "metric_versions" | "aggregates" | "bootstrap" | "breakdowns">;

export function summaryJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/summary.schema.json",
    title: "fabench summary",
    ...z.toJSONSchema(summarySchema),
  };
}

/**
 * For a command that reads its files once and exits (`score`, `gate`, `report`): zod's compiled fast
 * path is built per schema on its first parse and pays off only over many parses, so a one-shot
 * read is faster without it (#35). Same checks, same values; a long-running command (serve, run)
 * keeps the fast path.
 */
export function parseOnce(): void {
  z.config({ jitless: true });
}
