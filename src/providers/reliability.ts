/**
 * Talking to providers safely: every failure is reduced to a status and a reason code (never the
 * provider's error body, which can echo prompts or keys); transient failures are retried with
 * exponential backoff that honours Retry-After; requests and tokens per minute are rate-limited.
 * The clock, sleep and randomness come in from outside so tests run instantly and repeatably.
 */
import { FabenchError, interruptedError } from "../core/index.ts";

export interface Timing {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

export const realTiming: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

export interface Failure {
  readonly code: string;
  readonly status: number | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
}

const STATUS_CODES: Record<number, string> = {
  400: "provider_bad_request",
  401: "provider_auth_error",
  403: "provider_auth_error",
  404: "provider_not_found",
  408: "provider_timeout",
  413: "provider_request_too_large",
  429: "provider_rate_limited",
  529: "provider_overloaded",
};

/**
 * Network failures that say nothing about the request: a reset or refused connection, a socket
 * closed mid-reply (undici's `terminated`, e.g. a body shorter than its `Content-Length`), a DNS
 * hiccup. They are retried like a 5xx.
 */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** An error and its causes (SDKs wrap fetch's errors, which wrap undici's), outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== null && e !== undefined && chain.length < 8; ) {
    if (chain.includes(e)) break;
    chain.push(e);
    e = typeof e === "object" ? (e as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** Reduces any error an SDK or fetch throws to a code, a status and whether to retry. */
export function classify(error: unknown): Failure {
  const chain = causes(error);
  // Our own coded errors (a reply too large, a reply without choices, a body that did not arrive
  // in time) win, however deeply wrapped; of them only a reply that could not be read and one that
  // timed out are worth another attempt.
  const own = chain.find((e): e is FabenchError => e instanceof FabenchError);
  if (own)
    return {
      code: own.code,
      status: null,
      retryable: own.code === "provider_bad_response" || own.code === "provider_timeout",
      retryAfterMs: null,
    };
  const e = error as {
    status?: unknown;
    headers?: unknown;
    name?: unknown;
    constructor?: { name?: string };
  } | null;
  // The SDKs' error classes keep `name` as "Error"; their class names say what happened.
  const name = `${String(e?.name ?? "")} ${String(e?.constructor?.name ?? "")}`;
  const status = typeof e?.status === "number" ? e.status : null;
  if (status === null) {
    if (error instanceof SyntaxError)
      return { code: "provider_bad_response", status: null, retryable: true, retryAfterMs: null };
    const codes = chain.map((c) => String((c as { code?: unknown } | null)?.code ?? ""));
    if (/Timeout/i.test(name) || codes.some((c) => TIMEOUT_CODES.has(c)))
      return { code: "provider_timeout", status: null, retryable: true, retryAfterMs: null };
    const messages = chain.map((c) => String((c as { message?: unknown } | null)?.message ?? ""));
    if (
      /Connection|Fetch|Socket/i.test(name) ||
      codes.some((c) => TRANSIENT_CODES.has(c)) ||
      messages.some((m) => /ECONN|EPIPE|socket|^terminated$|other side closed/i.test(m))
    )
      return { code: "provider_connection_error", status: null, retryable: true, retryAfterMs: null };
    return { code: "provider_error", status: null, retryable: false, retryAfterMs: null };
  }
  const code = STATUS_CODES[status] ?? (status >= 500 ? "provider_server_error" : `provider_http_${status}`);
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  return { code, status, retryable, retryAfterMs: retryAfter(e?.headers) };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfter(headers: unknown, now: () => number = Date.now): number | null {
  let value: string | null = null;
  if (headers && typeof (headers as Headers).get === "function")
    value = (headers as Headers).get("retry-after");
  else if (headers && typeof headers === "object")
    value = ((headers as Record<string, string | undefined>)["retry-after"] ?? null) as string | null;
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now());
}

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** Calls `fn` until it succeeds, a failure is not retryable, or the retries run out (then a coded error). */
export async function withRetries<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  timing: Timing,
  provider: string,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    // An interrupt cancels the request in flight (`fn` passes the signal on) and every retry left.
    if (signal?.aborted) throw interrupted(provider);
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted) throw interrupted(provider);
      const failure = classify(error);
      if (!failure.retryable || attempt >= policy.maxRetries)
        throw new FabenchError({
          kind: "input",
          stage: "provider",
          code: failure.code,
          message: `${provider}: ${failure.status === null ? failure.code : `HTTP ${failure.status}`} after ${attempt + 1} attempt(s)`,
        });
      const backoff =
        Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + timing.random() / 2);
      await timing.sleep(
        failure.retryAfterMs !== null ? Math.min(failure.retryAfterMs, policy.maxDelayMs) : backoff,
      );
    }
  }
}

const interrupted = (provider: string) =>
  interruptedError(`${provider}: the request was cancelled by an interrupt`);

/** Requests and tokens per minute, over a sliding one-minute window. */
export class RateLimiter {
  private readonly events: Array<{ at: number; tokens: number }> = [];

  constructor(
    private readonly rpm: number | null,
    private readonly tpm: number | null,
    private readonly timing: Timing,
  ) {}

  async acquire(tokens: number): Promise<void> {
    for (;;) {
      const now = this.timing.now();
      while (this.events.length > 0 && (this.events[0]?.at ?? 0) <= now - 60_000) this.events.shift();
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
