/**
 * The client of the Discover → Call API: `/search`, `/tools/by-ids` and `/tools/execute`, all POST
 * with JSON bodies and the bearer key. Every outcome is a value — an answer, or a failure with a
 * stage and a reason code — never a thrown error, so the runner records each trial the same way.
 * `fetch`, `sleep` and the clock come in from outside: tests count attempts and read the waits the
 * client asked for instead of timing it.
 */
import { parseBoundedJson, usageError } from "../core/index.ts";
import {
  type ApiFailure,
  type ApiOutcome,
  type ApiReasonCode,
  type DiscoverAnswer,
  discoverAnswerSchema,
  type ExecuteAnswer,
  executeAnswerSchema,
  type InspectAnswer,
  inspectAnswerSchema,
  MISSING_SEARCH_ID_MESSAGE,
  transportFailure,
} from "./api-answers.ts";
import { unwrapEnvelope } from "./api-envelope.ts";
import { checkApiKey } from "./api-key.ts";
import { EXECUTE_RETRY, MAX_ATTEMPTS, READ_RETRY, type RetryRule, retryDelayMs } from "./api-retry.ts";
import { RevisionLog, type SeenRevisions } from "./api-revisions.ts";
import { normalizeBaseUrl } from "./base-url.ts";

export const DEFAULT_API_TIMEOUT_MS = 120_000;
/** The preflight's discovery query: it only has to be answered, by any result or none. */
export const PREFLIGHT_QUERY = "fabench preflight";

export interface DiscoverCallApiOptions {
  /** Checked again here (exit 2 when unfit), so a caller cannot skip `resolveBaseUrl`'s rules. */
  readonly baseUrl: string;
  /** From `QVERIS_API_KEY` (see `resolveApiKey`); sent only in the authorization header. */
  readonly apiKey: string;
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch; only used to turn a Retry-After date into a wait. */
  readonly now: () => number;
  /** One limit per attempt, covering the headers and the whole body. */
  readonly timeoutMs?: number;
}

export interface DiscoverRequest {
  readonly query: string;
  readonly limit: number;
  readonly sessionId: string;
}
export interface InspectRequest {
  readonly toolIds: readonly string[];
  readonly searchId: string;
  readonly sessionId: string;
}
export interface ExecuteRequest {
  readonly toolId: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly searchId: string;
  readonly sessionId: string;
  readonly model: string;
}

export interface DiscoverCallApi {
  /** The normalized base URL, as a run records it. */
  readonly baseUrl: string;
  /** A reply without a usable `search_id` fails as `discover`/`missing_search_id`. */
  discover(request: DiscoverRequest): Promise<ApiOutcome<DiscoverAnswer, ApiFailure>>;
  inspect(request: InspectRequest): Promise<ApiOutcome<InspectAnswer>>;
  execute(request: ExecuteRequest): Promise<ApiOutcome<ExecuteAnswer>>;
  /**
   * The preflight: one discover request with a fixed, harmless query and limit 1, retried like
   * discover, before the first trial. Its revision headers are not kept: the reference runner makes
   * no such request, and the records of both runners must name the same revisions.
   */
  preflight(sessionId: string): Promise<ApiOutcome<unknown>>;
  /** The revision headers of every kept reply so far (see api-revisions.ts). */
  revisions(): SeenRevisions;
}

/** What one HTTP attempt came to. */
type Step =
  | { readonly kind: "answer"; readonly value: unknown }
  | { readonly kind: "failed"; readonly reason: ApiReasonCode }
  | { readonly kind: "retry"; readonly delayMs: number };

export function createDiscoverCallApi(options: DiscoverCallApiOptions): DiscoverCallApi {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const key = checkApiKey(options.apiKey);
  const timeoutMs = options.timeoutMs ?? DEFAULT_API_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2 ** 31 - 1)
    throw usageError("bad_timeout", "the API timeout takes a whole number of milliseconds ≥ 1");
  const log = new RevisionLog();
  const conn: Connection = {
    baseUrl,
    key,
    timeoutMs,
    send: options.fetch,
    sleep: options.sleep,
    now: options.now,
    log,
  };
  return {
    baseUrl,
    async discover({ query, limit, sessionId }) {
      const body = { query, limit, session_id: sessionId, view: "routing" };
      const outcome = await request(conn, "/search", body, READ_RETRY);
      if (!outcome.ok) return outcome;
      const parsed = discoverAnswerSchema.safeParse(outcome.value);
      if (parsed.success) return { ok: true, value: parsed.data, attempts: outcome.attempts };
      const failure: ApiFailure = {
        stage: "discover",
        reason_code: "missing_search_id",
        message: MISSING_SEARCH_ID_MESSAGE,
      };
      return { ok: false, failure, attempts: outcome.attempts };
    },
    async inspect({ toolIds, searchId, sessionId }) {
      const body = { tool_ids: [...toolIds], search_id: searchId, session_id: sessionId, view: "lean" };
      const outcome = await request(conn, "/tools/by-ids", body, READ_RETRY);
      return outcome.ok ? { ...outcome, value: inspectAnswerSchema.parse(outcome.value) } : outcome;
    },
    async execute({ toolId, parameters, searchId, sessionId, model }) {
      const path = `/tools/execute?tool_id=${encodeURIComponent(toolId)}`;
      const body = { parameters, search_id: searchId, session_id: sessionId, model, respond_with: "full" };
      const outcome = await request(conn, path, body, EXECUTE_RETRY);
      return outcome.ok ? { ...outcome, value: executeAnswerSchema.parse(outcome.value) } : outcome;
    },
    preflight(sessionId) {
      const body = { query: PREFLIGHT_QUERY, limit: 1, session_id: sessionId, view: "routing" };
      return request(conn, "/search", body, READ_RETRY, false);
    },
    revisions: () => log.seen(),
  };
}

