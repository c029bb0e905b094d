/**
 * What the Discover → Call API client hands back: an answer, or a failure with a stage and a
 * reason code from a closed list. Failures carry fixed messages only: a server's error body can
 * echo the request (and so the key), so nothing the server wrote ever reaches a message.
 *
 * The answer schemas are deliberately tolerant, like the reference harness: a `results` that is not
 * a list reads as an empty list (the trial then fails at a later gate with its own code), and only
 * a discovery without a usable `search_id` is refused here.
 */
import { z } from "zod";

/** The reason codes of a failed request, besides `http_<status>`. */
export const API_REASONS = [
  "invalid_response",
  "network_failure",
  "request_timeout",
  "response_timeout",
  "failure_envelope",
] as const;

/** The record message of every API failure (the reference harness writes exactly this). */
export const API_FAILURE_MESSAGE = "API request failed";
export const MISSING_SEARCH_ID_MESSAGE = "Discover did not return a search_id";

export const apiReasonCodeSchema = z.union([z.enum(API_REASONS), z.templateLiteral(["http_", z.int()])]);
export type ApiReasonCode = z.infer<typeof apiReasonCodeSchema>;

/**
 * A failed API step. Every transport, status and envelope failure is stage `api`, whichever
 * endpoint failed; a discovery that answers without a `search_id` is stage `discover`, because the
 * request itself worked.
 */
export const apiFailureSchema = z.discriminatedUnion("stage", [
  z.object({
    stage: z.literal("api"),
    reason_code: apiReasonCodeSchema,
    message: z.literal(API_FAILURE_MESSAGE),
  }),
  z.object({
    stage: z.literal("discover"),
    reason_code: z.literal("missing_search_id"),
    message: z.literal(MISSING_SEARCH_ID_MESSAGE),
  }),
]);
export type ApiFailure = z.infer<typeof apiFailureSchema>;
export type TransportFailure = Extract<ApiFailure, { stage: "api" }>;

/** One endpoint's outcome and how many HTTP attempts it took (1 to 4). */
export type ApiOutcome<T, F extends ApiFailure = TransportFailure> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly failure: F; readonly attempts: number };

/** Items are kept as the server sent them: adapters and records pick the fields they need. */
const toolList = z.array(z.unknown()).catch(() => []);

/** `/search`: the search id is trimmed (an id of only spaces counts as missing). */
export const discoverAnswerSchema = z.object({
  search_id: z.string().trim().min(1),
  results: toolList,
});
export type DiscoverAnswer = z.infer<typeof discoverAnswerSchema>;

/** `/tools/by-ids`. */
export const inspectAnswerSchema = z.object({ results: toolList }).catch(() => ({ results: [] }));
export type InspectAnswer = z.infer<typeof inspectAnswerSchema>;

/** `/tools/execute`: only `success === true` is a success; `result` is kept whole for the scorer. */
export const executeAnswerSchema = z
  .object({ success: z.unknown().transform((v) => v === true), result: z.unknown() })
  .catch(() => ({ success: false, result: undefined }));
export type ExecuteAnswer = z.infer<typeof executeAnswerSchema>;

export function transportFailure(reason_code: ApiReasonCode): TransportFailure {
  return { stage: "api", reason_code, message: API_FAILURE_MESSAGE };
}
