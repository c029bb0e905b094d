/**
 * The wire, against small servers on 127.0.0.1 and the official SDKs: a body cut short is retried
 * like a 5xx; a reply past --max-response-bytes is cut off while it is read; a key goes only where
 * it was named, never in plain HTTP off this machine; a base URL carries no credentials.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import {
  cappedFetch,
  checkBaseUrl,
  classify,
  createClient,
  isLoopback,
  redactUrl,
  withRetries,
  type ClientOptions,
  type ProviderRequest,
} from "../../src/providers/index.ts";
import { startFaultProxy, type FaultProxy, type WireFault } from "./fault-proxy.ts";

const KEY = "sk-wire-SECRET-0123456789";
const instant = { now: () => 0, sleep: async () => undefined, random: () => 0.5 };
const policy = { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 1 };
const request: ProviderRequest = {
  system: "s",
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  settings: { temperature: 0, max_output_tokens: 16, seed: null, prompt_cache: false },
};

/** A minimal model on 127.0.0.1: answers "ok" in the Anthropic or OpenAI format, whichever path is asked. */
async function startEcho(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = req.url?.includes("/messages")
        ? {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "m",
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            usage: { input_tokens: 1, output_tokens: 1 },
          }
        : {
            id: "c",
            object: "chat.completion",
            created: 1,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1 },
          };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the wire", () => {
  let echo: { url: string; server: Server };
  let proxy: FaultProxy;
  let faults: (n: number) => WireFault | null = () => null;
  beforeAll(async () => {
    echo = await startEcho();
    proxy = await startFaultProxy(echo.url, (n) => faults(n));
  });
  afterAll(async () => {
    await proxy.close();
    echo.server.closeAllConnections();
    await new Promise((resolve) => echo.server.close(resolve));
  });
  const client = (options: Partial<ClientOptions> & Pick<ClientOptions, "kind">) =>
    createClient({
      model: "m",
      env: { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY },
      openaiApi: "chat",
      timeoutMs: 10_000,
      baseUrl: options.kind === "anthropic" ? proxy.url : `${proxy.url}/v1`,
      ...options,
    });
  /** The credential headers of the requests sent by `fn`. */
  const credentials = async (fn: () => Promise<unknown>) => {
    const from = proxy.seen.length;
    await fn();
    return proxy.seen.slice(from).map((s) => s.authorization + s.apiKey);
  };

  describe("a body cut short of its Content-Length", () => {
    it.each([["anthropic"], ["openai"], ["openai-compatible"]])(
      "is a retryable connection error, and a retry that succeeds leaves no error (%s)",
      async (kind) => {
        const provider = client({ kind });
        const from = proxy.seen.length;
        faults = (n) => (n - from < 3 ? { kind: "truncated_body" } : null);
        const error = await provider.complete(request).catch((e: unknown) => e);
        expect(classify(error)).toMatchObject({ code: "provider_connection_error", retryable: true });
        const reply = await withRetries(() => provider.complete(request), policy, instant, kind);
        faults = () => null;
        expect(reply.text).toBe("ok");
        expect(proxy.seen.slice(from).map((s) => s.fault)).toEqual([
          "truncated_body",
          "truncated_body",
          "truncated_body",
          null,
        ]);
      },
    );

    it("classifies undici's socket errors however deeply the SDK wraps them", () => {
      const socket = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
      const terminated = new TypeError("terminated", { cause: socket });
      expect(classify(terminated)).toMatchObject({ code: "provider_connection_error", retryable: true });
      const reset = new Error("Connection error.", {
        cause: new TypeError("fetch failed", {
          cause: Object.assign(new Error("read"), { code: "ECONNRESET" }),
        }),
      });
      expect(classify(reset)).toMatchObject({ code: "provider_connection_error", retryable: true });
      const bodyTimeout = new TypeError("terminated", {
        cause: Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }),
      });
      expect(classify(bodyTimeout)).toMatchObject({ code: "provider_timeout", retryable: true });
      expect(classify(new TypeError("Cannot read properties of undefined"))).toMatchObject({
        code: "provider_error",
        retryable: false,
      });
    });
  });

  describe("--max-response-bytes", () => {
    it.each([
      ["anthropic", "anthropic"],
      ["openai", "openai"],
    ] as const)("fails an 8 MB reply with response_too_large, not retried (%s)", async (kind, format) => {
      const provider = client({ kind, maxResponseBytes: 1_000_000 });
      const from = proxy.seen.length;
      faults = (n) => (n === from ? { kind: "huge_reply", bytes: 8_000_000, format } : null);
      const error = await withRetries(() => provider.complete(request), policy, instant, kind).catch(
        (e: unknown) => e,
      );
      faults = () => null;
      expect(error).toBeInstanceOf(FabenchError);
      expect((error as FabenchError).code).toBe("response_too_large");
      expect(proxy.seen.length - from).toBe(1); // never retried
    });

    it("takes a reply up to the cap", async () => {
      const reply = await client({ kind: "anthropic", maxResponseBytes: 10_000 }).complete(request);
      expect(reply.text).toBe("ok");
    });

    it("stops reading a streamed body at the cap: the source is pulled no further", async () => {
      let pulled = 0;
      const chunk = new Uint8Array(64 * 1024);
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const base = (async () => new Response(source)) as unknown as typeof fetch;
      const response = await cappedFetch(1_000_000, base)("http://127.0.0.1/");
      const error = await response.arrayBuffer().catch((e: unknown) => e);
      expect((error as FabenchError).code).toBe("response_too_large");
      // At most the cap, one chunk past it, and what the stream queues ahead.
      expect(pulled).toBeLessThanOrEqual(1_000_000 + 4 * chunk.byteLength);
    });

    it("refuses a reply whose Content-Length is over the cap before reading any of it", async () => {
      let pulled = 0;
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(16));
        },
      });
      const base = (async () =>
        new Response(source, { headers: { "content-length": "8000000" } })) as unknown as typeof fetch;
      const error = await cappedFetch(1_000_000, base)("http://127.0.0.1/").catch((e: unknown) => e);
      expect((error as FabenchError).code).toBe("response_too_large");
      expect(pulled).toBeLessThanOrEqual(1); // a stream may pull once when made; nothing is read
      expect(classify(new Error("Connection error.", { cause: error }))).toMatchObject({
        code: "response_too_large",
        retryable: false,
      });
    });
  });

  describe("which key goes where", () => {
    it("sends an OpenAI-compatible server no key, even with OPENAI_API_KEY set", async () => {
      const sent = await credentials(() => client({ kind: "openai-compatible" }).complete(request));
      expect(sent).toEqual([""]);
      const responses = client({ kind: "openai-compatible", openaiApi: "responses" });
      expect(await credentials(() => responses.complete(request).catch(() => undefined))).toEqual([""]);
    });

    it("sends an OpenAI-compatible server the key --api-key-env names, and only that one", async () => {
      const provider = client({
        kind: "openai-compatible",
        apiKeyEnv: "LOCAL_LLM_KEY",
        env: { OPENAI_API_KEY: KEY, LOCAL_LLM_KEY: "local-key-42" },
      });
      expect(await credentials(() => provider.complete(request))).toEqual(["Bearer local-key-42"]);
    });

    it("sends anthropic: ANTHROPIC_API_KEY and openai: OPENAI_API_KEY, unless --api-key-env names another", async () => {
      const env = { ANTHROPIC_API_KEY: "ant-key", OPENAI_API_KEY: "oai-key", OTHER: "other-key" };
      const anthropic = await credentials(() => client({ kind: "anthropic", env }).complete(request));
      expect(anthropic).toEqual([expect.stringContaining("ant-key")]);
      expect(anthropic[0]).not.toMatch(/oai-key|other-key/);
      expect(await credentials(() => client({ kind: "openai", env }).complete(request))).toEqual([
        "Bearer oai-key",
      ]);
      expect(
        await credentials(() => client({ kind: "openai", env, apiKeyEnv: "OTHER" }).complete(request)),
      ).toEqual(["Bearer other-key"]);
    });

    it("refuses a named variable that is unset, a missing key, and a value in place of a name", () => {
      const code = (fn: () => unknown) => {
        try {
          fn();
        } catch (error) {
          return `${(error as FabenchError).kind}:${(error as FabenchError).code}:${(error as Error).message}`;
        }
        return "no error";
      };
      expect(code(() => client({ kind: "openai-compatible", apiKeyEnv: "NOT_SET" }))).toMatch(
        /^usage:missing_api_key:/,
      );
      expect(code(() => client({ kind: "anthropic", env: {} }))).toMatch(
        /^usage:missing_api_key:.*ANTHROPIC_API_KEY/,
      );
      const pasted = code(() => client({ kind: "openai", apiKeyEnv: KEY }));
      expect(pasted).toMatch(/^usage:bad_api_key_env:/);
      expect(pasted).not.toContain(KEY);
    });

    it("never sends a key in plain HTTP off this machine; without a key plain HTTP is fine", () => {
      const make = (kind: string, baseUrl: string, apiKeyEnv?: string) => () =>
        client({
          kind,
          baseUrl,
          ...(apiKeyEnv ? { apiKeyEnv } : {}),
          env: { ...{ OPENAI_API_KEY: KEY }, K: "k" },
        });
      expect(make("openai", "http://models.example.com/v1")).toThrow(/plain HTTP to models\.example\.com/);
      expect(make("openai-compatible", "http://10.0.0.5:8000/v1", "K")).toThrow(/insecure|plain HTTP/);
      expect(make("openai-compatible", "http://10.0.0.5:8000/v1")).not.toThrow();
      expect(make("openai-compatible", "https://10.0.0.5:8000/v1", "K")).not.toThrow();
      expect(make("openai", "http://localhost:8000/v1")).not.toThrow();
      expect(make("openai", "http://[::1]:8000/v1")).not.toThrow();
      expect(["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"].every(isLoopback)).toBe(true);
      expect(["10.0.0.1", "example.com", "127.0.0.1.example.com", "0.0.0.0"].some(isLoopback)).toBe(false);
    });

    it("treats a name under .localhost, and a 127.x address that is not one, as any other host", () => {
      // Whether foo.localhost resolves to this machine is the resolver's business: never a reason to
      // send a key over plain HTTP.
      for (const host of ["foo.localhost", "api.localhost", "localhost.example.com", "127.0.0.256", "127.1"])
        expect(isLoopback(host), host).toBe(false);
      const make = (baseUrl: string) => () =>
        client({ kind: "openai", baseUrl, env: { OPENAI_API_KEY: KEY } });
      expect(make("http://foo.localhost:8000/v1")).toThrow(/plain HTTP to foo\.localhost:8000/);
      expect(make("http://localhost.:8000/v1")).not.toThrow();
    });
  });

  describe("a base URL", () => {
    it.each([
      ["http://user:PW-secret@127.0.0.1:8000/v1"],
      ["http://PW-secret@127.0.0.1:8000/v1"],
      ["http://127.0.0.1:8000/v1?api_key=PW-secret"],
      ["https://models.example.com/v1?"],
      ["https://models.example.com/v1#PW-secret"],
    ])("with credentials or a query string is refused, pointing to --api-key-env: %s", (url) => {
      let error: unknown;
      try {
        checkBaseUrl(url);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ kind: "usage", code: "base_url_credentials" });
      expect((error as Error).message).toContain("--api-key-env");
      expect((error as Error).message).not.toContain("PW-secret");
    });

    it("is recorded as scheme://host:port/path only", () => {
      expect(redactUrl("http://user:PW@host:8000/v1?api_key=X#frag")).toBe("http://host:8000/v1");
      expect(redactUrl("http://127.0.0.1:8000/v1")).toBe("http://127.0.0.1:8000/v1");
      expect(redactUrl("not a url PW")).toBe("(invalid URL)");
      expect(() => checkBaseUrl("ftp://host/v1")).toThrow(/http or https/);
      expect(() => checkBaseUrl("127.0.0.1:8000/v1")).toThrow();
    });
  });
});
