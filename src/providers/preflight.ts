/**
 * The preflight: before a run sends its first paid request, one free request to the provider's
 * endpoint (its models list) shows whether the base URL answers at all and takes the key. A dead
 * or mistyped URL — refused, unknown host, unreachable, a TLS failure — and a refused key stop the
 * run there, with one line naming the redacted base URL and the cause, instead of being retried
 * for every episode. Any other answer (a list, a 404 from a server without one, a 5xx, a time-out,
 * a reset) says the endpoint is there: the run goes on and its requests meet what they meet.
 */
import { FabenchError } from "../core/index.ts";

/** Connection-level failures that no retry mends: the wrong host or port, no route, no trust. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EAI_NONAME: "host not found",
  EAI_FAIL: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENETDOWN: "network down",
  EADDRNOTAVAIL: "address not available",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

/** Certificate and TLS handshake errors, as Node names them. */
const TLS =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_OSSL_)/;

function chainOf(error: unknown): Array<{ code?: unknown; message?: unknown; status?: unknown }> {
  const chain: Array<{ code?: unknown; message?: unknown; status?: unknown }> = [];
  for (let e = error; e !== null && typeof e === "object" && chain.length < 8; ) {
    if (chain.includes(e)) break;
    chain.push(e as { code?: unknown });
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * Why a preflight request shows the endpoint cannot be used, as a short phrase with the error's
 * code (never the provider's words), or null when it reached something. Pure.
 */
export function preflightCause(error: unknown): { code: string; cause: string } | null {
  const chain = chainOf(error);
  const status = chain.map((e) => e.status).find((s): s is number => typeof s === "number");
  if (status === 401 || status === 403)
    return { code: "provider_auth_error", cause: `the API key was refused (HTTP ${status})` };
  if (status !== undefined) return null;
  for (const e of chain) {
    const code = typeof e.code === "string" ? e.code : "";
    const known = UNREACHABLE[code];
    if (known !== undefined) return { code: "provider_unreachable", cause: `${known} (${code})` };
    if (TLS.test(code)) return { code: "provider_unreachable", cause: `TLS failure (${code})` };
    // fetch refuses ports it considers unsafe (e.g. 9, 25) before connecting.
    if (e.message === "bad port") return { code: "provider_unreachable", cause: "a port fetch refuses" };
  }
  return null;
}

/**
 * Sends the preflight `request` (a models list: no tokens, nothing to pay); throws a coded error
 * (exit 2) naming `shownUrl` — already redacted — when it shows the endpoint cannot be used.
 */
export async function preflight(shownUrl: string, request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    const found = preflightCause(error);
    if (found === null) return;
    const advice =
      found.code === "provider_auth_error"
        ? "check the key (the variable --api-key-env names, or the provider's own)"
        : "check --base-url";
    throw new FabenchError({
      kind: "input",
      stage: "provider",
      code: found.code,
      message: `${shownUrl}: ${found.cause}; nothing was run — ${advice}`,
    });
  }
}
