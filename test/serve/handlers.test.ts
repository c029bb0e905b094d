/**
 * The three endpoints as pure functions over a frozen world (catalog 100, the hand-written v5 tasks
 * of test/helpers/world-tasks.ts, the keyword router): no socket, a clock the test moves, ids from a
 * counter.
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
import { COMPARE_TASK, SEARCH_TASK, WORLD_TASKS } from "../helpers/world-tasks.ts";
import { testContext, worldOf } from "./helpers.ts";

const world = worldOf();
const tasks: readonly Task[] = WORLD_TASKS;
/** Two independent responses, the first on materials.current for MAT-7. */
const ONE_STEP = COMPARE_TASK;
/** materials.search reveals the id materials.current needs. */
const TWO_STEPS = SEARCH_TASK;
const MAT = "MAT-7";

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
    const { context } = testContext(world);
    const { status, body } = await discover(context, ONE_STEP.query, "s1", 5);
    expect(status).toBe(200);
    expect(body.results).toHaveLength(5);
    // The keyword router ranks the current value first for this query, the history second and the
    // archive (a hard negative) third.
    const top = [
      "materials.current",
      "materials.history",
      "materials_archive.current",
      "materials_v1.properties",
      "standards.limits",
    ];
    expect(body.results).toEqual(
      top.map((id) => ({ tool_id: id, capability: world.endpoints.get(id)?.description })),
    );
    expect(body.results[0]?.["capability"]).toMatch(/^Current approved value of a material's properties/);
    expect(body.search_id).toBe("id-1");
  });

  it("gives the same query the same ranking, in another session and at another limit", async () => {
    const { context } = testContext(world);
    const a = await discover(context, ONE_STEP.query, "s1", 20);
    const b = await discover(context, ONE_STEP.query, "s2", 20);
    const c = await discover(context, ONE_STEP.query, "s3", 7);
    expect(b.body.results).toEqual(a.body.results);
    expect(c.body.results).toEqual(a.body.results.slice(0, 7));
    expect(new Set([a.body.search_id, b.body.search_id, c.body.search_id]).size).toBe(3);
  });

  it("refuses limits outside 1–100, a blank query and unknown fields with 400 invalid_request", async () => {
    const { context } = testContext(world);
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
    const { context } = testContext(world);
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
    const { context } = testContext(world);
    const reply = handleInspect({ tool_ids: ["materials.current", "nope.nope"], session_id: "s" }, context);
    expect([reply.status, reply.code]).toEqual([404, "unknown_tool"]);
    expect((reply.body as Body)["unknown_tool_ids"]).toEqual(["nope.nope"]);
  });

  it("refuses a search id this session was not given", async () => {
    const { context } = testContext(world);
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
  it("replays the fixture's observation as result.data for a call that satisfies a response's rules", async () => {
    const { context } = testContext(world);
    const { body } = await discover(context, ONE_STEP.query);
    const reply = execute(context, "materials.current", { material_id: MAT }, "s1", body.search_id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, outcome: "observation", tool_id: "materials.current" });
    expect((reply.body["result"] as Body)["data"]).toEqual(
      ONE_STEP.executor_fixture.responses[0]?.observation,
    );
  });

  it("binds the session by the normalised query: case, width and spacing do not matter", async () => {
    const { context } = testContext(world);
    const shouted = `  ${ONE_STEP.query.toUpperCase().replace(/ /g, "   ")} `;
    expect(normalizeQuery(shouted)).toBe(normalizeQuery(ONE_STEP.query));
    await discover(context, shouted);
    expect(execute(context, "materials.current", { material_id: MAT }).body["success"]).toBe(true);
  });

  it("gives fabench run's failure codes, and a not-found in the route's words for an unknown id", async () => {
    const { context } = testContext(world);
    await discover(context, ONE_STEP.query);
    const code = (parameters: Body) => execute(context, "materials.current", parameters).body["error_code"];
    expect(code({})).toBe("missing_required_argument");
    expect(code({ material_id: MAT, colour: "red" })).toBe("unexpected_arguments");
    expect(code({ material_id: 1043 })).toBe("invalid_type");
    // A value the schema refuses: the route's validation reply, its message as error_message.
    expect(execute(context, "materials.search", { query: "Inconel", page_size: 0 }).body).toMatchObject({
      success: false,
      error_code: "invalid_argument_value",
      error_message: "page_size must be >= 1",
    });
    const failed = execute(context, "materials.current", { material_id: "MAT-9999" });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      success: false,
      outcome: "error",
      error_code: "not_found",
      error_message: "material 'MAT-9999' is not registered",
    });
  });

  it("answers a task's responses in the order the data allows, with state from earlier responses", async () => {
    const { context } = testContext(world);
    await discover(context, TWO_STEPS.query, "s1", 20);
    const [search, current] = TWO_STEPS.executor_fixture.responses;
    // The id before the search revealed it: the material exists in the task's world (the search
    // lists it), so the route answers it exists with nothing recorded — not the fixture's record,
    // which needs the search first, and not "not registered" (#32: the world never denies an entity).
    const early = execute(context, current!.route_id, { material_id: "MAT-0718" });
    expect(early.body).toMatchObject({ success: true, outcome: "observation" });
    expect((early.body["result"] as Body)["data"]).toEqual({
      status: "ok",
      result: { properties: [], source_id: null },
      sources: [],
    });
    const found = execute(context, search!.route_id, { query: "anything" });
    expect(found.body["success"]).toBe(true);
    const later = execute(context, current!.route_id, { material_id: "MAT-0718" });
    expect(later.body).toMatchObject({ success: true, outcome: "observation" });
    expect((later.body["result"] as Body)["data"]).toEqual(current!.observation);
  });

  it("executes a destructive route the task did not ask for as the route would, and refuses routes no search returned", async () => {
    const { context } = testContext(world);
    await discover(context, ONE_STEP.query);
    const hidden = execute(context, "inventory.delete", { item_id: "X-1" });
    expect(hidden.body["error_code"]).toBe("unavailable_tool");
    await discover(context, "permanently remove an inventory item, delete it", "s1", 3);
    expect(context.sessions.get("s1")?.discovered).toContain("inventory.delete");
    const deleted = execute(context, "inventory.delete", { item_id: "X-1" });
    expect(deleted.body).toMatchObject({ success: true, outcome: "observation" });
    expect((deleted.body["result"] as Body)["data"]).toEqual({
      status: "ok",
      result: { item_id: "X-1", status: "deleted" },
      sources: [],
    });
  });

  it("fails clearly for a session that never discovered, or whose query is no task's", async () => {
    const { context } = testContext(world);
    const never = execute(context, "materials.current", { material_id: MAT }, "ghost");
    expect([never.status, never.code]).toEqual([409, "unknown_session"]);
    await discover(context, "the density of water", "s2");
    const unbound = execute(context, "materials.current", { material_id: MAT }, "s2");
    expect([unbound.status, unbound.code]).toEqual([422, "no_task_for_query"]);
    // A later discover with a task's query binds it.
    await discover(context, ONE_STEP.query, "s2");
    expect(execute(context, "materials.current", { material_id: MAT }, "s2").body["success"]).toBe(true);
  });

  it("keeps the first bound task: a later discover for another task does not rebind", async () => {
    const { context } = testContext(world);
    await discover(context, ONE_STEP.query);
    await discover(context, TWO_STEPS.query);
    expect(context.sessions.get("s1")?.replay?.task.semantic_task_id).toBe(ONE_STEP.semantic_task_id);
  });

  it("answers 404 for an unknown tool id and 400 without exactly one tool_id", async () => {
    const { context } = testContext(world);
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
    expect(execute(context, "materials.current", { material_id: MAT }).code).toBe("unknown_session");
  });
});
