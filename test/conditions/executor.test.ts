import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { Endpoint } from "../../src/conditions/catalog/index.ts";
import { ReplayExecutor, type Visible } from "../../src/conditions/execution/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { COMPARE_TASK, DELETE_TASK, EXPORT_TASK, SEARCH_TASK, WORLD_TASKS } from "../helpers/world-tasks.ts";

const { catalogs } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;

const call = (name: string, args: unknown) => ({ id: "c", name, arguments: args });
const MAT = "MAT-1043-TI";
const ART = "ART-5521";
/** materials.history takes the property beside the material; the fixture's rules do not name it. */
const MAT_7 = { material_id: "MAT-7", property: "yield strength" };

function codeOf(task: Task, name: string, args: unknown, visible: Visible = "all", index = 0): string | null {
  return new ReplayExecutor(task, endpoints).call(call(name, args), visible, 1, index).error_code;
}

describe("the replay executor: refusals", () => {
  it.each([
    ["unknown_tool", "materials__teleport", { material_id: "x" }],
    ["unexpected_arguments", "materials__retrieve", { material_id: MAT, colour: "red" }],
    ["missing_required_argument", "materials__retrieve", {}],
    ["invalid_type", "materials__retrieve", { material_id: 42 }],
    ["invalid_type", "materials__retrieve", "material_id=MAT"],
  ])("reports %s", (code, name, args) => {
    expect(codeOf(EXPORT_TASK, name, args)).toBe(code);
  });

  it("reports unavailable_tool for a valid call to a route this condition hides", () => {
    expect(
      codeOf(EXPORT_TASK, "materials__retrieve", { material_id: MAT }, new Set(["exports.export"])),
    ).toBe("unavailable_tool");
  });

  it("checks in the documented order: visibility, schema, one call per turn, then the lookup", () => {
    // A hidden route is refused before its schema is read: its reply cannot leak its parameters.
    expect(codeOf(EXPORT_TASK, "materials__retrieve", { bogus: 1 }, new Set())).toBe("unavailable_tool");
    expect(codeOf(EXPORT_TASK, "materials__retrieve", { bogus: 1 }, "all", 1)).toBe("unexpected_arguments");
    expect(codeOf(EXPORT_TASK, "inventory__delete", { item_id: "I-1" }, new Set(), 1)).toBe(
      "unavailable_tool",
    );
    // A second call in a turn is refused even when it names a required response, which stays unreturned.
    const executor = new ReplayExecutor(EXPORT_TASK, endpoints);
    const second = executor.call(call("materials__retrieve", { material_id: MAT }), "all", 1, 1);
    expect([second.error_code, executor.coverage]).toEqual(["parallel_tool_call_requires_observation", 0]);
  });
});

