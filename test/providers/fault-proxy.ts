/**
 * A proxy on 127.0.0.1 in front of a fake provider (test/helpers/fake-providers.ts) that injects
 * faults on the wire the fake itself cannot: a body cut short of its Content-Length, a reply of
 * megabytes, a malformed batch poll. Every other request is passed through unchanged. A models
 * list (a run's preflight) is passed through without a fault and kept apart, in `preflights`, so it
 * shifts no request number.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type WireFault =
  /** Declares a Content-Length, sends part of the body, then closes the connection. */
  | { kind: "truncated_body" }
  /** A 200 reply of `bytes` bytes (one text block of "A"s), streamed without a Content-Length. */
  | { kind: "huge_reply"; bytes: number; format: "anthropic" | "openai" }
  /** A 200 reply whose JSON stops halfway. */
  | { kind: "malformed_json" };

export interface FaultProxy {
  readonly url: string;
  /** Per request received: method, path, the credential headers it carried, and the fault injected. */
  readonly seen: Array<{
    method: string;
    path: string;
    authorization: string;
    apiKey: string;
    fault: WireFault["kind"] | null;
  }>;
  /** The credential headers of each models-list request (a run's preflight). */
  readonly preflights: Array<{ authorization: string; apiKey: string }>;
  /** Bytes of huge replies the proxy managed to hand to the socket before the client went away. */
  readonly hugeBytesWritten: number[];
  close(): Promise<void>;
}

export async function startFaultProxy(
  target: string,
  fault: (n: number, method: string, path: string) => WireFault | null,
): Promise<FaultProxy> {
  const seen: FaultProxy["seen"] = [];
  const preflights: FaultProxy["preflights"] = [];
  const hugeBytesWritten: number[] = [];
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const preflight = method === "GET" && /^\/v1\/models(\?|$)/.test(path);
    const injected = preflight ? null : fault(seen.length, method, path);
    const credentials = {
      authorization: String(req.headers["authorization"] ?? ""),
      apiKey: String(req.headers["x-api-key"] ?? req.headers["api-key"] ?? ""),
    };
    if (preflight) preflights.push(credentials);
    else seen.push({ method, path, ...credentials, fault: injected?.kind ?? null });
    res.on("error", () => undefined);
    if (injected?.kind === "truncated_body") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
      res.write('{"id": "msg_1", "type": "message", "content": [{"type": "text", "text": "');
      // Flush what was written, then cut the connection short of the declared length.
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    if (injected?.kind === "malformed_json") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"id": "x", "processing_status": ');
      return;
    }
    if (injected?.kind === "huge_reply") return huge(res, injected.bytes, injected.format);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string" && !["host", "content-length", "connection"].includes(name))
        headers[name] = value;
    const upstream = await fetch(`${target}${path}`, {
      method,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name))
        out[name] = value;
    });
    res.writeHead(upstream.status, out).end(body);
  }

  /** Streams `bytes` bytes of a valid reply, honouring back-pressure, until done or the client leaves. */
  function huge(res: ServerResponse, bytes: number, format: "anthropic" | "openai") {
    const [head, tail] =
      format === "anthropic"
        ? [
            '{"id":"msg_huge","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"',
            '"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}',
          ]
        : [
            '{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"',
            '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}',
          ];
    const slot = hugeBytesWritten.push(0) - 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.write(head);
    const piece = "A".repeat(64 * 1024);
    let left = bytes;
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    const pump = () => {
      while (left > 0 && !closed) {
        const n = Math.min(left, piece.length);
        left -= n;
        hugeBytesWritten[slot] = (hugeBytesWritten[slot] ?? 0) + n;
        if (!res.write(n === piece.length ? piece : piece.slice(0, n))) return void res.once("drain", pump);
      }
      if (!closed) res.end(tail);
    };
    pump();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    preflights,
    hugeBytesWritten,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