/** What every request needs: where, with which key, how long, how to wait, and the revision log. */
interface Connection {
  readonly baseUrl: string;
  readonly key: string;
  readonly timeoutMs: number;
  readonly send: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  readonly log: RevisionLog;
}

/** One request: attempts under `rule` until an answer or a failure, sleeping between them. */
async function request(
  conn: Connection,
  path: string,
  payload: unknown,
  rule: RetryRule,
  observe = true,
): Promise<ApiOutcome<unknown>> {
  // Serialized once, outside the attempts: a body that cannot be written is a bug, not a network failure.
  const body = JSON.stringify(payload);
  for (let index = 0; ; index++) {
    const step = await attempt(conn, { path, body, rule, index, observe });
    if (step.kind === "answer") return { ok: true, value: step.value, attempts: index + 1 };
    if (step.kind === "failed")
      return { ok: false, failure: transportFailure(step.reason), attempts: index + 1 };
    await conn.sleep(step.delayMs);
  }
}

/** Which attempt this is, of which request. */
interface Attempt {
  readonly path: string;
  readonly body: string;
  readonly rule: RetryRule;
  readonly index: number;
  /** Whether this reply's revision headers are kept (not for the preflight). */
  readonly observe: boolean;
}

/** One HTTP attempt under one timer, covering the headers and the whole body. */
async function attempt(conn: Connection, at: Attempt): Promise<Step> {
  const last = at.index + 1 >= MAX_ATTEMPTS;
  // A lost connection or a timeout carries no server hint: plain backoff where the rule allows it.
  const lost = (reason: ApiReasonCode): Step =>
    at.rule.transport && !last
      ? { kind: "retry", delayMs: retryDelayMs(null, at.index, conn.now) }
      : { kind: "failed", reason };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), conn.timeoutMs);
  try {
    let response: Response;
    try {
      response = await post(conn, at, controller.signal);
    } catch {
      return lost(controller.signal.aborted ? "request_timeout" : "network_failure");
    }
    if (response.status >= 300 && response.status < 400) {
      await discard(response);
      return lost("network_failure");
    }
    if (at.rule.statuses.has(response.status) && !last) {
      await discard(response);
      return {
        kind: "retry",
        delayMs: retryDelayMs(response.headers.get("retry-after"), at.index, conn.now),
      };
    }
    if (at.observe) conn.log.observe(response.headers);
    if (!response.ok) {
      await discard(response);
      return { kind: "failed", reason: `http_${response.status}` };
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      // A body cut short of its Content-Length cannot be read: the reference harness records it
      // as an invalid response, not retried, and so does this one (record compatibility).
      if (controller.signal.aborted) return lost("response_timeout");
      return { kind: "failed", reason: "invalid_response" };
    }
    return readAnswer(text, conn.key);
  } finally {
    clearTimeout(timer);
  }
}

/** The POST itself, with the key in the authorization header and redirects never followed. */
function post(conn: Connection, at: Attempt, signal: AbortSignal): Promise<Response> {
  // Called unbound: a platform fetch may refuse to run with the options object as `this`.
  const send = conn.send;
  return send(`${conn.baseUrl}${at.path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${conn.key}`,
      "content-type": "application/json",
      accept: "application/json",
    },
    body: at.body,
    signal,
    // Never followed: following it would carry the key to wherever the Location points.
    // Like the reference harness (fetch's redirect "error"), a redirect is a network failure,
    // so records from both runners carry the same reason code.
    redirect: "manual",
  });
}

/** Parses a 2xx body and opens its envelope. */
function readAnswer(text: string, key: string): Step {
  // Nested deeper than any API answer, it is refused unparsed: writing it (the key check below,
  // records, adapter prompts) recurses and would overflow the stack.
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return { kind: "failed", reason: "invalid_response" };
  const unwrapped = unwrapEnvelope(parsed.value);
  if (!unwrapped.ok) return { kind: "failed", reason: "failure_envelope" };
  // An answer that echoes the key would carry it into records and adapter prompts: refuse it whole.
  if (JSON.stringify(unwrapped.value ?? null).includes(key))
    return { kind: "failed", reason: "invalid_response" };
  return { kind: "answer", value: unwrapped.value };
}

/** Frees the connection of a reply whose body will not be read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