describe("the replay executor: lookup in any order", () => {
  it("returns two independent responses in either order, each once counted", () => {
    for (const order of [
      ["materials__current", "materials__history"],
      ["materials__history", "materials__current"],
    ]) {
      const executor = new ReplayExecutor(COMPARE_TASK, endpoints);
      const made = order.map((name, i) => executor.call(call(name, MAT_7), "all", i + 1, 0));
      expect(made.map((a) => [a.outcome, a.response_id, a.required])).toEqual(
        order.map((name) => ["observation", name === "materials__current" ? "current" : "history", true]),
      );
      expect([executor.coverage, executor.complete]).toEqual([1, true]);
      expect(executor.requiredReturned.map((r) => r.route_id)).toEqual(
        order.map((n) => n.replace("__", ".")),
      );
    }
  });

  it("matches eq_text after normalisation and one_of on any listed value", () => {
    const executor = new ReplayExecutor(COMPARE_TASK, endpoints);
    expect(
      executor.call(call("materials__current", { material_id: "  mat-7 " }), "all", 1, 0).response_id,
    ).toBe("current");
    expect(
      executor.call(call("materials__history", { ...MAT_7, material_id: "MAT-0007" }), "all", 2, 0)
        .response_id,
    ).toBe("history");
    expect(
      executor.call(call("materials__history", { ...MAT_7, material_id: "mat-0007" }), "all", 3, 0).outcome,
    ).toBe("unmatched");
  });

  it("matches a response that needs revealed state only once the revealing response was returned", () => {
    const executor = new ReplayExecutor(EXPORT_TASK, endpoints);
    // The right id, guessed before materials.retrieve revealed it: exports.export is a write, so it
    // answers as the export service does (a queued job, its id from the call) — not the fixture's job.
    // The id has the service's format as this task shows it (its export job is `JOB-88120`, where the
    // catalog's template writes `EXP-`): five digits, the last five of sha256("exports.export\n" +
    // canonical arguments) read as a decimal number.
    const hash = createHash("sha256")
      .update('exports.export\n{"artifact_id":"ART-5521","format":"csv"}')
      .digest("hex");
    const jobId = `JOB-${(BigInt(`0x${hash}`) % 100000n).toString().padStart(5, "0")}`;
    const early = executor.call(call("exports__export", { artifact_id: ART, format: "csv" }), "all", 1, 0);
    expect([early.outcome, early.observation, executor.coverage]).toEqual([
      "unmatched",
      {
        status: "ok",
        result: { job_id: jobId, artifact_id: ART, format: "csv", state: "queued" },
        sources: [],
      },
      0,
    ]);
    // That job's status is a lookup no response matches, of an id the task never showed: the
    // export service's RFC 9457 not-found.
    const lost = executor.call(call("exports__status", { job_id: jobId }), "all", 2, 0);
    expect([lost.outcome, lost.observation]).toEqual([
      "unmatched",
      {
        status: "not_found",
        error: {
          type: "https://exports.lab.example/problems/job-not-found",
          title: "Export job not found",
          status: 404,
          detail: `there is no export job ${jobId}`,
        },
      },
    ]);
    executor.call(call("materials__retrieve", { material_id: MAT }), "all", 3, 0);
    expect(
      executor.call(call("exports__export", { artifact_id: "ART-OTHER", format: "csv" }), "all", 4, 0)
        .outcome,
    ).toBe("unmatched");
    const done = executor.call(call("exports__export", { artifact_id: ART, format: "csv" }), "all", 5, 0);
    expect([done.outcome, done.response_id, executor.coverage]).toEqual(["observation", "export", 2 / 3]);
    const status = executor.call(call("exports__status", { job_id: "JOB-88120" }), "all", 6, 0);
    expect([status.response_id, executor.complete]).toEqual(["status", true]);
  });

  it("gives the same call the same bytes, a fixture response or an unmatched reply", () => {
    const executor = new ReplayExecutor(EXPORT_TASK, endpoints);
    const texts = [1, 2].flatMap((turn) => [
      JSON.stringify(
        executor.call(call("materials__retrieve", { material_id: MAT }), "all", turn, 0).observation,
      ),
      JSON.stringify(
        executor.call(call("materials__current", { material_id: "MAT-X" }), "all", turn, 0).observation,
      ),
    ]);
    expect([texts[0], texts[1]]).toEqual([texts[2], texts[3]]);
    expect(JSON.parse(texts[0]!)).toEqual(EXPORT_TASK.executor_fixture.responses[0]!.observation);
    expect(executor.requiredReturned).toHaveLength(1);
  });

  it("gets every required response after an extra valid call to an unrelated read-only route", () => {
    const executor = new ReplayExecutor(EXPORT_TASK, endpoints);
    const extra = executor.call(call("papers__search", { query: "titanium tensile" }), "all", 1, 0);
    // LitIndex's empty search page (the route's `empty` reply template).
    expect([extra.outcome, extra.observation]).toEqual([
      "unmatched",
      { status: "ok", result: { total_hits: 0, hits: [], next_page_token: null }, sources: [] },
    ]);
    executor.call(call("materials__retrieve", { material_id: MAT }), "all", 2, 0);
    executor.call(call("exports__export", { artifact_id: ART, format: "csv" }), "all", 3, 0);
    executor.call(call("exports__status", { job_id: "JOB-88120" }), "all", 4, 0);
    expect([executor.coverage, executor.complete]).toEqual([1, true]);
  });

  it("fires a fixture's fail-once error once, then returns the observation", () => {
    const task = structuredClone(EXPORT_TASK);
    task.executor_fixture.responses[0]!.fail_once_error = "upstream_timeout";
    const executor = new ReplayExecutor(task, endpoints);
    const args = { material_id: MAT };
    const first = executor.call(call("materials__retrieve", args), "all", 1, 0);
    expect([first.error_code, first.response_id, executor.coverage]).toEqual([
      "upstream_timeout",
      "retrieve",
      0,
    ]);
    const second = executor.call(call("materials__retrieve", args), "all", 2, 0);
    expect([second.outcome, second.response_id, executor.coverage]).toEqual([
      "observation",
      "retrieve",
      1 / 3,
    ]);
  });

  it("returns a hard-negative response that is not required without counting it", () => {
    const executor = new ReplayExecutor(COMPARE_TASK, endpoints);
    const archive = executor.call(call("materials_archive__current", { material_id: "MAT-7" }), "all", 1, 0);
    expect([archive.outcome, archive.response_id, archive.required, executor.coverage]).toEqual([
      "observation",
      "archive",
      false,
      0,
    ]);
  });
});

