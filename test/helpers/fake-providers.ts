/**
 * A fake model provider on 127.0.0.1 that speaks the Anthropic Messages and OpenAI Chat
 * Completions wire formats, so the official SDKs talk to it through their base URL. Its "model"
 * is the reference agent's policy, read from the conversation alone; faults are injected per
 * request number. The models list (`GET /v1/models`, the runs' preflight) is answered apart: it is
 * not a numbered request, so a run's preflight shifts no fault; `preflight` injects its faults.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Task } from "../../src/authoring/index.ts";
import { referenceTurn } from "../../src/conditions/agents/index.ts";
import { loadTokenCounter, renderUserMessage } from "../../src/conditions/execution/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { bundledProtocol } from "./protocol.ts";
import {
  parseTextToolCalls,
  type Message,
  type ToolCall,
  type ToolDefinition,
} from "../../src/providers/index.ts";

export type Fault =
  | { kind: "status"; status: number; retryAfter?: string }
  /** Never answers: holds the request until the client gives up or goes away. */
  | { kind: "stall" }
  | { kind: "malformed_json" }
  | { kind: "truncated_arguments" }
  | { kind: "unknown_tool" }
  /** Sends the headers at once, then the body one byte every `intervalMs`, until the client goes away. */
  | { kind: "trickle"; intervalMs: number }
  /** Closes the connection without an answer. */
  | { kind: "close" };

export interface FakeProvider {
  readonly url: string;
  /**
   * Requests received, per path; `inFlight` is how many are being answered now and `maxInFlight`
   * the most at any one time (a request counts from its arrival until its answer is sent).
   */
  readonly requests: {
    count: number;
    paths: string[];
    authorization: string[];
    inFlight: number;
    maxInFlight: number;
    batchItems: string[];
    /** The credential header of each models-list request (the preflight), in order. */
    models: string[];
  };
  close(): Promise<void>;
}

export interface FakeOptions {
  readonly tasks: readonly Task[];
  readonly fault?: (n: number, path: string) => Fault | null;
  readonly latencyMs?: number;
  /** How usage is counted: with the o200k tokenizer (default), or cheaply as characters / 4 (for soak runs). */
  readonly usage?: "tokenizer" | "chars";
  /** Create the first N batches but drop the connection instead of answering (a lost answer). */
  readonly dropBatchCreates?: number;
  /** A fault for the n-th models-list request (the preflight); none by default. */
  readonly preflight?: (n: number) => Fault | null;
}

const counter = await loadTokenCounter();
const units = await loadUnitConverter();
const MAX_TURNS = bundledProtocol().agent_loop.max_turns;

