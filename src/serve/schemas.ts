/**
 * The request bodies of the three endpoints (DISCOVER-CALL.md §2), strict: an unknown field is a
 * 400 naming it, so a client's typo (`tool_id` for `tool_ids`) fails loudly instead of silently.
 * Fields the reference harness may leave out or send as null (`search_id` on inspect and execute)
 * are optional; so are the ones that only select a view (`view`, `respond_with`, `model`).
 */
import { z } from "zod";

/** The discovery limit's range; the reference harness refuses anything else too. */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;
/** Ids a client picks (session ids) and ids this server issued are short and printable. */
const MAX_ID_LENGTH = 256;
const MAX_QUERY_LENGTH = 10_000;
/** The catalogs have 250 endpoints at most; asking for more ids at once is not inspection. */
const MAX_TOOL_IDS = 100;

const id = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, "must not contain control or format characters");

export const searchBodySchema = z.strictObject({
  query: z
    .string()
    .max(MAX_QUERY_LENGTH)
    .refine((q) => q.trim() !== "", "must not be blank"),
  limit: z.int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  session_id: id,
  view: z.literal("routing").optional(),
});

export const inspectBodySchema = z.strictObject({
  tool_ids: z.array(id).min(1).max(MAX_TOOL_IDS),
  search_id: id.nullable().optional(),
  session_id: id,
  view: z.literal("lean").optional(),
});

export const executeBodySchema = z.strictObject({
  parameters: z.record(z.string(), z.unknown()),
  search_id: id.nullable().optional(),
  session_id: id,
  model: z.string().max(MAX_ID_LENGTH).optional(),
  respond_with: z.literal("full").optional(),
});

/** `?tool_id=` of execute: exactly one. */
export const toolIdQuerySchema = id;

export type SearchBody = z.infer<typeof searchBodySchema>;
export type InspectBody = z.infer<typeof inspectBodySchema>;
export type ExecuteBody = z.infer<typeof executeBodySchema>;
