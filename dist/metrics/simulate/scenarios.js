/**
 * Scenarios for the coverage simulator: super-populations of per-task paired deltas with a known
 * true mean, in the benchmark's shape (cells × tasks per cell, catalogs × trials as repeated
 * measures). A task's delta is its cell's effect + its own latent effect + the average of its
 * repeated measures' noise, minus a large loss when the router misses it, plus an occasional gain.
 */
import { z } from "zod";
export const scenarioSchema = z.strictObject({
    name: z.string().min(1),
    description: z.string(),
    /** The true mean paired delta of the super-population. */
    true_delta: z.number(),
    /** Share of tasks the router misses, and what a miss costs (a positive loss). */
    miss_rate: z.number().min(0).max(1),
    miss_loss: z.number().min(0),
    /** Share of tasks the router helps, and by how much. */
    gain_rate: z.number().min(0).max(1),
    gain: z.number().min(0),
    /** Standard deviations of cell effects, of per-task effects, and of one repeated measure's noise. */
    cell_sd: z.number().min(0),
    task_sd: z.number().min(0),
    noise_sd: z.number().min(0),
});
export const scenarioFileSchema = z.strictObject({ scenarios: z.array(scenarioSchema).min(1) });
export const BUILT_IN_SCENARIOS = [
    {
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
];