export async function startFakeProvider(options: FakeOptions): Promise<FakeProvider> {
  // A conversation names its task by its first user message: the request and its answer form.
  const byQuery = new Map(options.tasks.map((t) => [renderUserMessage(t), t]));
  const requests = {
    count: 0,
    paths: [] as string[],
    authorization: [] as string[],
    inFlight: 0,
    maxInFlight: 0,
    batchItems: [] as string[],
    models: [] as string[],
  };
  const count =
    options.usage === "chars"
      ? (text: string) => Math.ceil(text.length / 4)
      : (text: string) => counter.count(text);
  const server: Server = createServer((req, res) => void handle(req, res));
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine a client can send its next
  // request on one the server is closing (ECONNRESET, a network error the test did not inject).
  // The test's own close() ends every connection, so a long idle timeout costs nothing.
  server.keepAliveTimeout = 600_000;
  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method === "GET" && /^\/v1\/models(\?|$)/.test(req.url ?? "")) return modelsList(req, res);
    requests.inFlight += 1;
    requests.maxInFlight = Math.max(requests.maxInFlight, requests.inFlight);
    try {
      await respond(req, res, raw);
    } finally {
      // Runs before the event loop turns again after end(), so before the client can read the answer.
      requests.inFlight -= 1;
    }
  }
  /** Both APIs' list shape at once: OpenAI reads `object` and `data`, Anthropic `data` and `has_more`. */
  function modelsList(req: IncomingMessage, res: ServerResponse) {
    const n = requests.models.length;
    requests.models.push(String(req.headers["authorization"] ?? req.headers["x-api-key"] ?? ""));
    const fault = options.preflight?.(n) ?? null;
    if (fault?.kind === "close") return void req.socket.destroy();
    if (fault?.kind === "status")
      return void res
        .writeHead(fault.status, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "no" } }));
    const data = [{ id: "fake-model", object: "model", type: "model", created: 1_790_000_000 }];
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "list",
        data,
        has_more: false,
        first_id: "fake-model",
        last_id: "fake-model",
      }),
    );
  }

  async function respond(req: IncomingMessage, res: ServerResponse, raw: string) {
    const n = requests.count++;
    requests.paths.push(req.url ?? "");
    requests.authorization.push(String(req.headers["authorization"] ?? req.headers["x-api-key"] ?? ""));
    const fault = options.fault?.(n, req.url ?? "") ?? null;
    if (fault?.kind === "stall") return new Promise<void>((resolve) => res.on("close", () => resolve()));
    if (fault?.kind === "close") return void req.socket.destroy();
    await sleep(options.latencyMs ?? 0);
    if (fault?.kind === "status") {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {}),
      };
      const type =
        fault.status === 529 ? "overloaded_error" : fault.status === 429 ? "rate_limit_error" : "api_error";
      return res.writeHead(fault.status, headers).end(
        JSON.stringify({
          type: "error",
          error: { type, message: "secret internal detail sk-should-never-be-logged" },
        }),
      );
    }
    if (fault?.kind === "malformed_json")
      return res.writeHead(200, { "content-type": "application/json" }).end('{"id": "msg_1", "content": [');
    const url = req.url ?? "";
    if (url.includes("/batches") || url.startsWith("/v1/files"))
      return batchRoute(req.method ?? "GET", url, raw, req.headers["content-type"] ?? "", res);
    const body = JSON.parse(raw) as Record<string, unknown>;
    const kind = url.includes("/messages")
      ? "anthropic"
      : url.includes("/responses")
        ? "responses"
        : "openai";
    const payload = answer(kind, body, raw, fault);
    if (payload === null)
      return res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "unknown task" } }));
    if (fault?.kind === "trickle") return trickle(res, JSON.stringify(payload), fault.intervalMs);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
  }

  /** The whole reply, a byte at a time: the headers arrive at once, the body never in time. */
  function trickle(res: ServerResponse, text: string, intervalMs: number): Promise<void> {
    const body = Buffer.from(text);
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    res.flushHeaders();
    return new Promise<void>((resolve) => {
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= body.length) {
          clearInterval(timer);
          res.end();
          return resolve();
        }
        res.write(body.subarray(sent, ++sent));
      }, intervalMs);
      res.on("close", () => {
        clearInterval(timer);
        resolve();
      });
    });
  }

  /** The fake model's reply to one request body, in the provider's format (null: unknown task). */
  function answer(
    kind: "anthropic" | "openai" | "responses",
    body: Record<string, unknown>,
    raw: string,
    fault: Fault | null,
  ): unknown {
    const conversation =
      kind === "anthropic"
        ? fromAnthropic(body)
        : kind === "responses"
          ? fromResponses(body)
          : fromOpenAI(body);
    const task = byQuery.get(conversation.query);
    if (!task) return null;
    let reply = referenceTurn(
      task,
      "REQUEST_MORE_TOOLS",
      {
        messages: conversation.messages,
        tools: conversation.tools,
        turn: conversation.turn,
        maxTurns: MAX_TURNS,
      },
      units,
    );
    let calls: ToolCall[] = [...reply.toolCalls];
    if (fault?.kind === "unknown_tool") calls = calls.map((c) => ({ ...c, name: "materials__teleport" }));
    const text =
      conversation.textProtocol && calls.length > 0
        ? calls
            .map((c) => `<tool_call>${JSON.stringify({ name: c.name, arguments: c.arguments })}</tool_call>`)
            .join("\n")
        : reply.text;
    if (conversation.textProtocol) calls = [];
    reply = { text, toolCalls: calls };
    const usage = {
      input: count(raw),
      output: count(text) + (calls.length > 0 ? count(JSON.stringify(calls)) : 0),
    };
    const model = `${String(body["model"])}-fake-2026-11-01`;
    if (kind === "anthropic") return toAnthropic(model, reply.text, calls, usage);
    if (kind === "responses") return toResponses(model, reply.text, calls, usage);
    return toOpenAI(model, reply.text, calls, usage, fault?.kind === "truncated_arguments");
  }

  // Batches: answered when created, reported "in_progress" on the first poll and "ended" after.
  const batches = new Map<
    string,
    {
      polls: number;
      lines: string[];
      kind: "anthropic" | "openai";
      outputFile: string;
      metadata: Record<string, string> | null;
    }
  >();
  let dropsLeft = options.dropBatchCreates ?? 0;
  /** Answers a batch creation, or drops the connection after creating it while drops are left. */
  const created = (res: ServerResponse, answer: () => void) => {
    if (dropsLeft > 0) {
      dropsLeft -= 1;
      return res.socket?.destroy();
    }
    answer();
  };
  const files = new Map<string, string>();
  function batchRoute(method: string, url: string, raw: string, contentType: string, res: ServerResponse) {
    const json = (value: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (method === "POST" && url === "/v1/messages/batches") {
      const body = JSON.parse(raw) as {
        requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
      };
      const id = `msgbatch_${batches.size + 1}`;
      const lines = body.requests.map((r) => {
        requests.batchItems.push(r.custom_id);
        return JSON.stringify({
          custom_id: r.custom_id,
          result: {
            type: "succeeded",
            message: answer("anthropic", r.params, JSON.stringify(r.params), null),
          },
        });
      });
      batches.set(id, { polls: 0, lines, kind: "anthropic", outputFile: "", metadata: null });
      return created(res, () =>
        json({
          id,
          type: "message_batch",
          processing_status: "in_progress",
          request_counts: { processing: lines.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
          results_url: null,
          created_at: "2026-11-30T00:00:00Z",
          expires_at: "2026-12-01T00:00:00Z",
          ended_at: null,
          archived_at: null,
          cancel_initiated_at: null,
        }),
      );
    }
    const anthropicBatch = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(url);
    if (anthropicBatch) {
      const batch = batches.get(anthropicBatch[1]!)!;
      if (anthropicBatch[2])
        return res
          .writeHead(200, { "content-type": "application/binary" })
          .end(`${batch.lines.join("\n")}\n`);
      batch.polls += 1;
      const ended = batch.polls >= 2;
      return json({
        id: anthropicBatch[1],
        type: "message_batch",
        processing_status: ended ? "ended" : "in_progress",
        request_counts: {
          processing: ended ? 0 : batch.lines.length,
          succeeded: ended ? batch.lines.length : 0,
          errored: 0,
          canceled: 0,
          expired: 0,
        },
        results_url: ended ? `${base}/v1/messages/batches/${anthropicBatch[1]}/results` : null,
        created_at: "2026-11-30T00:00:00Z",
        expires_at: "2026-12-01T00:00:00Z",
        ended_at: null,
        archived_at: null,
        cancel_initiated_at: null,
      });
    }
    if (method === "POST" && url === "/v1/files") {
      const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? "";
      const part = raw.split(`--${boundary}`).find((p) => p.includes('name="file"')) ?? "";
      const content = part.slice(part.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "");
      const id = `file-${files.size + 1}`;
      files.set(id, content);
      return json({
        id,
        object: "file",
        bytes: content.length,
        created_at: 1_790_000_000,
        filename: "batch.jsonl",
        purpose: "batch",
        status: "processed",
      });
    }
    if (method === "POST" && url === "/v1/batches") {
      const body = JSON.parse(raw) as { input_file_id: string; metadata?: Record<string, string> };
      const lines = (files.get(body.input_file_id) ?? "")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => {
          const item = JSON.parse(l) as { custom_id: string; body: Record<string, unknown> };
          requests.batchItems.push(item.custom_id);
          return JSON.stringify({
            id: `req_${item.custom_id}`,
            custom_id: item.custom_id,
            response: {
              status_code: 200,
              request_id: "r",
              body: answer("openai", item.body, JSON.stringify(item.body), null),
            },
            error: null,
          });
        });
      const id = `batch_${batches.size + 1}`;
      const outputFile = `file-out-${id}`;
      files.set(outputFile, `${lines.join("\n")}\n`);
      batches.set(id, { polls: 0, lines, kind: "openai", outputFile, metadata: body.metadata ?? null });
      return created(res, () => json(openaiBatch(id, "in_progress", null, body.metadata ?? null)));
    }
    if (method === "GET" && /^\/v1\/batches(\?|$)/.test(url)) {
      const data = [...batches]
        .filter(([, b]) => b.kind === "openai")
        .reverse()
        .map(([id, b]) =>
          openaiBatch(
            id,
            b.polls >= 2 ? "completed" : "in_progress",
            b.polls >= 2 ? b.outputFile : null,
            b.metadata,
          ),
        );
      return json({
        object: "list",
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: false,
      });
    }
    const openaiBatchMatch = /^\/v1\/batches\/([^/]+)$/.exec(url);
    if (openaiBatchMatch) {
      const batch = batches.get(openaiBatchMatch[1]!)!;
      batch.polls += 1;
      return json(
        openaiBatch(
          openaiBatchMatch[1]!,
          batch.polls >= 2 ? "completed" : "in_progress",
          batch.polls >= 2 ? batch.outputFile : null,
          batch.metadata,
        ),
      );
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(url);
    if (content)
      return res
        .writeHead(200, { "content-type": "application/octet-stream" })
        .end(files.get(content[1]!) ?? "");
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: `no route ${method} ${url}` } }));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a stalled request must not keep the server open
      }),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Conversation {
  query: string;
  messages: Message[];
  tools: ToolDefinition[];
  turn: number;
  textProtocol: boolean;
}

