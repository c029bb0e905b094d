/**
 * The three endpoints as pure functions over the frozen world (catalog 100, the bundled corpus, the
 * keyword router): no socket, a clock the test moves, ids from a counter.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { FabenchError, normalizeQuery } from "../../src/core/index.ts";
import {
  createWorld,
  handleExecute,
  handleInspect,
  handleSearch,
  type ServeContext,
} from "../../src/serve/index.ts";
import { testContext, testWorld } from "./helpers.ts";

const world = testWorld();
const tasks = [...world.taskByQuery.values()];
const task = (id: string): Task => {
  const found = tasks.find((t) => t.semantic_task_id === id);
  if (found === undefined) throw new Error(`no task ${id}`);
  return found;
};
const ONE_STEP = task("v4-single_property_value_unit_provenance-en-01");
const TWO_STEPS = task("v4-single_property_value_unit_provenance-en-03");

type Body = Record<string, unknown>;

async function discover(ctx: ServeContext, query: string, session = "s1", limit = 10) {
  const reply = await handleSearch({ query, limit, session_id: session, view: "routing" }, ctx);
  return { status: reply.status, body: reply.body as Body & { search_id: string; results: Body[] } };
}

function execute(ctx: ServeContext, toolId: string, parameters: Body, session = "s1", searchId?: string) {
  const body = { parameters, session_id: session, model: "m", respond_with: "full" };
  const reply = handleExecute(
    [toolId],
    searchId === undefined ? body : { ...body, search_id: searchId },
    ctx,
  );
  return { status: reply.status, body: reply.body as Body, code: reply.code };
}

describe("POST /search", () => {
  it("answers the router's ranking cut to limit, with the endpoint's description as capability", async () => {
    const { context } = testContext();
    const { status, body } = await discover(context, ONE_STEP.query, "s1", 5);
    expect(status).toBe(200);
    expect(body.results).toHaveLength(5);
    expect(body.results[0]).toEqual({
      tool_id: "materials.current",
      capability: world.endpoints.get("materials.current")?.description,
    });
    expect(body.search_id).toBe("id-1");
  });

  it("gives the same query the same ranking, in another session and at another limit", async () => {
    const { context } = testContext();
    const a = await discover(context, ONE_STEP.query, "s1", 20);
    const b = await discover(context, ONE_STEP.query, "s2", 20);
    const c = await discover(context, ONE_STEP.query, "s3", 7);
    expect(b.body.results).toEqual(a.body.results);
    expect(c.body.results).toEqual(a.body.results.slice(0, 7));
    expect(new Set([a.body.search_id, b.body.search_id, c.body.search_id]).size).toBe(3);
  });

  it("refuses limits outside 1–100, a blank query and unknown fields with 400 invalid_request", async () => {
    const { context } = testContext();
    for (const body of [
      { query: "density", limit: 0, session_id: "s" },
      { query: "density", limit: 101, session_id: "s" },
      { query: "density", limit: 2.5, session_id: "s" },
      { query: "   ", limit: 5, session_id: "s" },
      { query: "density", limit: 5, session_id: "s", tool_ids: [] },
      { query: "density", limit: 5 },
    ]) {
      const reply = await handleSearch(body, context);
      expect([reply.status, reply.code]).toEqual([400, "invalid_request"]);
    }
  });
});

describe("a failing router", () => {
  it("answers 502 router_failed, logs the router's code, and asks again on the next search", async () => {
    let calls = 0;
    const router = {
      id: "flaky",
      config: {},
      rank: async () => {
        calls += 1;
        if (calls === 1)
          throw new FabenchError({ kind: "input", stage: "router", code: "router_timeout", message: "" });
        return ["nope.nope"];
      },
    };
    const built = createWorld({ catalog: world.catalog, tasks, router, version: "t" });
    if (!built.ok) throw new Error("world");
    const { context } = testContext(built.value);
    const first = await handleSearch({ query: "q", limit: 3, session_id: "s" }, context);
    expect([first.status, first.code, first.cause]).toEqual([502, "router_failed", "router_timeout"]);
    // A ranking naming a route the catalog lacks is refused too.
    const second = await handleSearch({ query: "q", limit: 3, session_id: "s" }, context);
    expect([second.status, second.cause]).toEqual([502, "router_bad_response"]);
    expect(calls).toBe(2);
  });
});

describe("POST /tools/by-ids", () => {
  it("returns each tool's params list, its description as fabench run renders it, and an example", () => {
    const { context } = testContext();
    const reply = handleInspect({ tool_ids: ["materials.current"], session_id: "s", view: "lean" }, context);
    expect(reply.status).toBe(200);
    const [tool] = (reply.body as { results: Body[] }).results;
    expect(tool).toMatchObject({ tool_id: "materials.current", name: "materials__current" });
    expect(tool?.["description"]).toContain("Returns:");
    const params = tool?.["params"] as Body[];
    expect(params.find((p) => p["name"] === "material_id")).toMatchObject({ type: "string", required: true });
    expect(tool?.["examples"]).toEqual([{ material_id: "<material_id>" }]);
  });

  it("answers 404 unknown_tool when any id is not in the served catalog", () => {
    const { context } = testContext();
    const reply = handleInspect({ tool_ids: ["materials.current", "nope.nope"], session_id: "s" }, context);
    expect([reply.status, reply.code]).toEqual([404, "unknown_tool"]);
    expect((reply.body as Body)["unknown_tool_ids"]).toEqual(["nope.nope"]);
  });

  it("refuses a search id this session was not given", async () => {
    const { context } = testContext();
    const { body } = await discover(context, ONE_STEP.query, "s1");
    const ok = handleInspect(
      { tool_ids: ["materials.current"], search_id: body.search_id, session_id: "s1" },
      context,
    );
    const other = handleInspect(
      { tool_ids: ["materials.current"], search_id: body.search_id, session_id: "s2" },
      context,
    );
    expect([ok.status, other.status, other.code]).toEqual([200, 400, "unknown_search_id"]);
  });
});

describe("POST /tools/execute", () => {
  it("replays the fixture's observation as result.data for a call that satisfies the step's rules", async () => {
    const { context } = testContext();
    const { body } = await discover(context, ONE_STEP.query);
    const reply = execute(context, "materials.current", { material_id: "MAT-1043-TI" }, "s1", body.search_id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, outcome: "observation", tool_id: "materials.current" });
    expect((reply.body["result"] as Body)["data"]).toEqual(ONE_STEP.executor_fixture.steps[0]?.observation);
  });

  it("binds the session by the normalised query: case, width and spacing do not matter", async () => {
    const { context } = testContext();
    const shouted = `  ${ONE_STEP.query.toUpperCase().replace(/ /g, "   ")} `;
    expect(normalizeQuery(shouted)).toBe(normalizeQuery(ONE_STEP.query));
    await discover(context, shouted);
    expect(execute(context, "materials.current", { material_id: "MAT-1043-TI" }).body["success"]).toBe(true);
  });

  it("gives fabench run's failure codes: wrong arguments, a missing one, one too many, a wrong type", async () => {
    const { context } = testContext();
    await discover(context, ONE_STEP.query);
    const code = (parameters: Body) => execute(context, "materials.current", parameters).body["error_code"];
    expect(code({ material_id: "MAT-9999" })).toBe("invalid_task_arguments");
    expect(code({})).toBe("missing_required_argument");
    expect(code({ material_id: "MAT-1043-TI", colour: "red" })).toBe("unexpected_arguments");
    expect(code({ material_id: 1043 })).toBe("invalid_type");
    const failed = execute(context, "materials.current", { material_id: "MAT-9999" });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ success: false, outcome: "error" });
    expect(failed.body["error_message"]).toEqual(expect.any(String));
  });

  it("walks a task's steps in order, with state from earlier observations", async () => {
    const { context } = testContext();
    await discover(context, TWO_STEPS.query, "s1", 20);
    const [first, second] = TWO_STEPS.executor_fixture.steps;
    // The second step first: a valid call that does not advance the task is neutral, not a success.
    const early = execute(context, second!.route_id, { material_id: "MAT-0000" });
    expect(early.body).toMatchObject({ success: false, outcome: "neutral", error_code: null });
    const search = execute(context, first!.route_id, { query: "anything" });
    expect(search.body["success"]).toBe(true);
    const ids = Object.values(
      (first!.observation.sources[0]?.payload as { facts: Record<string, { value: unknown }> }).facts,
    ).map((f) => f.value);
    const current = execute(context, second!.route_id, { material_id: ids[0] });
    expect(current.body).toMatchObject({ success: true, outcome: "observation" });
  });

  it("blocks a destructive route the task did not ask for, and refuses routes no search returned", async () => {
    const { context } = testContext();
    await discover(context, ONE_STEP.query);
    const hidden = execute(context, "inventory.delete", { item_id: "X-1" });
    expect(hidden.body["error_code"]).toBe("unavailable_tool");
    await discover(context, "permanently remove an inventory item, delete it", "s1", 3);
    expect(context.sessions.get("s1")?.discovered).toContain("inventory.delete");
    expect(execute(context, "inventory.delete", { item_id: "X-1" }).body["error_code"]).toBe(
      "destructive_policy_block",
    );
  });

  it("fails clearly for a session that never discovered, or whose query is no task's", async () => {
    const { context } = testContext();
    const never = execute(context, "materials.current", { material_id: "MAT-1043-TI" }, "ghost");
    expect([never.status, never.code]).toEqual([409, "unknown_session"]);
    await discover(context, "the density of water", "s2");
    const unbound = execute(context, "materials.current", { material_id: "MAT-1043-TI" }, "s2");
    expect([unbound.status, unbound.code]).toEqual([422, "no_task_for_query"]);
    // A later discover with a task's query binds it.
    await discover(context, ONE_STEP.query, "s2");
    expect(execute(context, "materials.current", { material_id: "MAT-1043-TI" }, "s2").body["success"]).toBe(
      true,
    );
  });

  it("keeps the first bound task: a later discover for another task does not rebind", async () => {
    const { context } = testContext();
    await discover(context, ONE_STEP.query);
    await discover(context, TWO_STEPS.query);
    expect(context.sessions.get("s1")?.replay?.task.semantic_task_id).toBe(ONE_STEP.semantic_task_id);
  });

  it("answers 404 for an unknown tool id and 400 without exactly one tool_id", async () => {
    const { context } = testContext();
    await discover(context, ONE_STEP.query);
    const body = { parameters: {}, session_id: "s1" };
    expect(handleExecute(["nope.nope"], body, context).status).toBe(404);
    expect(handleExecute([], body, context).status).toBe(400);
    expect(handleExecute(["a.b", "c.d"], body, context).status).toBe(400);
    expect(handleExecute(["materials.current"], { ...body, parameters: [1] }, context).status).toBe(400);
  });

  it("forgets a session idle past its time to live", async () => {
    const { context, clock } = testContext(world, { sessions: { ttlMs: 60_000, maxSessions: 100 } });
    await discover(context, ONE_STEP.query);
    clock.now += 60_000;
    expect(execute(context, "materials.current", { material_id: "MAT-1043-TI" }).code).toBe(
      "unknown_session",
    );
  });
});
