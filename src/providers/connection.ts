/**
 * Where a request goes and which key goes with it. A key goes only where it was named: Anthropic
 * reads `ANTHROPIC_API_KEY`, OpenAI `OPENAI_API_KEY`, and an OpenAI-compatible server gets no key
 * unless `--api-key-env NAME` names the variable that holds one; no key is ever sent over plain
 * HTTP to a host other than this machine. A base URL carries no credentials (no user or password,
 * no query string or fragment), and is recorded only in its redacted form, `scheme://host:port/path`.
 */
import { usageError } from "../core/index.ts";

/** The official endpoints, used when no `--base-url` is given (never the SDKs' own environment variables). */
export const DEFAULT_BASE_URLS = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
} as const;

/** The variable each provider's key is read from unless `--api-key-env` names another; none for `openai-compatible`. */
export const DEFAULT_KEY_VARIABLES: Readonly<Record<string, string | undefined>> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
};

/**
 * `scheme://host:port/path` of a URL: no user, password, query or fragment. Safe to record and
 * print. A URL that has none of them is returned as given (so records of earlier runs still match).
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(invalid URL)";
  }
  if (!hasExtras(url, parsed)) return url;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** A user, a password, a query string or a fragment, even an empty one (`http://h/v1?`). */
function hasExtras(url: string, parsed: URL): boolean {
  return (
    parsed.username !== "" ||
    parsed.password !== "" ||
    url.includes("@") ||
    url.includes("?") ||
    url.includes("#")
  );
}

/**
 * Refuses (exit 2) a base URL that is not http(s), or that carries credentials: a user or password,
 * a query string (`?api_key=…`) or a fragment. The message shows only the redacted URL.
 */
export function checkBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError("bad_base_url", "--base-url is not a URL (write it as http(s)://host:port/path)");
  }
  const shown = redactUrl(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw usageError("bad_base_url", `--base-url must be http or https, not ${parsed.protocol}`);
  if (hasExtras(url, parsed))
    throw usageError(
      "base_url_credentials",
      `--base-url must not carry credentials: no user or password, query string or fragment (give ${shown}); put the key in an environment variable and name it with --api-key-env NAME`,
    );
  return parsed;
}

/**
 * `localhost`, 127.0.0.0/8 and `::1` only: a request to them never leaves this machine. A name
 * under `.localhost` (`foo.localhost`) is not loopback here: whether it resolves to this machine
 * depends on the resolver, and a key must not travel over plain HTTP on a guess.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (host === "localhost" || host === "::1") return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}

/**
 * The key for a provider: from `--api-key-env NAME` when given, else from the provider's own
 * variable (none for `openai-compatible`, which then gets no key). A variable that is named but
 * unset is a usage error; the message never echoes a value.
 */
export function resolveApiKey(
  kind: string,
  apiKeyEnv: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (apiKeyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv))
      throw usageError(
        "bad_api_key_env",
        "--api-key-env takes the NAME of an environment variable (letters, digits, _), never the key itself",
      );
    const value = env[apiKeyEnv];
    if (!value)
      throw usageError("missing_api_key", "the variable named by --api-key-env is not set (or is empty)");
    return value;
  }
  const variable = DEFAULT_KEY_VARIABLES[kind];
  if (variable === undefined) return null;
  const value = env[variable];
  if (!value)
    throw usageError(
      "missing_api_key",
      `set ${variable} in the environment (or name another with --api-key-env)`,
    );
  return value;
}

/** Refuses (exit 2) to send a key over plain HTTP to a host other than this machine. */
export function checkKeyTransport(url: URL, hasKey: boolean): void {
  if (hasKey && url.protocol === "http:" && !isLoopback(url.hostname))
    throw usageError(
      "insecure_base_url",
      `refusing to send an API key over plain HTTP to ${url.host}; use https, or a loopback address (127.0.0.1, localhost, ::1)`,
    );
}