/** Tools described in the system prompt by the text protocol: `- name: description`. */
function textTools(system: string): ToolDefinition[] {
  return [...system.matchAll(/^- ([a-z0-9_]+__[a-z0-9_]+): .*\n {2}parameters: (.*)$/gm)].map((m) => ({
    name: m[1]!,
    description: "",
    parameters: JSON.parse(m[2]!),
  }));
}

function finish(messages: Message[], tools: ToolDefinition[], system: string): Conversation {
  const textProtocol = tools.length === 0 && system.includes("## Tools");
  const all = textProtocol ? textTools(system) : tools;
  const neutral: Message[] = [];
  for (const m of messages) {
    if (textProtocol && m.role === "user" && m.content.startsWith("<tool_result")) {
      const match = /^<tool_result name="([^"]*)">([\s\S]*)<\/tool_result>$/.exec(m.content);
      neutral.push({ role: "tool", tool_call_id: "t", name: match?.[1] ?? "", content: match?.[2] ?? "" });
    } else if (textProtocol && m.role === "assistant")
      neutral.push({ ...m, tool_calls: parseTextToolCalls(m.content, 0) });
    else neutral.push(m);
  }
  const query = neutral.find((m) => m.role === "user")?.content ?? "";
  return {
    query,
    messages: neutral,
    tools: all,
    turn: neutral.filter((m) => m.role === "assistant").length + 1,
    textProtocol,
  };
}

