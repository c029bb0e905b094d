/**
 * What a handler or the shell answers: a status and a JSON body. Every refusal has a code from one
 * closed list, each with its one HTTP status, and a failure-envelope body (`{status: "failure",
 * error_code, message, data: null}`) — the shape the Discover → Call client reads as a failure
 * whatever the status. Messages never quote the request's body or headers.
 */

/** Refusal code → HTTP status. */
export const SERVE_ERRORS = {
  /** No bearer key, or the wrong one. */
  unauthorized: 401,
  /** Not one of the three endpoints under /api/v1. */
  not_found: 404,
  method_not_allowed: 405,
  /** The body did not arrive within the request time limit. */
  request_timeout: 408,
  /** Over the body limit (1 MB): refused before the body is read whole. */
  body_too_large: 413,
  malformed_json: 400,
  /** JSON nested deeper than any real request, refused before a handler walks it. */
  too_deep: 400,
  /** The body or query does not fit the endpoint's schema. */
  invalid_request: 400,
  /** A search id this server did not issue to this session. */
  unknown_search_id: 400,
  /** A tool id that is not a route of the served catalog. */
  unknown_tool: 404,
  /** Execute for a session that never discovered here (or whose session expired). */
  unknown_session: 409,
  /** Execute for a session whose discover queries are no task's query. */
  no_task_for_query: 422,
  /** The router failed or gave an unusable ranking. */
  router_failed: 502,
  /** The handler did not finish within the request time limit. */
  handler_timeout: 503,
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ServeErrorCode = keyof typeof SERVE_ERRORS;

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  /**
   * The body already written as JSON — exactly `JSON.stringify(body)` — when a handler could put it
   * together from pieces written once (world.ts); the shell then sends it instead of writing it again.
   */
  readonly text?: string;
  /** The refusal's code, for the request log line; absent on success. */
  readonly code?: ServeErrorCode;
  /** What failed inside, for the log line only (a router's error code); never sent. */
  readonly cause?: string;
}

export function ok(body: unknown, text?: string): Reply {
  return text === undefined ? { status: 200, body } : { status: 200, body, text };
}

export function refuse(code: ServeErrorCode, message: string, detail: Record<string, unknown> = {}): Reply {
  return {
    status: SERVE_ERRORS[code],
    code,
    body: { status: "failure", error_code: code, message, ...detail, data: null },
  };
}
