/**
 * The authoring plan: the task slots, frozen before any content exists. A slot is
 * identity only — id, stratum, language, ordinal — and the plan says which content keys must
 * never appear in one.
 */
import { z } from "zod";
import { canonicalSha256, zodProblems } from "../core/index.js";
export const PLAN_FORMAT = "fabench-authoring-plan/v1";
export const slotSchema = z.strictObject({
    semantic_task_id: z.string().min(1),
    answer_task_stratum: z.string().min(1),
    language: z.string().min(1),
    ordinal_in_cell: z.number().int().positive(),
});
export const planSchema = z.strictObject({
    format: z.literal(PLAN_FORMAT),
    protocol_id: z.string(),
    protocol_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    protocol: z.strictObject({
        task_id_prefix: z.string(),
        answer_task_strata: z.array(z.string()),
        languages: z.array(z.string()),
        tasks_per_cell: z.number().int().positive(),
        expected_cell_count: z.number().int().positive(),
        expected_task_count: z.number().int().positive(),
    }),
    content_generation_authorized: z.literal(false),
    answer_inference_authorized: z.literal(false),
    forbidden_slot_keys: z.array(z.string()),
    slot_count: z.number().int().nonnegative(),
    slots: z.array(slotSchema),
    slots_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
/** `v4-{stratum}-{language}-{nn}`, nn at least two digits. */
export function semanticTaskId(prefix, stratum, language, ordinal) {
    return `${prefix}-${stratum}-${language}-${String(ordinal).padStart(2, "0")}`;
}
/** Slots in plan order: stratum (protocol order), language (protocol order), ordinal 1..n. */
export function planSlots(protocol) {
    const slots = [];
    for (const stratum of protocol.answer_task_strata)
        for (const { id: language } of protocol.languages)
            for (let ordinal = 1; ordinal <= protocol.tasks_per_cell; ordinal++)
                slots.push({
                    semantic_task_id: semanticTaskId(protocol.task_id_prefix, stratum, language, ordinal),
                    answer_task_stratum: stratum,
                    language,
                    ordinal_in_cell: ordinal,
                });
    return slots;
}
/** The whole plan file for a protocol; pure and deterministic. */
export function buildPlan(protocol) {
    const slots = planSlots(protocol);
    return {
        format: PLAN_FORMAT,
        protocol_id: protocol.protocol_id,
        protocol_sha256: canonicalSha256(protocol),
        protocol: {
            task_id_prefix: protocol.task_id_prefix,
            answer_task_strata: protocol.answer_task_strata,
            languages: protocol.languages.map((l) => l.id),
            tasks_per_cell: protocol.tasks_per_cell,
            expected_cell_count: protocol.expected_cell_count,
            expected_task_count: protocol.expected_task_count,
        },
        content_generation_authorized: false,
        answer_inference_authorized: false,
        forbidden_slot_keys: protocol.forbidden_slot_keys,
        slot_count: slots.length,
        slots,
        slots_sha256: canonicalSha256(slots),
    };
}
/**
 * Reads a plan value and checks it is internally consistent: schema, slot count, the slot hash,
 * unique ids, and no content key in any slot. Reports every problem.
 */
export function parsePlan(value, file) {
    // Content keys are looked for first, so a leaked key gets its own code instead of a schema one.
    const problems = leakedContentKeys(value, file);
    const parsed = planSchema.safeParse(value);
    if (!parsed.success) {
        const forbidden = new Set(forbiddenKeysOf(value));
        const rest = parsed.error.issues.filter((issue) => !(issue.code === "unrecognized_keys" &&
            issue.path[0] === "slots" &&
            issue.keys.every((k) => forbidden.has(k))));
        const schema = rest.length > 0 ? zodProblems(new z.ZodError(rest), "invalid_plan", file) : [];
        return { ok: false, problems: [...problems, ...schema] };
    }
    const plan = parsed.data;
    if (plan.slot_count !== plan.slots.length)
        problems.push({
            code: "plan_slot_count_mismatch",
            file,
            message: `slot_count is ${plan.slot_count} but the plan has ${plan.slots.length} slots`,
        });
    const recomputed = canonicalSha256(plan.slots);
    if (recomputed !== plan.slots_sha256)
        problems.push({
            code: "plan_hash_mismatch",
            file,
            message: `slots_sha256 is ${plan.slots_sha256} but the slots hash to ${recomputed}`,
        });
    const seen = new Set();
    for (const slot of plan.slots) {
        if (seen.has(slot.semantic_task_id))
            problems.push({
                code: "plan_duplicate_slot",
                file,
                message: `${slot.semantic_task_id} appears more than once`,
            });
        seen.add(slot.semantic_task_id);
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: plan };
}
function forbiddenKeysOf(value) {
    if (typeof value !== "object" || value === null)
        return [];
    const keys = value.forbidden_slot_keys;
    return Array.isArray(keys) ? keys.filter((k) => typeof k === "string") : [];
}
function leakedContentKeys(value, file) {
    if (typeof value !== "object" || value === null)
        return [];
    const record = value;
    const forbidden = forbiddenKeysOf(value);
    if (!Array.isArray(record.slots))
        return [];
    const problems = [];
    record.slots.forEach((slot, index) => {
        if (typeof slot !== "object" || slot === null)
            return;
        for (const key of forbidden)
            if (Object.hasOwn(slot, key))
                problems.push({
                    code: "plan_content_leak",
                    file,
                    message: `slots[${index}].${key}: content key in a slot; a plan holds identity only`,
                });
    });
    return problems;
}
