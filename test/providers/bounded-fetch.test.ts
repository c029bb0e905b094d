/**
 * Issue #25 item 2: `--request-timeout` bounds the whole request, headers and body. The timer is
 * injected (fired by hand, never waited for), the "network" is a stream the test controls, and one
 * loopback test drives the SDK against a server that sends its headers and then trickles its body.
 */
import { describe, expect, it } from "vitest";
import type { FabenchError } from "../../src/core/index.ts";
import {
  boundedFetch,
  classify,
  createBatchProvider,
  createClient,
  withRetries,
  type StartTimer,
} from "../../src/providers/index.ts";
import { renderUserMessage } from "../../src/conditions/execution/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { startFakeProvider } from "../helpers/fake-providers.ts";

/** A timer the test fires: `fire()` runs what is pending, `cancelled` counts cancellations. */
function manualTimer() {
  const pending: Array<{ ms: number; fire: () => void; live: boolean }> = [];
  let cancelled = 0;
  const start: StartTimer = (ms, fire) => {
    const entry = { ms, fire, live: true };
    pending.push(entry);
    return () => {
      if (entry.live) cancelled += 1;
      entry.live = false;
    };
  };
  return {
    start,
    started: () => pending.map((p) => p.ms),
    live: () => pending.filter((p) => p.live).length,
    cancelled: () => cancelled,
    fire: () => {
      for (const p of pending.filter((e) => e.live)) {
        p.live = false;
        p.fire();
      }
    },
  };
}

