/**
 * A comparison of two summaries (`fabench compare A B --json`): schema first, the type inferred, so
 * what the core builds, what the text and HTML show and what a script reads cannot drift apart.
 * Every difference is B − A; it is a comparison of two runs, never a gate.
 */
import { z } from "zod";

export const COMPARE_FORMAT = "fabench-compare/v1";

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().nonnegative();
const bound = z.number().nullable();

/** One statistic: its point estimate, the preregistered percentile interval, and the gate method's interval. */
export const comparedIntervalSchema = z.strictObject({
  point: bound,
  low: bound,
  high: bound,
  /** The bounds of the interval method the protocol names for the gate (`bootstrap.gate_interval`). */
  gate_low: bound,
  gate_high: bound,
});

export const metricRowSchema = z.strictObject({
  metric: z.string(),
  /** Whether a check of the protocol's gate reads this metric. */
  gated: z.boolean(),
  a: comparedIntervalSchema,
  b: comparedIntervalSchema,
  delta: comparedIntervalSchema,
  /** The gate method's interval of B − A lies wholly above or below 0 (false when it has no bounds). */
  excludes_zero: z.boolean(),
});

/** What one side of the comparison is: its file and what may differ between the two. */
export const sideSchema = z.strictObject({
  summary: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  router_id: z.string(),
  router_config_sha256: sha,
  condition_manifest_sha256: sha,
  system_prompt_sha256: sha,
  trials: count,
  episodes: count,
  complete: z.boolean(),
});

export const rankRowSchema = z.strictObject({
  semantic_task_id: z.string(),
  catalog_size: z.number().int().positive(),
  route: z.string(),
  /** The router's rank of this required route (1 = first); null when that side's manifest is not given. */
  a: z.number().int().positive().nullable(),
  b: z.number().int().positive().nullable(),
});

export const comparisonSchema = z.strictObject({
  format: z.literal(COMPARE_FORMAT),
  /** Said in every rendering: what the numbers are, and what they are not. */
  what: z.string(),
  protocol_id: z.string(),
  protocol_sha256: sha,
  preregistered: z.boolean(),
  /** Conditions the bundled preregistration does not name (labelled wherever they appear). */
  conditions_not_preregistered: z.array(z.string()),
  a: sideSchema,
  b: sideSchema,
  /** The run settings that differ between A and B (those a comparison may differ in). */
  differs: z.array(z.string()),
  pairing: z.strictObject({
    /** Episodes paired by (task, catalog size, condition, trial): the ones compared. */
    paired: count,
    tasks: count,
    /** Episodes only one side holds: left out of every statistic. */
    only_in_a: count,
    only_in_b: count,
    /** The first few keys left out (task|size|condition|trial), A's then B's. */
    left_out: z.array(z.string()),
  }),
  bootstrap: z.strictObject({
    method: z.string(),
    iterations: z.number().int().positive(),
    seed: z.number().int(),
    rng: z.enum(["seedrandom", "python"]),
    confidence: z.number(),
    interval: z.string(),
    gate_interval: z.string(),
    cells: count,
  }),
  /** One table per selection (pooled, then each catalog size) × condition, in the protocol's order. */
  tables: z.array(
    z.strictObject({ selection: z.string(), condition: z.string(), rows: z.array(metricRowSchema) }),
  ),
  /** Both routers' ranks of the required routes, per task × catalog size; `missing` says which side's manifest was not given. */
  ranks: z.strictObject({
    a_manifest: z.string().nullable(),
    b_manifest: z.string().nullable(),
    rows: z.array(rankRowSchema),
  }),
});

export type Comparison = z.infer<typeof comparisonSchema>;
export type ComparedInterval = z.infer<typeof comparedIntervalSchema>;
export type MetricRow = z.infer<typeof metricRowSchema>;
export type Side = z.infer<typeof sideSchema>;
export type RankRow = z.infer<typeof rankRowSchema>;

/** The published JSON Schema of `fabench compare --json` (schemas/compare.schema.json). */
export function compareJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/compare.schema.json",
    title: "fabench compare --json",
    ...z.toJSONSchema(comparisonSchema),
  };
}
