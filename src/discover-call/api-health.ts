/**
 * Whether the Discover → Call API is there at all (issue #25): the preflight before the first trial,
 * and the reason codes the run's circuit breaker counts. A trial that fails this way measured the
 * network, not the agent: an API that is down must stop the run, not fill its file.
 *
 * "Infrastructure" is narrow on purpose — no connection, no reply in time, a rate limit that
 * outlasted every retry, a server error. Every other failure (a 4xx, a failure envelope, a reply
 * without a search id) is the API answering, and a trial records what it said.
 */
import { FabenchError } from "../core/index.ts";
import type { ApiOutcome } from "./api-answers.ts";
import type { DiscoverCallApi } from "./api.ts";
import { STAGE } from "./jsonl.ts";

const TRANSPORT = new Set(["network_failure", "request_timeout", "response_timeout"]);

/** A reason code that says the API did not answer (or could not serve): no connection, a timeout, 429, 5xx. */
export function isInfrastructureCode(code: string | null | undefined): boolean {
  if (code === null || code === undefined) return false;
  return TRANSPORT.has(code) || code === "http_429" || /^http_5\d\d$/.test(code);
}

/** Statuses besides the infrastructure ones that mean "not this API, or not with this key". */
const WRONG_PLACE: Readonly<Record<string, string>> = {
  http_401: "the API refused the key (check QVERIS_API_KEY)",
  http_403: "the API refused the key (check QVERIS_API_KEY)",
  http_404: "no such endpoint (check the base URL's path, e.g. /api/v1)",
  http_405: "the endpoint does not take POST (check the base URL)",
  invalid_response: "the reply is not JSON (is this the Discover → Call API?)",
};

function infrastructureCause(code: string, timeoutMs: number): string {
  if (code === "network_failure") return "no connection (refused, unreachable, DNS or TLS failure)";
  if (code === "request_timeout") return `no reply within ${timeoutMs} ms`;
  if (code === "response_timeout") return `the reply's body did not arrive within ${timeoutMs} ms`;
  if (code === "http_429") return "rate limited on every attempt";
  return "the server failed";
}

/** Why the preflight's outcome means the run cannot start, or null when the API answered. */
export function preflightCause(outcome: ApiOutcome<unknown>, timeoutMs: number): string | null {
  if (outcome.ok) return null;
  const code = outcome.failure.reason_code;
  const cause = isInfrastructureCode(code) ? infrastructureCause(code, timeoutMs) : WRONG_PLACE[code];
  if (cause === undefined) return null;
  const tries = outcome.attempts === 1 ? "" : ` after ${outcome.attempts} attempts`;
  return `${code}: ${cause}${tries}`;
}

/**
 * One discover request before the first trial; `api_unavailable` (exit 2) when it is not answered.
 * The message names the base URL, which `normalizeBaseUrl` has already stripped of anything secret
 * (no user, password, query or fragment can get through it).
 */
export async function preflightApi(
  api: Pick<DiscoverCallApi, "baseUrl" | "preflight">,
  sessionId: string,
  timeoutMs: number,
): Promise<void> {
  const cause = preflightCause(await api.preflight(sessionId), timeoutMs);
  if (cause === null) return;
  throw new FabenchError({
    kind: "input",
    stage: STAGE,
    code: "api_unavailable",
    message: `the Discover → Call API at ${api.baseUrl} did not answer the preflight discover request: ${cause}; nothing was run or written`,
  });
}
