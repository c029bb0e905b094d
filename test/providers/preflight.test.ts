/**
 * Issue #25 item 1: what the preflight takes for a dead endpoint or a refused key (stop before any
 * episode), and what it lets through (anything that shows a server is there). Error chains are
 * built the way the SDKs wrap undici's: APIConnectionError ← TypeError("fetch failed") ← the
 * system error with its code.
 */
import { describe, expect, it } from "vitest";
import type { FabenchError } from "../../src/core/index.ts";
import { preflight, preflightCause } from "../../src/providers/index.ts";

const wrapped = (code: string, message = code) =>
  new Error("Connection error.", {
    cause: new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) }),
  });
const status = (s: number) => Object.assign(new Error(`${s} status code`), { status: s });

describe("preflightCause", () => {
  it.each([
    ["ECONNREFUSED", "connection refused (ECONNREFUSED)"],
    ["ENOTFOUND", "host not found (ENOTFOUND)"],
    ["EHOSTUNREACH", "host unreachable (EHOSTUNREACH)"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "TLS failure (DEPTH_ZERO_SELF_SIGNED_CERT)"],
    ["CERT_HAS_EXPIRED", "TLS failure (CERT_HAS_EXPIRED)"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "TLS failure (ERR_TLS_CERT_ALTNAME_INVALID)"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "TLS failure (ERR_SSL_WRONG_VERSION_NUMBER)"],
  ])("stops on %s", (code, cause) => {
    expect(preflightCause(wrapped(code))).toEqual({ code: "provider_unreachable", cause });
  });

  it.each([401, 403])("stops on HTTP %i: the key was refused", (s) => {
    expect(preflightCause(status(s))).toEqual({
      code: "provider_auth_error",
      cause: `the API key was refused (HTTP ${s})`,
    });
  });

  it("lets through anything that shows a server is there: other statuses, resets, time-outs, bad bodies", () => {
    for (const s of [404, 405, 429, 500, 503]) expect(preflightCause(status(s))).toBeNull();
    expect(preflightCause(wrapped("ECONNRESET"))).toBeNull();
    expect(preflightCause(wrapped("UND_ERR_SOCKET", "other side closed"))).toBeNull();
    expect(preflightCause(Object.assign(new Error("Request timed out."), { name: "Timeout" }))).toBeNull();
    expect(preflightCause(new SyntaxError("Unexpected end of JSON input"))).toBeNull();
  });
});

describe("preflight", () => {
  it("throws one coded line naming the URL it is given and the cause, never the provider's words", async () => {
    const error = (await preflight("https://api.example.test/v1", async () => {
      throw wrapped("ENOTFOUND", "getaddrinfo ENOTFOUND api.example.test sk-secret");
    }).catch((e: unknown) => e)) as FabenchError;
    expect(error.code).toBe("provider_unreachable");
    expect(error.kind).toBe("input"); // exit 2
    expect(error.message).toBe(
      "https://api.example.test/v1: host not found (ENOTFOUND); nothing was run — check --base-url",
    );
    expect(error.message).not.toContain("\n");
  });

  it("resolves when the endpoint answers, whatever it answers", async () => {
    await expect(preflight("http://127.0.0.1:1/v1", async () => ({ data: [] }))).resolves.toBeUndefined();
    await expect(
      preflight("http://127.0.0.1:1/v1", async () => {
        throw status(404);
      }),
    ).resolves.toBeUndefined();
  });
});