function fromAnthropic(body: Record<string, unknown>): Conversation {
  const system = (body["system"] as Array<{ text: string }> | string | undefined) ?? "";
  const systemText = typeof system === "string" ? system : system.map((b) => b.text).join("");
  const messages: Message[] = [];
  for (const m of body["messages"] as Array<{
    role: string;
    content: string | Array<Record<string, unknown>>;
  }>) {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (m.role === "assistant") {
      const text = blocks
        .filter((b) => b["type"] === "text")
        .map((b) => String(b["text"]))
        .join("");
      const calls = blocks
        .filter((b) => b["type"] === "tool_use")
        .map((b) => ({ id: String(b["id"]), name: String(b["name"]), arguments: b["input"] }));
      messages.push({ role: "assistant", content: text === "(no text)" ? "" : text, tool_calls: calls });
    } else
      for (const b of blocks) {
        if (b["type"] === "tool_result")
          messages.push({
            role: "tool",
            tool_call_id: String(b["tool_use_id"]),
            name: "",
            content: String(b["content"]),
          });
        else messages.push({ role: "user", content: String(b["text"]) });
      }
  }
  const tools = (
    (body["tools"] as
      | Array<{ name: string; description: string; input_schema: ToolDefinition["parameters"] }>
      | undefined) ?? []
  ).map((t) => ({ name: t.name, description: t.description, parameters: t.input_schema }));
  return finish(messages, tools, systemText);
}

