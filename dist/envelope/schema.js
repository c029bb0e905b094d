/**
 * The final-answer envelope: the machine-readable answer every agent must end with.
 * Exactly these keys at both levels; the JSON Schema providers use for structured output is
 * generated from this zod schema.
 */
import { z } from "zod";
export const envelopeFactSchema = z.strictObject({
    key: z.string().min(1),
    value: z.json(),
    unit: z.string().nullable(),
    source_id: z.string().min(1),
});
export const envelopeSchema = z.strictObject({
    answer: z.string(),
    facts: z.array(envelopeFactSchema),
    sources: z.array(z.string()),
});
export function envelopeJsonSchema() {
    return {
        $id: "https://fabench.dev/schemas/envelope.schema.json",
        title: "fabench final-answer envelope",
        ...z.toJSONSchema(envelopeSchema),
    };
}
