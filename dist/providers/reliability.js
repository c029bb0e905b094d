/**
 * Talking to providers safely: every failure is reduced to a status and a reason code (never the
 * provider's error body, which can echo prompts or keys); transient failures are retried with
 * exponential backoff that honours Retry-After; requests and tokens per minute are rate-limited.
 * The clock, sleep and randomness come in from outside so tests run instantly and repeatably.
 */
import { FabenchError } from "../core/index.js";
export const realTiming = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
};
const STATUS_CODES = {
    400: "provider_bad_request",
    401: "provider_auth_error",
    403: "provider_auth_error",
    404: "provider_not_found",
    408: "provider_timeout",
    413: "provider_request_too_large",
    429: "provider_rate_limited",
    529: "provider_overloaded",
};
/** Reduces any error an SDK or fetch throws to a code, a status and whether to retry. */
export function classify(error) {
    if (error instanceof FabenchError)
        return {
            code: error.code,
            status: null,
            retryable: error.code === "provider_bad_response",
            retryAfterMs: null,
        };
    const e = error;
    // The SDKs' error classes keep `name` as "Error"; their class names say what happened.
    const name = `${String(e?.name ?? "")} ${String(e?.constructor?.name ?? "")}`;
    const status = typeof e?.status === "number" ? e.status : null;
    if (status === null) {
        if (error instanceof SyntaxError)
            return { code: "provider_bad_response", status: null, retryable: true, retryAfterMs: null };
        if (/Timeout/i.test(name))
            return { code: "provider_timeout", status: null, retryable: true, retryAfterMs: null };
        if (/Connection|Fetch|Socket/i.test(name) ||
            /ECONN|EPIPE|socket/i.test(String(error?.message ?? "")))
            return { code: "provider_connection_error", status: null, retryable: true, retryAfterMs: null };
        return { code: "provider_error", status: null, retryable: false, retryAfterMs: null };
    }
    const code = STATUS_CODES[status] ?? (status >= 500 ? "provider_server_error" : `provider_http_${status}`);
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { code, status, retryable, retryAfterMs: retryAfter(e?.headers) };
}
/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfter(headers, now = Date.now) {
    let value = null;
    if (headers && typeof headers.get === "function")
        value = headers.get("retry-after");
    else if (headers && typeof headers === "object")
        value = (headers["retry-after"] ?? null);
    if (value === null || value.trim() === "")
        return null;
    const seconds = Number(value);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds * 1000);
    const date = Date.parse(value);
    return Number.isNaN(date) ? null : Math.max(0, date - now());
}
export const DEFAULT_RETRY = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };
/** Calls `fn` until it succeeds, a failure is not retryable, or the retries run out (then a coded error). */
export async function withRetries(fn, policy, timing, provider) {
    for (let attempt = 0;; attempt++) {
        try {
            return await fn();
        }
        catch (error) {
            const failure = classify(error);
            if (!failure.retryable || attempt >= policy.maxRetries)
                throw new FabenchError({
                    kind: "input",
                    stage: "provider",
                    code: failure.code,
                    message: `${provider}: ${failure.status === null ? failure.code : `HTTP ${failure.status}`} after ${attempt + 1} attempt(s)`,
                });
            const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + timing.random() / 2);
            await timing.sleep(failure.retryAfterMs !== null ? Math.min(failure.retryAfterMs, policy.maxDelayMs) : backoff);
        }
    }
}
/** Requests and tokens per minute, over a sliding one-minute window. */
export class RateLimiter {
    rpm;
    tpm;
    timing;
    events = [];
    constructor(rpm, tpm, timing) {
        this.rpm = rpm;
        this.tpm = tpm;
        this.timing = timing;
    }
    async acquire(tokens) {
        for (;;) {
            const now = this.timing.now();
            while (this.events.length > 0 && (this.events[0]?.at ?? 0) <= now - 60_000)
                this.events.shift();
            const used = this.events.reduce((a, e) => a + e.tokens, 0);
            const requestsOk = this.rpm === null || this.events.length < this.rpm;
            const tokensOk = this.tpm === null || this.events.length === 0 || used + tokens <= this.tpm;
            if (requestsOk && tokensOk) {
                this.events.push({ at: now, tokens });
                return;
            }
            const oldest = this.events[0]?.at ?? now;
            await this.timing.sleep(Math.max(1, oldest + 60_000 - now));
        }
    }
}