function fromOpenAI(body: Record<string, unknown>): Conversation {
  let system = "";
  const messages: Message[] = [];
  for (const m of body["messages"] as Array<Record<string, unknown>>) {
    if (m["role"] === "system") system = String(m["content"]);
    else if (m["role"] === "user") messages.push({ role: "user", content: String(m["content"]) });
    else if (m["role"] === "tool")
      messages.push({
        role: "tool",
        tool_call_id: String(m["tool_call_id"]),
        name: "",
        content: String(m["content"]),
      });
    else {
      const calls = (
        (m["tool_calls"] as
          | Array<{ id: string; function: { name: string; arguments: string } }>
          | undefined) ?? []
      ).map((c) => ({ id: c.id, name: c.function.name, arguments: safeParse(c.function.arguments) }));
      messages.push({ role: "assistant", content: String(m["content"] ?? ""), tool_calls: calls });
    }
  }
  const tools = (
    (body["tools"] as
      | Array<{ function: { name: string; description: string; parameters: ToolDefinition["parameters"] } }>
      | undefined) ?? []
  ).map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  }));
  return finish(messages, tools, system);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toAnthropic(
  model: string,
  text: string,
  calls: ToolCall[],
  usage: { input: number; output: number },
) {
  const content = [
    ...(text ? [{ type: "text", text }] : []),
    ...calls.map((c) => ({ type: "tool_use", id: `toolu_${c.id}`, name: c.name, input: c.arguments })),
  ];
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  };
}

function toOpenAI(
  model: string,
  text: string,
  calls: ToolCall[],
  usage: { input: number; output: number },
  truncate: boolean,
) {
  const toolCalls = calls.map((c) => {
    const args = JSON.stringify(c.arguments);
    return {
      id: `call_${c.id}`,
      type: "function",
      function: { name: c.name, arguments: truncate ? args.slice(0, Math.max(1, args.length - 5)) : args },
    };
  });
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text || null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  };
}

function fromResponses(body: Record<string, unknown>): Conversation {
  const messages: Message[] = [];
  for (const item of body["input"] as Array<Record<string, unknown>>) {
    if (item["type"] === "function_call_output")
      messages.push({
        role: "tool",
        tool_call_id: String(item["call_id"]),
        name: "",
        content: String(item["output"]),
      });
    else if (item["type"] === "function_call") {
      const last = messages.at(-1);
      const call = {
        id: String(item["call_id"]),
        name: String(item["name"]),
        arguments: safeParse(String(item["arguments"])),
      };
      if (last?.role === "assistant")
        messages[messages.length - 1] = { ...last, tool_calls: [...last.tool_calls, call] };
      else messages.push({ role: "assistant", content: "", tool_calls: [call] });
    } else if (item["role"] === "assistant")
      messages.push({ role: "assistant", content: String(item["content"]), tool_calls: [] });
    else messages.push({ role: "user", content: String(item["content"]) });
  }
  const tools = (
    (body["tools"] as
      | Array<{ name: string; description: string; parameters: ToolDefinition["parameters"] }>
      | undefined) ?? []
  ).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  return finish(messages, tools, String(body["instructions"] ?? ""));
}

function toResponses(
  model: string,
  text: string,
  calls: ToolCall[],
  usage: { input: number; output: number },
) {
  return {
    id: "resp_fake",
    object: "response",
    model,
    status: "completed",
    output: [
      ...(text
        ? [
            {
              type: "message",
              id: "msg_1",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text, annotations: [] }],
            },
          ]
        : []),
      ...calls.map((c) => ({
        type: "function_call",
        id: `fc_${c.id}`,
        call_id: `call_${c.id}`,
        name: c.name,
        arguments: JSON.stringify(c.arguments),
        status: "completed",
      })),
    ],
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function openaiBatch(
  id: string,
  status: string,
  outputFile: string | null,
  metadata: Record<string, string> | null,
) {
  return {
    id,
    metadata,
    object: "batch",
    endpoint: "/v1/chat/completions",
    errors: null,
    input_file_id: "file-1",
    completion_window: "24h",
    status,
    output_file_id: outputFile,
    error_file_id: null,
    created_at: 1_790_000_000,
    request_counts: { total: 0, completed: 0, failed: 0 },
  };
}
