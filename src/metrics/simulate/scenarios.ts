/**
 * Scenarios for the coverage simulator: super-populations of per-task paired deltas with a known
 * true mean, in the benchmark's shape (cells × tasks per cell, catalogs × trials as repeated
 * measures; a task's delta is the mean over its repeats). Three kinds:
 *
 * - `continuous` (the default, so scenario files written before kinds existed still load): a
 *   task's delta is its cell's effect + its own latent effect + the average of its repeated
 *   measures' noise, minus a large loss when the router misses it, plus an occasional gain.
 * - `one-stratum`: the same, but misses and gains happen only in the cells of one answer stratum
 *   (the design's cells are strata × languages); every other task keeps a mean delta of 0.
 * - `binary`: every episode scores 0 or 1 under FULL and under the router; a task's success
 *   probability under FULL is drawn from a Beta (difficulty heterogeneity) and the router loses a
 *   success with probability `loss_rate` and turns a failure into a success with `gain_rate`.
 *   `coupled`: a task's repeats share one outcome per condition (deltas are −1, 0 or +1, mostly 0);
 *   otherwise every episode has its own trial noise.
 *
 * Their true deltas and how each is moved to another true delta are in truth.ts.
 */
import { z } from "zod";

const rate = z.number().min(0).max(1);

/** What the continuous and one-stratum kinds share: the router's misses and gains, and the noise. */
const shape = {
  /** Share of tasks the router misses, and what a miss costs (a positive loss). */
  miss_rate: rate,
  miss_loss: z.number().min(0),
  /** Share of tasks the router helps, and by how much. */
  gain_rate: rate,
  gain: z.number().min(0),
  /** Standard deviations of cell effects, of per-task effects, and of one repeated measure's noise. */
  cell_sd: z.number().min(0),
  task_sd: z.number().min(0),
  noise_sd: z.number().min(0),
};

export const continuousScenarioSchema = z.strictObject({
  kind: z.literal("continuous"),
  name: z.string().min(1),
  description: z.string(),
  /** The true mean paired delta of the super-population. */
  true_delta: z.number(),
  ...shape,
});

export const oneStratumScenarioSchema = z.strictObject({
  kind: z.literal("one-stratum"),
  name: z.string().min(1),
  description: z.string(),
  /** No true_delta: it follows from the stratum's share of the cells (truth.ts). */
  ...shape,
});

export const binaryScenarioSchema = z.strictObject({
  kind: z.literal("binary"),
  name: z.string().min(1),
  description: z.string(),
  /** A task's success probability under FULL ~ Beta(alpha, beta). */
  difficulty: z.strictObject({ alpha: z.number().positive(), beta: z.number().positive() }),
  /** P(router fails | FULL succeeds) and P(router succeeds | FULL fails), per outcome. */
  loss_rate: rate,
  gain_rate: rate,
  /** True: a task's repeats share its outcomes; false: independent trial noise per episode. */
  coupled: z.boolean(),
});

const byKind = z.discriminatedUnion("kind", [
  continuousScenarioSchema,
  oneStratumScenarioSchema,
  binaryScenarioSchema,
]);

/** A scenario without `kind` is continuous: the file format from before kinds keeps working. */
export const scenarioSchema = z.preprocess(
  (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value) && !("kind" in value)
      ? { kind: "continuous", ...value }
      : value,
  byKind,
);

export type ContinuousScenario = z.infer<typeof continuousScenarioSchema>;
export type OneStratumScenario = z.infer<typeof oneStratumScenarioSchema>;
export type BinaryScenario = z.infer<typeof binaryScenarioSchema>;
export type Scenario = z.infer<typeof byKind>;
export const scenarioFileSchema = z.strictObject({ scenarios: z.array(scenarioSchema).min(1) });

export const BUILT_IN_SCENARIOS: readonly Scenario[] = [
  {
    kind: "continuous",
    name: "near-null",
    description: "a router slightly worse than FULL (true delta −0.01)",
    true_delta: -0.01,
    miss_rate: 0.04,
    miss_loss: 0.5,
    gain_rate: 0.02,
    gain: 0.25,
    cell_sd: 0.01,
    task_sd: 0.02,
    noise_sd: 0.05,
  },
  {
    kind: "continuous",
    name: "moderate",
    description: "a router clearly worse than FULL (true delta −0.03)",
    true_delta: -0.03,
    miss_rate: 0.08,
    miss_loss: 0.5,
    gain_rate: 0.02,
    gain: 0.25,
    cell_sd: 0.01,
    task_sd: 0.02,
    noise_sd: 0.05,
  },
  {
    kind: "continuous",
    name: "rare-total-miss",
    description: "5 % of tasks lose everything, the rest are unchanged (true delta −0.05)",
    true_delta: -0.05,
    miss_rate: 0.05,
    miss_loss: 1,
    gain_rate: 0,
    gain: 0,
    cell_sd: 0,
    task_sd: 0,
    noise_sd: 0.02,
  },
  {
    kind: "continuous",
    name: "heterogeneous-margin",
    description: "strong cell heterogeneity, true delta exactly at the −0.02 margin",
    true_delta: -0.02,
    miss_rate: 0.04,
    miss_loss: 1,
    gain_rate: 0,
    gain: 0,
    cell_sd: 0.03,
    task_sd: 0.02,
    noise_sd: 0.05,
  },
  {
    kind: "continuous",
    name: "exact-null",
    description: "no difference at all in expectation (true delta 0)",
    true_delta: 0,
    miss_rate: 0.03,
    miss_loss: 0.6,
    gain_rate: 0.03,
    gain: 0.6,
    cell_sd: 0.01,
    task_sd: 0.02,
    noise_sd: 0.05,
  },
  {
    kind: "binary",
    name: "binary-coupled",
    description:
      "0/1 episodes, task success under FULL ~ Beta(3, 1); a task's repeats share its outcome, so a task's delta is −1, 0 or +1: the router loses 4 % of FULL's successes and wins 8 % of its failures (3 % of tasks −1, 2 % +1, 95 % exactly 0; true delta −0.01). Re-centred by moving losses and gains in opposite directions, the share of changed outcomes kept",
    difficulty: { alpha: 3, beta: 1 },
    loss_rate: 0.04,
    gain_rate: 0.08,
    coupled: true,
  },
  {
    kind: "binary",
    name: "binary-noisy",
    description:
      "as binary-coupled (Beta(3, 1) difficulty, 4 % losses, 8 % gains, true delta −0.01), but every episode has its own trial noise: a task's delta is the difference of two means of repeated 0/1 outcomes. Re-centred like binary-coupled",
    difficulty: { alpha: 3, beta: 1 },
    loss_rate: 0.04,
    gain_rate: 0.08,
    coupled: false,
  },
  {
    kind: "one-stratum",
    name: "one-stratum-hurt",
    description:
      "the router misses 24 % of the tasks of one answer stratum (a loss of 0.5 each) and changes nothing elsewhere: true delta −0.12 × 1/6 = −0.02 with 6 strata; background noise as near-null. Re-centred by a location shift",
    miss_rate: 0.24,
    miss_loss: 0.5,
    gain_rate: 0,
    gain: 0,
    cell_sd: 0.01,
    task_sd: 0.02,
    noise_sd: 0.05,
  },
];
