/**
 * The bytes `fabench serve` answers, pinned: a fixed sequence of requests (every endpoint's
 * answers over several tasks, and every refusal the shell and the handlers give) goes over one
 * kept-alive loopback connection, and the status lines, headers (all but `date`), bodies and log
 * lines (durations masked) are hashed. The hash was taken from the server before its per-request
 * work was trimmed for throughput (#35): any change to what a client receives shows here.
 */
import { createHash } from "node:crypto";
import { Agent, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { firstResponse } from "../../src/discover-call/index.ts";
import type { World } from "../../src/serve/index.ts";
import { KEY, startTestServer, type TestServer, testWorld } from "./helpers.ts";

/** Taken from the server at e174bdd (main before #35's serve work). */
const PINNED_SHA256 = "1c2d4f936400c917e6925b78e5d5e68957282ffab62dd470a70dab2097e6b648";

interface Sent {
  readonly method?: string;
  readonly path: string;
  readonly body: string;
  readonly key?: string | null;
}

/** One request over `agent`: the status, the raw headers but `date`, and the body, as one text. */
function exchange(agent: Agent, base: string, sent: Sent): Promise<string> {
  const key = sent.key === undefined ? KEY : sent.key;
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${sent.path}`,
      {
        agent,
        method: sent.method ?? "POST",
        headers: {
          "content-type": "application/json",
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const headers: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i]?.toLowerCase() !== "date")
              headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve(`${res.statusCode}\n${headers.join("\n")}\n\n${Buffer.concat(chunks).toString("utf8")}`);
        });
      },
    );
    req.on("error", reject);
    req.end(sent.body);
  });
}

/** The task's first required call: its route and arguments that satisfy the rules. */
function referenceCall(world: World, task: Task): { toolId: string; parameters: Record<string, unknown> } {
  const step = firstResponse(task.executor_fixture.responses);
  if (step === undefined) throw new Error(`${task.semantic_task_id} requires no response`);
  const parameters: Record<string, unknown> = { ...world.tools.get(step.route_id)?.examples[0] };
  for (const [name, rule] of Object.entries(step.argument_rules))
    if ("eq" in rule) parameters[name] = rule.eq;
  return { toolId: step.route_id, parameters };
}

const json = (value: unknown) => JSON.stringify(value);
const execPath = (toolId: string) => `/tools/execute?tool_id=${encodeURIComponent(toolId)}`;

/** Every answer to the fixed sequence, in order (search ids come from the context's counter). */
async function transcript(server: TestServer, world: World): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const say = (sent: Sent) => exchange(agent, server.url, sent);
  const out: string[] = [];
  const tasks = [...world.taskByQuery.values()].filter((_, i) => i % 12 === 0);
  for (const [n, task] of tasks.entries()) {
    const session_id = `session-${n}`;
    const call = referenceCall(world, task);
    const found = await say({ path: "/search", body: json({ query: task.query, limit: 10, session_id }) });
    out.push(found);
    const { search_id } = JSON.parse(found.slice(found.indexOf("\n\n") + 2)) as { search_id: string };
    const inspect = { tool_ids: [call.toolId, call.toolId], session_id, view: "lean" };
    out.push(await say({ path: "/tools/by-ids", body: json(inspect) }));
    const body = { parameters: call.parameters, session_id, model: "m", respond_with: "full" };
    out.push(await say({ path: execPath(call.toolId), body: json(body) }));
    out.push(await say({ path: execPath(call.toolId), body: json(body) }));
    out.push(await say({ path: execPath(call.toolId), body: json({ ...body, parameters: {} }) }));
    out.push(await say({ path: execPath(call.toolId), body: json({ ...body, search_id }) }));
    out.push(await say({ path: "/tools/by-ids", body: json({ ...inspect, search_id: `${search_id}x` }) }));
  }
  const query = tasks[0]?.query ?? "";
  const refusals: Sent[] = [
    { path: "/search", body: json({ query, session_id: "r" }), key: null },
    { path: "/search", body: json({ query, session_id: "r" }), key: "wrong" },
    { path: "/nowhere", body: "{}" },
    { method: "PUT", path: "/search", body: "{}" },
    { path: "/search", body: "{not json" },
    { path: "/search", body: "[".repeat(70) + "]".repeat(70) },
    { path: "/search", body: json({ query, session_id: "r", tool_id: "x" }) },
    { path: "/search", body: json({ query: "no task asks this", limit: 3, session_id: "other" }) },
    { path: "/tools/by-ids", body: json({ tool_ids: ["no.such"], session_id: "r" }) },
    { path: "/tools/by-ids", body: json({ tool_ids: ["x"], session_id: "r", search_id: "nope" }) },
    { path: execPath("no.such"), body: json({ parameters: {}, session_id: "r" }) },
    { path: "/tools/execute", body: json({ parameters: {}, session_id: "r" }) },
    { path: `${execPath("a")}&tool_id=b`, body: json({ parameters: {}, session_id: "r" }) },
    {
      path: execPath(referenceCall(world, tasks[0]!).toolId),
      body: json({ parameters: {}, session_id: "x" }),
    },
    {
      path: execPath(referenceCall(world, tasks[0]!).toolId),
      body: json({ parameters: {}, session_id: "other" }),
    },
  ];
  for (const sent of refusals) out.push(await say(sent));
  agent.destroy();
  return out;
}

let running: TestServer | undefined;
afterEach(async () => {
  running?.server.forceClose();
  await running?.server.close();
  running = undefined;
});

describe("serve's answers", () => {
  it("are byte for byte those pinned: status lines, headers, bodies and log lines", async () => {
    const world = testWorld();
    running = await startTestServer({ world });
    const answers = await transcript(running, world);
    const logs = running.logs.map((line) => line.replace(/ \d+\.\dms/, " _ms"));
    expect(answers).toHaveLength(logs.length);
    const text = `${answers.join("\n---\n")}\n===\n${logs.join("\n")}`;
    expect(createHash("sha256").update(text).digest("hex")).toBe(PINNED_SHA256);
  });
});