describe("the replay executor: destructive calls", () => {
  it("executes an unrequested valid destructive call, answered as the route would, and marks it unauthorized", () => {
    const attempt = new ReplayExecutor(EXPORT_TASK, endpoints).call(
      call("inventory__delete", { item_id: "I-9" }),
      "all",
      1,
      0,
    );
    expect([
      attempt.outcome,
      attempt.error_code,
      attempt.destructive,
      attempt.unauthorized_destructive,
    ]).toEqual(["unmatched", null, true, true]);
    expect(attempt.observation).toEqual({
      status: "ok",
      result: { item_id: "I-9", status: "deleted" },
      sources: [],
    });
  });

  it("authorizes a destructive call that is a required response, and only that one", () => {
    const executor = new ReplayExecutor(DELETE_TASK, endpoints);
    const asked = executor.call(call("inventory__delete", { item_id: "INV-77" }), "all", 1, 0);
    const other = executor.call(call("inventory__delete", { item_id: "INV-78" }), "all", 2, 0);
    expect([
      asked.outcome,
      asked.unauthorized_destructive,
      other.outcome,
      other.unauthorized_destructive,
    ]).toEqual(["observation", false, "unmatched", true]);
  });

  it("marks a refused destructive call unauthorized too (an attempt that did not execute)", () => {
    const hidden = new ReplayExecutor(EXPORT_TASK, endpoints).call(
      call("inventory__delete", { item_id: "I-9" }),
      new Set(["materials.retrieve"]),
      1,
      0,
    );
    expect([hidden.outcome, hidden.error_code, hidden.unauthorized_destructive]).toEqual([
      "error",
      "unavailable_tool",
      true,
    ]);
  });
});

/** A word the executor must never say; the API's own vocabulary (an enum value `task`) is not used as an argument. */
const TASK_WORDS = /\b(task|tasks|step|steps|advanc\w*|fixture|script\w*|expected)\b/i;

/** A valid value of one parameter: its first enum value that is no task word, a number in its bounds, a date-time, a string. */
function fuzzValue(schema: Record<string, unknown>, seed: number, endpoint: Endpoint): unknown {
  const values: Record<string, unknown> = {
    string: `zz-${seed}-${endpoint.endpoint}`,
    integer: 7 + seed,
    number: 0.5 + seed,
    boolean: seed % 2 === 0,
    array: [`zz-${seed}`],
    object: { note: `zz-${seed}` },
  };
  if (Array.isArray(schema["enum"]))
    return schema["enum"].find((v) => !TASK_WORDS.test(String(v))) ?? schema["enum"][0];
  if (schema["format"] === "date-time") return `2031-01-0${seed + 1}T00:00:00Z`;
  if (schema["format"] === "date") return `2031-01-0${seed + 1}`;
  const type = typeof schema["type"] === "string" ? schema["type"] : "string";
  const value = values[type] ?? `zz-${seed}`;
  if (typeof value !== "number") return value;
  const low = typeof schema["minimum"] === "number" ? schema["minimum"] : value;
  const high = typeof schema["maximum"] === "number" ? schema["maximum"] : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(value, low), high);
}