/** A body that sends one byte and then nothing, like a server trickling its reply; records its cancellation. */
function tricklingBody() {
  const seen = { cancelled: false };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return new Promise<void>(() => undefined); // the next byte never comes
      sent = true;
      controller.enqueue(new TextEncoder().encode("{"));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe("boundedFetch: one time limit for headers and body", () => {
  it("fails a body that stops arriving with provider_timeout when the limit passes, and aborts the request", async () => {
    const timer = manualTimer();
    const body = tricklingBody();
    let signal: AbortSignal | undefined;
    const base = (async (_input: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Response(body.stream, { headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    const fetchIt = boundedFetch({ maxBytes: 1000, timeoutMs: 1234, base, timer: timer.start });
    const response = await fetchIt("http://127.0.0.1/v1/chat/completions");
    // The headers are in; the limit still runs while the body is read.
    expect(timer.started()).toEqual([1234]);
    expect(timer.live()).toBe(1);
    const reading = response.text().catch((e: unknown) => e);
    timer.fire();
    const error = (await reading) as FabenchError;
    expect(error.code).toBe("provider_timeout");
    expect(error.message).toContain("--request-timeout 1234");
    expect(signal?.aborted).toBe(true);
    // Retried like any other time-out.
    expect(classify(new Error("wrapped", { cause: error }))).toMatchObject({
      code: "provider_timeout",
      retryable: true,
    });
  });

  it("fails a request whose headers do not come in time with provider_timeout", async () => {
    const timer = manualTimer();
    const base = ((_input: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
      })) as unknown as typeof fetch;
    const pending = boundedFetch({ maxBytes: null, timeoutMs: 50, base, timer: timer.start })(
      "http://127.0.0.1/",
    ).catch((e: unknown) => e);
    timer.fire();
    expect(((await pending) as FabenchError).code).toBe("provider_timeout");
  });

  it("stops the clock when the body has been read: a reply in time is untouched", async () => {
    const timer = manualTimer();
    const base = (async () => new Response('{"ok":true}')) as unknown as typeof fetch;
    const response = await boundedFetch({ maxBytes: 1000, timeoutMs: 10, base, timer: timer.start })(
      "http://127.0.0.1/",
    );
    expect(await response.json()).toEqual({ ok: true });
    expect(timer.live()).toBe(0);
    expect(timer.cancelled()).toBe(1);
  });

  it("stops the clock when the reader cancels the body, and cancels the source", async () => {
    const timer = manualTimer();
    const body = tricklingBody();
    const base = (async () => new Response(body.stream)) as unknown as typeof fetch;
    const response = await boundedFetch({ maxBytes: null, timeoutMs: 10, base, timer: timer.start })(
      "http://127.0.0.1/",
    );
    await response.body?.cancel();
    expect(timer.live()).toBe(0);
    expect(body.seen.cancelled).toBe(true);
  });

  it("still cuts a reply off at the size cap", async () => {
    const timer = manualTimer();
    const base = (async () => new Response("x".repeat(2000))) as unknown as typeof fetch;
    const response = await boundedFetch({ maxBytes: 1000, timeoutMs: 10, base, timer: timer.start })(
      "http://127.0.0.1/",
    );
    const error = (await response.text().catch((e: unknown) => e)) as FabenchError;
    expect(error.code).toBe("response_too_large");
    expect(timer.live()).toBe(0);
  });
});

describe("a model client against a server that trickles its body (loopback)", () => {
  it("ends the request with a retried provider_timeout instead of hanging", async () => {
    // Every completion: the headers at once, then one byte every 200 ms — minutes for a whole reply.
    const provider = await startFakeProvider({
      tasks: bundled().corpus.tasks,
      fault: () => ({ kind: "trickle", intervalMs: 200 }),
    });
    try {
      const client = createClient({
        kind: "openai-compatible",
        model: "m",
        env: {},
        baseUrl: `${provider.url}/v1`,
        openaiApi: "chat",
        timeoutMs: 300,
      });
      const instant = { now: () => 0, sleep: async () => undefined, random: () => 0.5 };
      const request = {
        system: "s",
        messages: [{ role: "user" as const, content: renderUserMessage(bundled().corpus.tasks[0]!) }],
        tools: [],
        settings: { temperature: 0, max_output_tokens: 16, seed: null, prompt_cache: false },
      };
      const error = (await withRetries(
        () => client.complete(request),
        { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
        instant,
        "openai-compatible",
      ).catch((e: unknown) => e)) as FabenchError;
      expect(error.code).toBe("provider_timeout");
      expect(error.message).toContain("after 2 attempt(s)");
      // Both attempts reached the server, which sent each its headers at once: the body timed out.
      expect(provider.requests.count).toBe(2);
    } finally {
      await provider.close();
    }
  });
});

describe("batch result downloads against a server that trickles the file (loopback)", () => {
  /** Answers a batch's status at once and trickles its results file, for both batch APIs. */
  async function tricklingBatchServer() {
    const { createServer } = await import("node:http");
    const hits: string[] = [];
    const server = createServer((req, res) => {
      const url = req.url ?? "";
      hits.push(url);
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const json = (body: unknown) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url === "/v1/batches/batch_1")
        return json({ id: "batch_1", object: "batch", status: "completed", output_file_id: "file-out" });
      if (url === "/v1/messages/batches/msgbatch_1")
        return json({
          id: "msgbatch_1",
          type: "message_batch",
          processing_status: "ended",
          results_url: `${base}/v1/messages/batches/msgbatch_1/results`,
        });
      // The results file: headers at once, then a byte every 200 ms until the client goes away.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.flushHeaders();
      const timer = setInterval(() => res.write("{"), 200);
      res.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return {
      url,
      hits,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  it.each([
    ["openai", "/v1", "batch_1", "/v1/files/file-out/content"],
    ["anthropic", "", "msgbatch_1", "/v1/messages/batches/msgbatch_1/results"],
  ])("%s: the download ends with provider_timeout instead of hanging", async (kind, path, id, download) => {
    const server = await tricklingBatchServer();
    try {
      const batches = createBatchProvider({
        kind,
        model: "m",
        env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" },
        baseUrl: `${server.url}${path}`,
        openaiApi: "chat",
        timeoutMs: 300,
      });
      const error = await batches.results(id).catch((e: unknown) => e);
      expect(classify(error)).toMatchObject({ code: "provider_timeout", retryable: true });
      expect(server.hits).toContain(download);
    } finally {
      await server.close();
    }
  });
});
