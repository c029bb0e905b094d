/**
 * The task content contract: what one benchmark task carries. The JSON Schema users see
 * (schemas/task.schema.json) is generated from this; a test keeps the two in step.
 *
 * Evidence layout. A fixture step's `observation` is what the agent receives for the call:
 * `{status, result?, sources: [{source_id, payload}]}`. Each payload (also listed once in
 * `evidence_payloads`) names its facts as `payload.facts[key] = {value, unit}`, so the checker
 * can prove every required fact is derivable from the evidence the agent is shown.
 */
import { z } from "zod";
const json = z.json();
const id = z.string().min(1);
/** One rule an argument of the expected call must satisfy. */
export const argumentRuleSchema = z.union([
    z.strictObject({ eq: json }).describe("the argument equals this value"),
    z
        .strictObject({ nonempty: z.literal(true) })
        .describe("the argument is a non-empty string, list or object"),
    z
        .strictObject({ state: id })
        .describe("the argument equals the value of this fact observed earlier in the episode"),
    z
        .strictObject({ contains_state: id })
        .describe("the argument is a string containing the value of this fact observed earlier"),
]);
export const evidenceFactSchema = z.strictObject({ value: json, unit: z.string().min(1).nullable() });
export const payloadSchema = z.looseObject({ facts: z.record(z.string().min(1), evidenceFactSchema) });
export const evidenceSchema = z.strictObject({ source_id: z.string(), payload: payloadSchema });
export const observationSchema = z.strictObject({
    status: id,
    result: z.record(z.string(), json).optional(),
    sources: z.array(evidenceSchema),
});
export const fixtureStepSchema = z.strictObject({
    route_id: id,
    argument_rules: z.record(z.string().min(1), argumentRuleSchema),
    observation: observationSchema,
    fail_once_error: id.optional(),
});
export const requiredFactSchema = z.strictObject({
    key: id,
    value: json,
    unit: z.string().min(1).nullable(),
    source_id: id,
});
export const forbiddenFactSchema = z.strictObject({
    key: id,
    value: json,
    unit: z.string().min(1).nullable().optional(),
    source_id: id.optional(),
});
export const toleranceSchema = z
    .strictObject({
    absolute: z.number().nonnegative().optional(),
    relative: z.number().nonnegative().optional(),
})
    .refine((t) => t.absolute !== undefined || t.relative !== undefined, "give absolute, relative or both");
export const correctiveContractSchema = z.strictObject({
    initial_candidate_miss: z.boolean(),
    ground_truth_trigger_visible: z.boolean(),
});
export const taskSchema = z.strictObject({
    semantic_task_id: id,
    answer_task_stratum: id,
    language: id,
    query: z.string(),
    required_routes: z.array(z.string()),
    executor_fixture: z.strictObject({ steps: z.array(fixtureStepSchema) }),
    evidence_payloads: z.array(evidenceSchema),
    allowed_source_ids: z.array(z.string()),
    required_facts: z.array(requiredFactSchema),
    forbidden_facts: z.array(forbiddenFactSchema),
    numeric_tolerances: z.record(z.string(), toleranceSchema),
    accepted_units: z.record(z.string(), z.array(z.string().min(1))),
    mandatory_answer_fields: z.array(z.string()),
    corrective_contract: correctiveContractSchema.nullable(),
});
/** The JSON Schema written to schemas/task.schema.json. */
export function taskJsonSchema() {
    return {
        $id: "https://fabench.dev/schemas/task.schema.json",
        title: "fabench task",
        ...z.toJSONSchema(taskSchema),
    };
}
/** A finite number that is not a boolean: what "numeric" means for facts and tolerances. */
export function isNumericValue(value) {
    return typeof value === "number" && Number.isFinite(value);
}
