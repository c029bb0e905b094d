/** The catalog file: the endpoints an agent may be shown, with their schemas and safety flags. */
import { z } from "zod";
export const CATALOG_FORMAT = "fabench-catalog/v1";
const jsonSchemaObject = z.strictObject({
    type: z.literal("object"),
    properties: z.record(z.string(), z.record(z.string(), z.unknown())),
    required: z.array(z.string()),
    additionalProperties: z.literal(false),
});
export const endpointOutputSchema = z.strictObject({
    name: z.string().min(1),
    type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
    unit: z.string().nullable(),
    description: z.string(),
});
export const endpointSchema = z.strictObject({
    /** `{tool}.{endpoint}` — the id the corpus and manifests use. */
    route_id: z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/),
    tool: z.string().min(1),
    endpoint: z.string().min(1),
    /** `{tool}__{endpoint}` — the function name the agent sees. */
    function_name: z.string().regex(/^[a-z0-9_]+__[a-z0-9_]+$/),
    tool_description: z.string().min(1),
    description: z.string().min(1),
    parameters: jsonSchemaObject,
    read_only: z.boolean(),
    destructive: z.boolean(),
    outputs: z.array(endpointOutputSchema),
});
export const catalogSchema = z.strictObject({
    format: z.literal(CATALOG_FORMAT),
    endpoint_count: z.number().int().positive(),
    /** sha256(canonicalJson(sorted route ids)) */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    endpoints: z.array(endpointSchema),
});
