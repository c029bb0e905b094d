/**
 * When the client tries again. Discover and inspect only read, so a rate limit, an unavailable
 * server, a network failure or a timeout is retried. Execute may already have run (and been billed)
 * when its reply is lost or the server says 503, so only an explicit 429, which promises the call
 * was not taken, is retried there.
 */

/** One first attempt and at most three retries. */
export const MAX_ATTEMPTS = 4;
/** A server's Retry-After is honoured up to a minute; beyond that the run would look hung. */
export const MAX_RETRY_DELAY_MS = 60_000;
const BASE_DELAY_MS = 500;

export interface RetryRule {
  /** HTTP statuses worth another attempt. */
  readonly statuses: ReadonlySet<number>;
  /** Whether a network failure or a timeout is worth another attempt. */
  readonly transport: boolean;
}

export const READ_RETRY: RetryRule = { statuses: new Set([429, 503]), transport: true };
export const EXECUTE_RETRY: RetryRule = { statuses: new Set([429]), transport: false };

/**
 * The wait before the retry that follows 0-based `attempt`: a Retry-After in (possibly fractional)
 * seconds or an HTTP date (measured against the injected clock), capped at a minute; otherwise
 * 500 ms × 2^attempt. A header that is neither (negative, garbage) falls back to the backoff.
 */
export function retryDelayMs(retryAfter: string | null, attempt: number, now: () => number): number {
  const value = retryAfter?.trim() ?? "";
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_DELAY_MS);
  if (/[a-z]/i.test(value)) {
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - now()), MAX_RETRY_DELAY_MS);
  }
  return Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
}
