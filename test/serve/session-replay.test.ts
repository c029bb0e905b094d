/**
 * A session keeps only the calls that moved its executor and replays them on each execute. Checked
 * against one live ReplayExecutor over random call sequences: every answer is the same, including a
 * fixture's fail-once error, state revealed by earlier responses, responses taken in any order,
 * unmatched calls and unrequested destructive ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { ReplayExecutor, type Visible } from "../../src/conditions/execution/index.ts";
import { resolvePointer } from "../../src/core/index.ts";
import { createWorld, OutcomeMemo, SessionReplay } from "../../src/serve/index.ts";
import { COMPARE_TASK, EXPORT_TASK, SEARCH_TASK, WORLD_TASKS } from "../helpers/world-tasks.ts";
import { worldOf } from "./helpers.ts";

const world = worldOf();
const endpoints = world.catalog.endpoints;
const fn = (route: string) => world.endpoints.get(route)?.function_name ?? route;

/** Arguments that satisfy each response's rules, with the state the fixture's responses reveal. */
function rightArguments(task: Task): Record<string, unknown>[] {
  const state = new Map<string, unknown>();
  for (const response of task.executor_fixture.responses)
    for (const [name, pointer] of Object.entries(response.reveals ?? {})) {
      const found = resolvePointer(response.observation, pointer);
      if (found.found) state.set(name, found.value);
    }
  return task.executor_fixture.responses.map((response) => {
    const args: Record<string, unknown> = { ...world.tools.get(response.route_id)?.examples[0] };
    for (const [name, rule] of Object.entries(response.argument_rules)) {
      if ("eq" in rule) args[name] = rule.eq;
      else if ("eq_text" in rule) args[name] = rule.eq_text.toLowerCase();
      else if ("one_of" in rule) args[name] = rule.one_of.at(-1);
      else if ("nonempty" in rule) args[name] = "something";
      else if ("state" in rule) args[name] = state.get(rule.state);
      else if ("contains_state" in rule) args[name] = `about ${String(state.get(rule.contains_state))}`;
      else throw new Error(`this helper does not satisfy ${JSON.stringify(rule)} yet`);
    }
    return args;
  });
}

/** Each world task made to fail once on its first required response that needs state (else its first). */
function failingOnce(task: Task): Task {
  const responses = task.executor_fixture.responses;
  const index = Math.max(
    0,
    responses.findIndex((r) => Object.values(r.argument_rules).some((rule) => "state" in rule)),
  );
  return {
    ...task,
    semantic_task_id: `${task.semantic_task_id}-failing`,
    executor_fixture: {
      responses: responses.map((r, i) => (i === index ? { ...r, fail_once_error: "upstream_timeout" } : r)),
    },
  };
}
const TASKS = [...WORLD_TASKS, ...WORLD_TASKS.map(failingOnce)];