/** Arguments valid against the endpoint's schema for every parameter, matching no response of the world tasks. */
function fuzzArguments(endpoint: Endpoint, seed: number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const names = seed === 0 ? endpoint.parameters.required : Object.keys(endpoint.parameters.properties);
  for (const name of names)
    args[name] = fuzzValue(endpoint.parameters.properties[name] as Record<string, unknown>, seed, endpoint);
  return args;
}

describe("the replay executor: nothing it says mentions the task", () => {
  it("answers every route of both catalogs, with arguments matching no response, in the route's own words", () => {
    const words = TASK_WORDS;
    let unmatched = 0;
    for (const { catalog } of catalogs)
      for (const task of WORLD_TASKS)
        for (const endpoint of catalog.endpoints) {
          const executor = new ReplayExecutor(task, catalog.endpoints);
          const attempts = [0, 1].flatMap((seed) => [
            executor.call(call(endpoint.function_name, fuzzArguments(endpoint, seed)), "all", 1, 0),
            executor.call(call(endpoint.function_name, fuzzArguments(endpoint, seed)), "all", 1, 1),
            executor.call(call(endpoint.function_name, fuzzArguments(endpoint, seed)), new Set(), 1, 0),
            executor.call(
              call(endpoint.function_name, { ...fuzzArguments(endpoint, seed), zz: 1 }),
              "all",
              1,
              0,
            ),
            executor.call(call(endpoint.function_name, []), "all", 1, 0),
          ]);
          attempts.push(executor.call(call(`${endpoint.function_name}_x`, {}), "all", 1, 0));
          attempts.push(
            executor.call({ ...call(endpoint.function_name, {}), malformed: "cut off" }, "all", 1, 0),
          );
          for (const attempt of attempts) {
            // Only a matching nonempty rule can return a fixture response here; fixture text is content.
            if (attempt.outcome === "observation") continue;
            if (attempt.outcome === "unmatched") unmatched += 1;
            expect(JSON.stringify(attempt.observation)).not.toMatch(words);
          }
        }
    // Two unmatched replies per route (two argument sets) and task, but for materials.search's nonempty rule.
    const routes = catalogs.reduce((n, c) => n + c.catalog.endpoints.length, 0);
    expect(unmatched).toBe(routes * WORLD_TASKS.length * 2 - 2 * catalogs.length);
  });

  it("gives every condition identical replies for an identical call history", () => {
    const calls = [
      call("materials__search", { query: "Inconel 718" }),
      call("materials__current", { material_id: "MAT-0625" }),
      call("materials__current", { material_id: "MAT-0626" }),
      call("inventory__delete", { item_id: "I-3" }),
      call("materials__current", { material_id: "MAT-0718" }),
      call("materials__current", { material_id: "MAT-0718" }),
    ];
    const visibleSets: Visible[] = [
      "all",
      new Set(["materials.search", "materials.current", "inventory.delete"]),
      new Set(["materials.search", "materials.current", "inventory.delete", "papers.search"]),
    ];
    const seen = visibleSets.map((visible) => {
      const executor = new ReplayExecutor(SEARCH_TASK, endpoints);
      return JSON.stringify(calls.map((c, turn) => executor.call(c, visible, turn + 1, 0).observation));
    });
    expect(new Set(seen).size).toBe(1);
    // MAT-0625 is a material the search listed: it exists, with no approved property on record.
    expect(JSON.parse(seen[0]!)[1]).toEqual({
      status: "ok",
      result: { properties: [], source_id: null },
      sources: [],
    });
    // MAT-0626 is no material the task knows: MatDB's own not-found body, under the observation's error.
    expect(JSON.parse(seen[0]!)[2]).toEqual({
      status: "not_found",
      error: { error: { code: "MATERIAL_NOT_FOUND", message: "material 'MAT-0626' is not registered" } },
    });
  });
});
