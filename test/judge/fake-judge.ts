/**
 * A fake OpenAI-compatible judge on 127.0.0.1: it keeps every request body it receives and answers
 * Chat Completions with whatever `reply` says for that request — a reply text, an HTTP status, a
 * delay, or no answer at all (the client's time limit ends it). No network beyond loopback. The
 * models list (`GET /v1/models`, the judge run's preflight) is answered apart and counted in
 * `models`, so it shifts no request number.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeAnswer =
  | { readonly kind: "text"; readonly text: string; readonly delayMs?: number }
  | { readonly kind: "status"; readonly status: number }
  /** Holds the request until the client gives up or goes away. */
  | { readonly kind: "stall" }
  /** Sends the headers at once, then the body one byte every `intervalMs`, until the client goes away. */
  | { readonly kind: "trickle"; readonly text: string; readonly intervalMs: number };

export interface FakeJudge {
  /** Base URL including /v1, for --base-url. */
  readonly url: string;
  /** Every request body, in arrival order, as received. */
  readonly bodies: string[];
  /** How many models-list requests (preflights) it answered. */
  readonly models: { count: number };
  close(): Promise<void>;
}

/** The user message of a Chat Completions body (what the fake rates). */
export function userMessage(body: string): string {
  const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
  return parsed.messages.find((m) => m.role === "user")?.content ?? "";
}

export const GOOD_REPLY = JSON.stringify({
  coherence: 4,
  completeness: 3,
  rationale: "Clear and partly complete.",
});

export async function startFakeJudge(
  reply: (n: number, body: string) => FakeAnswer = () => ({ kind: "text", text: GOOD_REPLY }),
): Promise<FakeJudge> {
  const bodies: string[] = [];
  const models = { count: 0 };
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method === "GET" && /^\/v1\/models(\?|$)/.test(req.url ?? "")) {
      models.count += 1;
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data: [{ id: "judge-model", object: "model" }] }));
    }
    const n = bodies.length;
    bodies.push(raw);
    const answer = reply(n, raw);
    if (answer.kind === "stall") return;
    if (answer.kind === "status")
      return res
        .writeHead(answer.status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "fake failure" } }));
    if (answer.kind === "text" && answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    const model = `${String((JSON.parse(raw) as { model?: unknown }).model)}-fake-2026-12-01`;
    const payload = Buffer.from(
      JSON.stringify({
        id: `chatcmpl-${n}`,
        object: "chat.completion",
        created: 1_790_000_000,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
    if (answer.kind === "text")
      return res.writeHead(200, { "content-type": "application/json" }).end(payload);
    res.writeHead(200, { "content-type": "application/json", "content-length": String(payload.length) });
    res.flushHeaders();
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= payload.length) {
        clearInterval(timer);
        return void res.end();
      }
      res.write(payload.subarray(sent, ++sent));
    }, answer.intervalMs);
    res.on("close", () => clearInterval(timer));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    models,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
