/**
 * Hard negatives vary (#32 item 8): no hard-negative route answers with one payload structure (its
 * member paths, array positions folded) in more than 6 bundled tasks, so no convention can be
 * learned from repetition. (Before #32: papers_assist.summarize's one shape sat in 11 tasks.)
 */
import { describe, expect, it } from "vitest";
import { bundled } from "../helpers/bundled.ts";

const { corpus, catalogs } = bundled();
const roles = new Map(catalogs.flatMap((c) => c.catalog.endpoints).map((e) => [e.route_id, e.role]));

/** Every member path of a value, array positions folded to []: its structure, not its values. */
function paths(value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return value.length === 0 ? [`${at}[]`] : value.flatMap((v) => paths(v, `${at}/[]`));
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? [`${at}{}`] : entries.flatMap(([k, v]) => paths(v, `${at}/${k}`));
  }
  return [at];
}

describe("hard-negative conventions", () => {
  it("repeat one route's payload structure in at most 6 tasks", () => {
    const tasksBy = new Map<string, Set<string>>();
    for (const task of corpus.tasks)
      for (const response of task.executor_fixture.responses) {
        if (response.required || roles.get(response.route_id) !== "hard_negative") continue;
        const shape = `${response.route_id} ${[...new Set(paths(response.observation))].sort().join(",")}`;
        tasksBy.set(shape, (tasksBy.get(shape) ?? new Set()).add(task.semantic_task_id));
      }
    expect(tasksBy.size).toBeGreaterThan(100);
    const over = [...tasksBy]
      .filter(([, tasks]) => tasks.size > 6)
      .map(([shape, tasks]) => `${tasks.size} ${shape}`);
    expect(over).toEqual([]);
  });
});