describe("SessionReplay", () => {
  /** Random call sequences, each checked call by call against one live executor. */
  function matchesLive(replayOf: (task: Task) => SessionReplay, numRuns: number): void {
    fc.assert(
      fc.property(
        fc.constantFrom(...TASKS),
        fc.array(
          fc.record({
            response: fc.nat({ max: 5 }),
            args: fc.constantFrom("right", "right", "empty", "wrong", "extra"),
            route: fc.constantFrom(
              "response",
              "response",
              "response",
              "materials.search",
              "inventory.delete",
            ),
            hidden: fc.boolean(),
          }),
          { maxLength: 14 },
        ),
        (task, calls) => {
          const responses = task.executor_fixture.responses;
          const right = rightArguments(task);
          const live = new ReplayExecutor(task, endpoints);
          const replay = replayOf(task);
          calls.forEach((c, turn) => {
            const index = c.response % responses.length;
            const route = c.route === "response" ? (responses[index]?.route_id ?? "") : c.route;
            const args =
              c.args === "right"
                ? right[index]
                : c.args === "empty"
                  ? {}
                  : c.args === "wrong"
                    ? Object.fromEntries(Object.keys(right[index] ?? {}).map((k) => [k, "ZZ-1"]))
                    : { ...right[index], extra: 1 };
            const visible: Visible = c.hidden ? new Set([responses[0]?.route_id ?? ""]) : "all";
            const name = fn(route);
            expect(replay.call(name, args, visible, turn)).toEqual(
              live.call({ id: `call-${turn}`, name, arguments: args }, visible, turn, 0),
            );
          });
        },
      ),
      { seed: 18, numRuns },
    );
  }

  it("answers every call exactly as one live executor would", () => {
    matchesLive((task) => new SessionReplay(task, endpoints), 400);
  });

  it("answers every call exactly as one live executor would with outcomes remembered across sessions", () => {
    // One memo for every run: later sessions are answered from what earlier ones left, and a
    // memo of 50 entries also drops outcomes on the way.
    for (const size of [1_000, 50]) {
      const memo = new OutcomeMemo(endpoints, size);
      matchesLive((task) => new SessionReplay(task, endpoints, memo), 400);
      expect(memo.size).toBeGreaterThan(Math.min(size, 40) - 1);
      expect(memo.size).toBeLessThanOrEqual(size);
    }
  });

  it("remembers an outcome: the second session's same call builds no executor", () => {
    const memo = new OutcomeMemo(endpoints, 10);
    const args = rightArguments(COMPARE_TASK)[0];
    const name = fn(COMPARE_TASK.executor_fixture.responses[0]!.route_id);
    const first = new SessionReplay(COMPARE_TASK, endpoints, memo).call(name, args, "all", 1);
    const second = new SessionReplay(COMPARE_TASK, endpoints, memo);
    (second as unknown as { run: () => never }).run = () => {
      throw new Error("the executor ran");
    };
    expect(second.call(name, { ...args }, "all", 7)).toEqual({ ...first, turn: 7 });
    expect(first.outcome).toBe("observation");
  });

  it("walks a task with its right arguments, failing once where the fixture says", () => {
    const failing = failingOnce(EXPORT_TASK);
    const replay = new SessionReplay(failing, endpoints);
    const right = rightArguments(failing);
    const outcomes = failing.executor_fixture.responses.flatMap((response, i) => {
      const first = replay.call(fn(response.route_id), right[i], "all", i);
      return first.outcome === "observation"
        ? [first.error_code]
        : [first.error_code, replay.call(fn(response.route_id), right[i], "all", i).outcome];
    });
    expect(outcomes).toEqual([null, "upstream_timeout", "observation", null]);
  });

  it("takes independent responses in either order and keeps at most one call per response returned", () => {
    const replay = new SessionReplay(COMPARE_TASK, endpoints);
    // materials.history requires the property as well; the fixture's rule is on material_id only.
    expect(world.endpoints.get("materials.history")?.parameters.required).toEqual([
      "material_id",
      "property",
    ]);
    const calls = [
      ["materials__history", { material_id: "MAT-0007", property: "yield_strength_rp02" }],
      ["papers__search", { query: "yield" }],
      ["materials__current", { material_id: "MAT-7" }],
    ] as const;
    const outcomes = [];
    for (let turn = 0; turn < 30; turn++) {
      const [name, args] = calls[turn % 3]!;
      outcomes.push(replay.call(name, args, "all", turn).outcome);
    }
    expect(outcomes.slice(0, 3)).toEqual(["observation", "unmatched", "observation"]);
    expect((replay as unknown as { kept: unknown[] }).kept).toHaveLength(2);
  });

  it("carries the state a response revealed into a later call", () => {
    const replay = new SessionReplay(SEARCH_TASK, endpoints);
    const before = replay.call("materials__current", { material_id: "MAT-0718" }, "all", 1);
    replay.call("materials__search", { query: "Inconel 718" }, "all", 2);
    const after = replay.call("materials__current", { material_id: "MAT-0718" }, "all", 3);
    expect([before.outcome, after.outcome, after.response_id]).toEqual([
      "unmatched",
      "observation",
      "current",
    ]);
  });

  it("is refused at world creation when a fail-once code is also an executor code", () => {
    const clash: Task = {
      ...EXPORT_TASK,
      executor_fixture: {
        responses: EXPORT_TASK.executor_fixture.responses.map((r) => ({
          ...r,
          fail_once_error: "invalid_type",
        })),
      },
    };
    const built = createWorld({ catalog: world.catalog, tasks: [clash], router: world.router, version: "t" });
    expect(built.ok ? [] : built.problems.map((p) => p.code)).toEqual(["fail_once_code_clash"]);
  });

  it("is refused at world creation when a response's route is not in the catalog", () => {
    const away: Task = {
      ...EXPORT_TASK,
      executor_fixture: {
        responses: [{ ...EXPORT_TASK.executor_fixture.responses[0]!, route_id: "materials.teleport" }],
      },
    };
    const built = createWorld({ catalog: world.catalog, tasks: [away], router: world.router, version: "t" });
    expect(built.ok ? [] : built.problems.map((p) => p.code)).toEqual(["route_not_in_catalog"]);
  });
});
