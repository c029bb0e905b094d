/**
 * The API may wrap an answer in an envelope: `data` beside a `status`, `status_code` or `message`.
 * A failure status inside a 200 reply is still a failure; any other envelope yields its `data`.
 * Anything that is not an envelope is the answer as it is.
 */

const FAILURE_STATUSES = new Set(["failure", "failed", "error"]);

export type Unwrapped = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

export function unwrapEnvelope(payload: unknown): Unwrapped {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload))
    return { ok: true, value: payload };
  const fields = payload as Record<string, unknown>;
  if (!("data" in fields) || !("status" in fields || "status_code" in fields || "message" in fields))
    return { ok: true, value: payload };
  // `status` wins over `status_code` unless it is null or absent, as in the reference client.
  const status = fields.status ?? fields.status_code;
  const failed =
    (typeof status === "string" && FAILURE_STATUSES.has(status.toLowerCase())) ||
    (typeof status === "number" && status >= 400);
  return failed ? { ok: false } : { ok: true, value: fields.data };
}
