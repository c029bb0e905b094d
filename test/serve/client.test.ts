/**
 * The server speaks the Discover → Call wire format: fabench's own client (src/discover-call/api.ts)
 * discovers, inspects and executes against it, and so does the reference implementation's harness
 * (QVerisAI/qveris-agent-toolkit, benchmarks/discover-call) when its folder is on this machine —
 * driven by a reference adapter that selects each task's first required response's route and calls
 * it with the arguments its rules name.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { createDiscoverCallApi } from "../../src/discover-call/api.ts";
import { firstResponse } from "../../src/discover-call/index.ts";
import { referencePath } from "../discover-call/fixtures/reference.ts";
import { KEY, startTestServer, type TestServer, testWorld } from "./helpers.ts";

const REFERENCE = referencePath("src");
const world = testWorld();
const TASKS = [...world.taskByQuery.values()];

/**
 * The first required response's route and the arguments its `eq` rules name (a required parameter
 * no rule names gets the inspect example's placeholder), or null when a rule is not `eq`.
 */
function referenceCall(task: Task): { tool_id: string; parameters: Record<string, unknown> } | null {
  const step = firstResponse(task.executor_fixture.responses);
  if (step === undefined) return null;
  const parameters: Record<string, unknown> = { ...world.tools.get(step.route_id)?.examples[0] };
  for (const [name, rule] of Object.entries(step.argument_rules)) {
    if (!("eq" in rule)) return null;
    parameters[name] = rule.eq;
  }
  return { tool_id: step.route_id, parameters };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.server.close();
});

describe("fabench's discover-call client against fabench serve", () => {
  it("discovers, inspects and executes a task's first call, and reads the revisions", async () => {
    const api = createDiscoverCallApi({
      baseUrl: s.url,
      apiKey: KEY,
      fetch,
      sleep: async () => undefined,
      now: Date.now,
    });
    const task = TASKS[0] as Task;
    const call = referenceCall(task);
    if (call === null) throw new Error("the first task needs no state");
    const found = await api.discover({ query: task.query, limit: 10, sessionId: "trial-1" });
    if (!found.ok) throw new Error(JSON.stringify(found.failure));
    const ids = found.value.results.map((r) => (r as { tool_id: string }).tool_id);
    expect(ids).toContain(call.tool_id);
    const inspected = await api.inspect({
      toolIds: [call.tool_id],
      searchId: found.value.search_id,
      sessionId: "trial-1",
    });
    if (!inspected.ok) throw new Error(JSON.stringify(inspected.failure));
    expect(inspected.value.results).toHaveLength(1);
    const executed = await api.execute({
      toolId: call.tool_id,
      parameters: call.parameters,
      searchId: found.value.search_id,
      sessionId: "trial-1",
      model: "reference",
    });
    if (!executed.ok) throw new Error(JSON.stringify(executed.failure));
    expect(executed.value.success).toBe(true);
    expect((executed.value.result as { data: unknown }).data).toEqual(
      firstResponse(task.executor_fixture.responses)?.observation,
    );
    expect(api.revisions()).toEqual({ api: ["fabench-0.1.0"], catalog: [world.catalog.sha256] });
  });

  it("records a session that never discovered as an HTTP failure, not a tool result", async () => {
    const api = createDiscoverCallApi({
      baseUrl: s.url,
      apiKey: KEY,
      fetch,
      sleep: async () => undefined,
      now: Date.now,
    });
    const outcome = await api.execute({
      toolId: "materials.current",
      parameters: {},
      searchId: "none",
      sessionId: "never",
      model: "m",
    });
    expect(outcome).toMatchObject({
      ok: false,
      failure: { stage: "api", reason_code: "http_409" },
      attempts: 1,
    });
  });
});

describe.skipIf(!existsSync(REFERENCE))("the reference harness against fabench serve", () => {
  it("completes and calls successfully every task whose first route the keyword router ranks in the top 10", async () => {
    const { createApiClient } = (await import(`${REFERENCE}/api.mjs`)) as {
      createApiClient: (options: Record<string, unknown>) => unknown;
    };
    const { runBenchmark } = (await import(`${REFERENCE}/harness.mjs`)) as {
      runBenchmark: (options: Record<string, unknown>) => Promise<Record<string, unknown>[]>;
    };
    const usable = TASKS.map((task) => ({ task, call: referenceCall(task) })).filter(
      (t): t is { task: Task; call: NonNullable<ReturnType<typeof referenceCall>> } =>
        t.call !== null &&
        Object.values(t.call.parameters).every((v) => ["string", "number", "boolean"].includes(typeof v)) &&
        Object.keys(t.call.parameters).length > 0,
    );
    const byId = new Map(usable.map((t) => [t.task.semantic_task_id, t.call]));
    const tasks = usable.map(({ task, call }) => ({
      id: task.semantic_task_id,
      prompt: task.query,
      discover_query: task.query,
      constraints: Object.entries(call.parameters).map(([name, value]) => ({
        id: name,
        aliases: [name],
        value,
      })),
      reference: { candidates: [call] },
    }));
    const invokeAdapter = async (payload: { stage: string; input: Record<string, any> }) => {
      const call = byId.get(payload.input["task_id"]);
      if (payload.stage === "select") {
        const shown = (payload.input["discovery"].results as { tool_id: string }[]).map((r) => r.tool_id);
        return { tool_id: call !== undefined && shown.includes(call.tool_id) ? call.tool_id : null };
      }
      return { parameters: call?.parameters };
    };
    let sessions = 0;
    const records = await runBenchmark({
      tasks,
      model: "reference",
      trials: 1,
      execute: true,
      limit: 10,
      api: createApiClient({ apiKey: KEY, baseUrl: s.url, maxRetries: 0 }),
      invokeAdapter,
      newSessionId: () => `reference-session-${++sessions}`,
    });
    expect(records).toHaveLength(tasks.length);
    let succeeded = 0;
    for (const record of records) {
      const call = byId.get(record["task_id"] as string);
      const shown = (record["discovery"] as { result_tool_ids: string[] }).result_tool_ids;
      if (call !== undefined && shown.includes(call.tool_id)) {
        expect(record, JSON.stringify(record.error)).toMatchObject({
          status: "completed",
          call: { attempted: true, success: true, result_nonempty: true },
        });
        succeeded += 1;
      } else expect(record["error"]).toMatchObject({ stage: "select", reason_code: "missing_tool_id" });
    }
    // Most first routes rank in the keyword router's top 10 at catalog 100 (the misses are a finding).
    expect(succeeded).toBeGreaterThan(tasks.length / 2);
  });
});
