/**
 * The published shapes of `fabench simulate coverage --json` and `fabench power --json`
 * (schemas/coverage-study.schema.json, schemas/power.schema.json). The commands build their output
 * as these types, and `report --coverage` checks a study against the first before reading it.
 */
import { z } from "zod";
import { INTERVAL_METHODS } from "../../authoring/index.js";
const share = z.number().min(0).max(1);
/** The interval methods, as the protocol defines them (one list, in authoring/protocol.ts). */
export const METHODS = INTERVAL_METHODS;
export const methodResultSchema = z.strictObject({
    /** Shares of the datasets with a defined interval. */
    coverage: share,
    below: share,
    above: share,
    /** Over the bounded intervals only. */
    mean_width: z.number().min(0),
    /** "lower bound ≥ −margin": the type I error when the truth sits at the margin, power otherwise. */
    margin_pass_rate: share,
    /** Intervals unbounded on a side (bootstrap-t on a degenerate replicate): they count as ∓∞. */
    unbounded: share,
    /** Datasets without an interval (counted, not shares). */
    undefined: z.number().int().min(0),
});
export const scenarioResultSchema = z.strictObject({
    scenario: z.string().min(1),
    true_delta: z.number(),
    datasets: z.number().int().positive(),
    methods: z.strictObject(Object.fromEntries(METHODS.map((m) => [m, methodResultSchema]))),
});
export const coverageStudySchema = z.strictObject({
    design: z.strictObject({
        cells: z.number().int().positive(),
        tasks_per_cell: z.number().int().positive(),
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
});
export const powerReportSchema = z.strictObject({
    condition: z.string(),
    metric: z.string(),
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
    rows: z.array(z.strictObject({
        tasks_per_cell: z.number().int().positive(),
        trials: z.number().int().positive(),
        true_delta: z.number(),
        pass_rate: share,
    })),
    tasks_per_cell_for_80_percent_power: z.array(z.strictObject({
        trials: z.number().int().positive(),
        at_zero: z.number().int().positive().nullable(),
        at_minus_0_01: z.number().int().positive().nullable(),
    })),
});
export function coverageStudyJsonSchema() {
    return {
        $id: "https://fabench.dev/schemas/coverage-study.schema.json",
        title: "fabench simulate coverage --json",
        ...z.toJSONSchema(coverageStudySchema),
    };
}
export function powerReportJsonSchema() {
    return {
        $id: "https://fabench.dev/schemas/power.schema.json",
        title: "fabench power --json",
        ...z.toJSONSchema(powerReportSchema),
    };
}
