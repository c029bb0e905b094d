/**
 * The catalog file: the endpoints an agent may be shown, with their schemas and safety flags, and
 * — for reviewers, profiles and the replay executor, never for the agent — what each endpoint is
 * (`role`, `imitates`) and how it answers a call no fixture response matches (`replies`).
 */
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

/**
 * What an endpoint is. `base`: the laboratory's own services, the routes tasks require.
 * `hard_negative`: a route built to be mistaken for one base route (`imitates`) — an archive, a
 * deprecated version, a nominal datasheet, a simulation, a sandbox — answering with plausible wrong
 * data. `distractor`: a service of a neighbouring domain (facilities, finance, HR, CI/CD, …).
 */
export const ENDPOINT_ROLES = ["base", "hard_negative", "distractor"] as const;

export const REPLY_KINDS = ["not_found", "validation_error", "empty", "success", "exists"] as const;

/**
 * A reply template: the body the route answers with, as JSON. Strings may hold placeholders
 * (see replies.ts): `{param}` an argument of the call, `{@id}` a deterministic id of the call,
 * `{@message}` the validation problem (validation_error only); `{{` and `}}` are literal braces.
 */
const replyTemplate = z.record(z.string(), z.json());

/**
 * The route's own words for the calls a fixture does not script. `not_found`: a lookup of
 * something that does not exist. `validation_error`: arguments the route refuses. `empty`: a
 * list or search that matches nothing. `success`: a write or destructive call carried out.
 * `exists`: a lookup of something the world knows but the fixture holds no record for — the
 * route's reply for an existing entity with nothing recorded (empty lists, no values), never a
 * denial (see execution/entities.ts). `unmatched`: which of not_found/empty/success answers a
 * schema-valid call that matches no fixture response and names no entity the world knows.
 */
export const repliesSchema = z
  .strictObject({
    unmatched: z.enum(["not_found", "empty", "success"]),
    not_found: replyTemplate.optional(),
    validation_error: replyTemplate.optional(),
    empty: replyTemplate.optional(),
    success: replyTemplate.optional(),
    exists: replyTemplate.optional(),
  })
  .refine((r) => r[r.unmatched] !== undefined, {
    message: "replies.unmatched names a reply the endpoint does not have",
  });

export const endpointSchema = z
  .strictObject({
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
    /** Never shown to the agent: what the endpoint is, for profiles and reviewers. */
    role: z.enum(ENDPOINT_ROLES),
    /** For a hard negative: the base route it is built to be mistaken for. */
    imitates: z
      .string()
      .regex(/^[a-z0-9_]+\.[a-z0-9_]+$/)
      .optional(),
    /** Never shown to the agent: the replies of calls the fixture does not script. */
    replies: repliesSchema.optional(),
  })
  .refine((e) => (e.role === "hard_negative") === (e.imitates !== undefined), {
    message: "a hard negative names the route it imitates, and only a hard negative does",
  });

export const catalogSchema = z.strictObject({
  format: z.literal(CATALOG_FORMAT),
  endpoint_count: z.number().int().positive(),
  /** sha256(canonicalJson(sorted route ids)) */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  endpoints: z.array(endpointSchema),
});

export type Endpoint = z.infer<typeof endpointSchema>;
export type EndpointOutput = z.infer<typeof endpointOutputSchema>;
export type EndpointRole = (typeof ENDPOINT_ROLES)[number];
export type Replies = z.infer<typeof repliesSchema>;
export type ReplyKind = (typeof REPLY_KINDS)[number];
export type Catalog = z.infer<typeof catalogSchema>;
