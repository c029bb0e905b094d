/**
 * The bundled world answers like the APIs it imitates (#32 acceptance, on every bundled task): a
 * search whose query is about something else gets the route's empty result, never a fixture's hit
 * list; asking a readings route for °F returns °F. The task-level rules are tested on hand-made
 * tasks in world.test.ts and argument-rules.test.ts; this runs them over the real corpus.
 */
import { describe, expect, it } from "vitest";
import { ReplayExecutor } from "../../src/conditions/execution/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { catalogs, corpus } = bundled();
const endpoints = catalogs.find((c) => c.size === 250)!.catalog.endpoints;
const byRoute = new Map(endpoints.map((e) => [e.route_id, e]));
const UNRELATED = "zzz completely unrelated banana";

describe("the bundled replay", () => {
  it("answers a search about something else with the route's empty result, on every search route of every task", () => {
    let searches = 0;
    for (const task of corpus.tasks) {
      const routes = new Set(
        task.executor_fixture.responses
          .map((r) => r.route_id)
          .filter((r) => byRoute.get(r)?.endpoint === "search"),
      );
      for (const route of routes) {
        const endpoint = byRoute.get(route)!;
        const executor = new ReplayExecutor(task, endpoints);
        // A search route requires at most its query, so the call is valid with the query alone.
        expect(
          endpoint.parameters.required.every((p) => p === "query"),
          route,
        ).toBe(true);
        const attempt = executor.call(
          { id: "c1", name: endpoint.function_name, arguments: { query: UNRELATED } },
          "all",
          1,
          0,
        );
        searches += 1;
        expect(attempt.response_id, `${task.semantic_task_id} ${route}`).toBeNull();
        expect(attempt.outcome, `${task.semantic_task_id} ${route}`).toBe("unmatched");
        // No record comes back, and nothing the reply holds is a list with anything in it.
        expect(JSON.stringify(attempt.observation)).not.toMatch(/"source_id"/);
      }
    }
    // Papers, preprints, SDS, materials, standards, samples and suppliers searches across the corpus.
    expect(searches).toBeGreaterThan(50);
  });

  it("returns °F values when instruments.readings is asked for degF, and the recorded °C otherwise", () => {
    let converted = 0;
    for (const task of corpus.tasks)
      for (const response of task.executor_fixture.responses) {
        if (response.route_id !== "instruments.readings") continue;
        const text = JSON.stringify(response.observation);
        if (!/"degC"/.test(text)) continue;
        const endpoint = byRoute.get("instruments.readings")!;
        // The arguments the response's own rules name (ids and channels: eq / one_of / eq_text).
        const args: Record<string, unknown> = {};
        for (const [name, rule] of Object.entries(response.argument_rules)) {
          if ("eq" in rule) args[name] = rule.eq;
          else if ("one_of" in rule) args[name] = rule.one_of[0];
          else if ("eq_text" in rule) args[name] = rule.eq_text;
        }
        if (Object.keys(args).length !== Object.keys(response.argument_rules).length) continue;
        const call = (extra: Record<string, unknown>) =>
          new ReplayExecutor(task, endpoints).call(
            { id: "c1", name: endpoint.function_name, arguments: { ...args, ...extra } },
            "all",
            1,
            0,
          );
        const recorded = call({});
        const fahrenheit = call({ temperature_unit: "degF" });
        if (recorded.response_id !== response.id) continue;
        expect(recorded.observation).toEqual(response.observation);
        expect(fahrenheit.response_id).toBe(response.id);
        const out = JSON.stringify(fahrenheit.observation);
        expect(out, task.semantic_task_id).toMatch(/"degF"/);
        expect(out, task.semantic_task_id).not.toMatch(/"degC"/);
        converted += 1;
      }
    expect(converted).toBeGreaterThan(0);
  });
});
