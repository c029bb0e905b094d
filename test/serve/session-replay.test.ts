/**
 * A session keeps only the calls that moved its executor and replays them on each execute. Checked
 * against one live ReplayExecutor over random call sequences: every answer is the same, including a
 * fixture's fail-once error, state carried from earlier observations, and the destructive policy.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { ReplayExecutor, type Visible } from "../../src/conditions/execution/index.ts";
import { createWorld, SessionReplay } from "../../src/serve/index.ts";
import { testWorld } from "./helpers.ts";

const world = testWorld();
const endpoints = world.catalog.endpoints;
const fn = (route: string) => world.endpoints.get(route)?.function_name ?? route;

/** Arguments that satisfy each step's rules, taking state from the fixture's earlier observations. */
function rightArguments(task: Task): Record<string, unknown>[] {
  const state = new Map<string, unknown>();
  return task.executor_fixture.steps.map((step) => {
    const args: Record<string, unknown> = { ...world.tools.get(step.route_id)?.examples[0] };
    for (const [name, rule] of Object.entries(step.argument_rules)) {
      if ("eq" in rule) args[name] = rule.eq;
      else if ("nonempty" in rule) args[name] = "something";
      else if ("state" in rule) args[name] = state.get(rule.state);
      else args[name] = `about ${String(state.get(rule.contains_state))}`;
    }
    for (const source of step.observation.sources)
      for (const [key, fact] of Object.entries(source.payload.facts)) state.set(key, fact.value);
    return args;
  });
}

/** The corpus's longest tasks, one of them made to fail once on its second step. */
const long = [...world.taskByQuery.values()]
  .sort((a, b) => b.executor_fixture.steps.length - a.executor_fixture.steps.length)
  .slice(0, 4);
const failing: Task = {
  ...(long[0] as Task),
  executor_fixture: {
    steps: (long[0] as Task).executor_fixture.steps.map((s, i) =>
      i === 1 ? { ...s, fail_once_error: "upstream_timeout" } : s,
    ),
  },
};
const TASKS = [failing, ...long];

describe("SessionReplay", () => {
  it("answers every call exactly as one live executor would", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TASKS),
        fc.array(
          fc.record({
            // -1: the step the live executor expects next, so sequences walk deep into the task.
            step: fc.oneof(fc.constant(-1), fc.constant(-1), fc.nat({ max: 5 })),
            args: fc.constantFrom("right", "empty", "wrong"),
            route: fc.constantFrom("step", "step", "step", "materials.search", "inventory.delete"),
            hidden: fc.boolean(),
          }),
          { maxLength: 14 },
        ),
        (task, calls) => {
          const steps = task.executor_fixture.steps;
          const right = rightArguments(task);
          const live = new ReplayExecutor(task, endpoints);
          const replay = new SessionReplay(task, endpoints);
          calls.forEach((c, turn) => {
            const index = Math.min(c.step === -1 ? live.completedSteps : c.step, steps.length - 1);
            const route = c.route === "step" ? (steps[index]?.route_id ?? "") : c.route;
            const args =
              c.args === "right" ? right[index] : c.args === "empty" ? {} : { ...right[index], extra: 1 };
            const visible: Visible = c.hidden ? new Set([steps[0]?.route_id ?? ""]) : "all";
            const name = fn(route);
            expect(replay.call(name, args, visible, turn)).toEqual(
              live.call({ id: `call-${turn}`, name, arguments: args }, visible, turn, 0),
            );
          });
        },
      ),
      { seed: 18, numRuns: 400 },
    );
  });

  it("walks a whole task with its right arguments, failing once where the fixture says", () => {
    const replay = new SessionReplay(failing, endpoints);
    const right = rightArguments(failing);
    const outcomes = failing.executor_fixture.steps.flatMap((step, i) => {
      const first = replay.call(fn(step.route_id), right[i], "all", i);
      return first.outcome === "observation"
        ? [first.error_code]
        : [first.error_code, replay.call(fn(step.route_id), right[i], "all", i).outcome];
    });
    expect(outcomes.slice(0, 3)).toEqual([null, "upstream_timeout", "observation"]);
  });

  it("is refused at world creation when a fail-once code is also an executor code", () => {
    const clash: Task = {
      ...failing,
      executor_fixture: {
        steps: failing.executor_fixture.steps.map((s) => ({ ...s, fail_once_error: "invalid_type" })),
      },
    };
    const built = createWorld({ catalog: world.catalog, tasks: [clash], router: world.router, version: "t" });
    expect(built.ok ? [] : built.problems.map((p) => p.code)).toEqual(["fail_once_code_clash"]);
  });
});
