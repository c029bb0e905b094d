/**
 * Where the Discover → Call API lives: `--base-url`, else `QVERIS_BASE_URL`, else the public API.
 * The key travels in a header to this URL, so it must be https (plain http only to this machine),
 * and it must not carry credentials, a query or a fragment of its own. Messages name where the URL
 * came from, never the URL, which may hold a secret.
 */
import { usageError } from "../core/index.ts";

/** The public API, as the reference client and the publication policy name it. */
export const DEFAULT_BASE_URL = "https://qveris.ai/api/v1";
/** Exactly these hosts may be reached over plain http (URL parsing lower-cases the host first). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The base URL of a run: the flag when given, else a non-empty `QVERIS_BASE_URL`, else the default. */
export function resolveBaseUrl(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (flag !== undefined) return normalizeBaseUrl(flag, "--base-url");
  const fromEnv = env.QVERIS_BASE_URL;
  if (fromEnv) return normalizeBaseUrl(fromEnv, "QVERIS_BASE_URL");
  return DEFAULT_BASE_URL;
}

/** Checks a base URL (exit 2 when unfit) and removes trailing slashes from its path. */
export function normalizeBaseUrl(value: string, source = "the base URL"): string {
  const bad = () =>
    usageError("bad_base_url", `${source} is not an http(s) URL (write it as https://host/path)`);
  // Whitespace and backslashes are rewritten silently by the URL parser; refuse rather than guess.
  if (value === "" || /[\s\\]/.test(value)) throw bad();
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw bad();
  }
  if ((parsed.protocol !== "https:" && parsed.protocol !== "http:") || parsed.hostname === "") throw bad();
  if (parsed.username !== "" || parsed.password !== "")
    throw usageError(
      "base_url_credentials",
      `${source} must not carry a user or password; the key comes from QVERIS_API_KEY`,
    );
  if (parsed.protocol === "http:" && !LOOPBACK_HOSTS.has(parsed.hostname))
    throw usageError(
      "insecure_base_url",
      `${source} must use https; plain http is allowed only for localhost, 127.0.0.1 and [::1]`,
    );
  // Even an empty `?` or `#` is refused: the endpoints' own query strings are appended to this URL.
  if (value.includes("?") || value.includes("#"))
    throw usageError("base_url_query", `${source} must not have a query string or fragment`);
  parsed.pathname = parsed.pathname.replace(/\/+$/, "");
  return parsed.toString().replace(/\/$/, "");
}
