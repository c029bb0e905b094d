import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { ReplayExecutor, type Visible } from "../../src/conditions/execution/index.ts";
import { type ConditionManifest } from "../../src/conditions/routing/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { twoStepExportTask } from "../helpers/task.ts";

const { corpus, catalogs } = bundled();
const manifest = JSON.parse(readFileSync("manifests/condition-manifest.json", "utf8")) as ConditionManifest;
const endpoints = catalogs[0]!.catalog.endpoints;
const { task: exportTask, material: MAT, artifact: ART } = twoStepExportTask(corpus.tasks as Task[]);

const call = (name: string, args: unknown) => ({ id: "c", name, arguments: args });

function codeOf(task: Task, name: string, args: unknown, visible: Visible = "all", index = 0): string | null {
  return new ReplayExecutor(task, endpoints).call(call(name, args), visible, 1, index).error_code;
}

describe("the replay executor", () => {
  it.each([
    ["unknown_tool", "materials__teleport", { material_id: "x" }],
    ["unexpected_arguments", "materials__retrieve", { material_id: MAT, colour: "red" }],
    ["missing_required_argument", "materials__retrieve", {}],
    ["invalid_type", "materials__retrieve", { material_id: 42 }],
    ["invalid_type", "materials__retrieve", "material_id=MAT"],
    ["destructive_policy_block", "inventory__delete", { item_id: "I-1" }],
    ["invalid_task_arguments", "materials__retrieve", { material_id: "MAT-H1" }],
  ])("reports %s", (code, name, args) => {
    expect(codeOf(exportTask, name, args)).toBe(code);
  });

  it("reports unavailable_tool for a valid call to a route this condition hides", () => {
    expect(codeOf(exportTask, "materials__retrieve", { material_id: MAT }, new Set(["exports.export"]))).toBe(
      "unavailable_tool",
    );
  });

  it("reports parallel_tool_call_requires_observation for a second call in one turn", () => {
    expect(codeOf(exportTask, "materials__retrieve", { material_id: MAT }, "all", 1)).toBe(
      "parallel_tool_call_requires_observation",
    );
  });

  it("checks in the documented order: unknown, schema, visibility, destructive, parallel, rules", () => {
    expect(codeOf(exportTask, "materials__retrieve", { bogus: 1 }, new Set())).toBe("unexpected_arguments");
    expect(codeOf(exportTask, "inventory__delete", { item_id: "I-1" }, new Set())).toBe("unavailable_tool");
    expect(codeOf(exportTask, "inventory__delete", { item_id: "I-1" }, "all", 1)).toBe(
      "destructive_policy_block",
    );
    expect(codeOf(exportTask, "materials__retrieve", { material_id: "wrong" }, "all", 1)).toBe(
      "parallel_tool_call_requires_observation",
    );
  });

  it("fires a fixture's fail-once error once, then returns the observation", () => {
    const task = structuredClone(exportTask);
    task.executor_fixture.steps[0]!.fail_once_error = "upstream_timeout";
    const executor = new ReplayExecutor(task, endpoints);
    const args = { material_id: MAT };
    expect(executor.call(call("materials__retrieve", args), "all", 1, 0).error_code).toBe("upstream_timeout");
    const second = executor.call(call("materials__retrieve", args), "all", 2, 0);
    expect([second.outcome, second.step]).toEqual(["observation", 0]);
  });

  it("uses earlier observations for state rules and advances step by step", () => {
    const executor = new ReplayExecutor(exportTask, endpoints);
    expect(executor.call(call("exports__export", { artifact_id: ART }), "all", 1, 0).outcome).toBe("neutral");
    executor.call(call("materials__retrieve", { material_id: MAT }), "all", 1, 0);
    expect(executor.call(call("exports__export", { artifact_id: "ART-OTHER" }), "all", 2, 0).error_code).toBe(
      "invalid_task_arguments",
    );
    const done = executor.call(call("exports__export", { artifact_id: ART }), "all", 3, 0);
    expect([done.outcome, done.step, executor.complete]).toEqual(["observation", 1, true]);
  });

  it("answers a visible, valid call that is not the expected step with a neutral observation", () => {
    const attempt = new ReplayExecutor(exportTask, endpoints).call(
      call("papers__search", { query: "modulus" }),
      "all",
      1,
      0,
    );
    expect(attempt.outcome).toBe("neutral");
    expect(attempt.observation).toEqual({
      status: "executed",
      note: "The call ran, but it did not advance this task.",
    });
  });

  it("gives every condition identical observations for identical calls", () => {
    // Under each of the five conditions (its widest stage, as frozen in the bundled manifest, with
    // the task's own routes added so every call is visible), the same calls — a wrong argument, a
    // no-op, the two steps, a repeat — get the same observations.
    const entry = manifest.entries.find(
      (e) => e.semantic_task_id === exportTask.semantic_task_id && e.catalog_size === 100,
    )!;
    const calls = [
      call("materials__retrieve", { material_id: "wrong" }),
      call("materials__retrieve", { material_id: MAT }),
      call("exports__export", { artifact_id: ART }),
      call("exports__export", { artifact_id: ART }),
    ];
    const seen = Object.entries(entry.conditions).map(([condition, { stages }]) => {
      const stage = stages.at(-1)!;
      const visible: Visible = stage === "all" ? "all" : new Set([...stage, ...exportTask.required_routes]);
      const executor = new ReplayExecutor(exportTask, endpoints);
      return [
        condition,
        JSON.stringify(calls.map((c, turn) => executor.call(c, visible, turn + 1, 0).observation)),
      ];
    });
    expect(seen.map(([c]) => c)).toEqual(["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"]);
    expect(new Set(seen.map(([, o]) => o)).size).toBe(1);
  });
});
