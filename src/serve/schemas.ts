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

/*
 * The same checks written out, for the bodies real clients send: each returns the body when it
 * certainly fits (the fields a handler reads, as the schema would give them) and undefined
 * otherwise — the schema then decides and words the refusal. Every body accepted here is one the
 * schema accepts with the same values (test/serve/schemas.test.ts checks this on random bodies);
 * parsing with zod cost more per request than the rest of a search. String limits are checked on
 * `.length` (UTF-16 units), never under the schema's own count, so nothing it refuses passes here.
 */
const ID_TEXT = /^[^\p{Cc}\p{Cf}]+$/u;
const isId = (value: unknown): value is string =>
  typeof value === "string" && value.length >= 1 && value.length <= MAX_ID_LENGTH && ID_TEXT.test(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const SEARCH_KEYS: ReadonlySet<string> = new Set(["query", "limit", "session_id", "view"]);
const INSPECT_KEYS: ReadonlySet<string> = new Set(["tool_ids", "search_id", "session_id", "view"]);
const EXECUTE_KEYS: ReadonlySet<string> = new Set([
  "parameters",
  "search_id",
  "session_id",
  "model",
  "respond_with",
]);

/** Only known own keys (a parsed body has no inherited enumerable ones). */
function onlyKeys(value: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const key in value) if (!known.has(key)) return false;
  return true;
}

const optionalSearchId = (value: unknown) => value === undefined || value === null || isId(value);

export function quickSearchBody(raw: unknown): SearchBody | undefined {
  if (!isRecord(raw) || !onlyKeys(raw, SEARCH_KEYS)) return undefined;
  const { query, limit = DEFAULT_LIMIT, session_id, view } = raw;
  if (typeof query !== "string" || query.length > MAX_QUERY_LENGTH || query.trim() === "") return undefined;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return undefined;
  if (!isId(session_id) || (view !== undefined && view !== "routing")) return undefined;
  return view === undefined ? { query, limit, session_id } : { query, limit, session_id, view };
}

export function quickInspectBody(
  raw: unknown,
): Pick<InspectBody, "tool_ids" | "search_id" | "session_id"> | undefined {
  if (!isRecord(raw) || !onlyKeys(raw, INSPECT_KEYS)) return undefined;
  const { tool_ids, search_id, session_id, view } = raw;
  if (!Array.isArray(tool_ids) || tool_ids.length < 1 || tool_ids.length > MAX_TOOL_IDS) return undefined;
  if (!tool_ids.every(isId) || !optionalSearchId(search_id) || !isId(session_id)) return undefined;
  if (view !== undefined && view !== "lean") return undefined;
  return { tool_ids, search_id: search_id as string | null | undefined, session_id };
}

export function quickExecuteBody(
  raw: unknown,
): Pick<ExecuteBody, "parameters" | "search_id" | "session_id"> | undefined {
  if (!isRecord(raw) || !onlyKeys(raw, EXECUTE_KEYS)) return undefined;
  const { parameters, search_id, session_id, model, respond_with } = raw;
  // The schema copies `parameters` key by key, and a `__proto__` key does not survive the copy.
  if (!isRecord(parameters) || Object.hasOwn(parameters, "__proto__")) return undefined;
  if (!optionalSearchId(search_id) || !isId(session_id)) return undefined;
  if (model !== undefined && (typeof model !== "string" || model.length > MAX_ID_LENGTH)) return undefined;
  if (respond_with !== undefined && respond_with !== "full") return undefined;
  return { parameters, search_id: search_id as string | null | undefined, session_id };
}
