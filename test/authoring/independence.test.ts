import { describe, expect, it } from "vitest";
import { independenceProblems, maskQuery, type Task } from "../../src/authoring/index.ts";

/** Just what the independence rules read of a task. */
function task(
  id: string,
  stratum: string,
  query: string,
  facts: Array<[string, unknown]>,
  routes = ["materials.current"],
): Task {
  return {
    semantic_task_id: id,
    answer_task_stratum: stratum,
    query,
    required_routes: routes,
    required_facts: facts.map(([key, value]) => ({ key, value, unit: null, source_id: "S" })),
  } as unknown as Task;
}

describe("masking a query", () => {
  it("replaces numbers, identifiers, e-mail addresses and quoted names, and keeps the words", () => {
    expect(
      maskQuery(
        "[Case F20049] What is the modulus of MAT-H20049 at 23.5 °C? Ask ana@lab.example.org about «Alloy X».",
      ),
    ).toBe("[case ‹id› ] what is the modulus of ‹id› at ‹n› °c? ask ‹id› about ‹q› .");
    expect(maskQuery("소재 MAT-4471-TI의 밀도")).toBe("소재 ‹id› 의 밀도");
  });
});

describe("the independence rules", () => {
  it("flag one sentence with the case number and value changed (template_reuse)", () => {
    const problems = independenceProblems([
      task("a", "s", "[Case F20049] Compare the current Young's modulus of MAT-H20049 with its history.", [
        ["e", 1],
      ]),
      task("b", "s", "[Case F20050] Compare the current Young's modulus of MAT-H20050 with its history.", [
        ["e", 2],
      ]),
      task("c", "t", "[Case F20051] Compare the current Young's modulus of MAT-H20051 with its history.", [
        ["e", 3],
      ]),
    ]);
    expect(problems.map((p) => [p.code, p.index])).toEqual([
      ["template_reuse", 1],
      ["template_reuse", 2],
    ]);
  });

  it("flag near duplicates within a stratum only (3-gram Jaccard above 0.5)", () => {
    const near = [
      "What is the current density of material MAT-1 in the database?",
      "What is the current density of material MAT-2 in our database now?",
    ];
    const tasks = [
      task("a", "s", near[0]!, [["d", 1]]),
      task("b", "s", near[1]!, [["d", 2]]),
      task("c", "t", near[1]!.replace("now", "today"), [["d", 3]]),
    ];
    expect(independenceProblems(tasks).map((p) => [p.code, p.index])).toEqual([["near_duplicate_query", 1]]);
    // Different questions stay apart.
    expect(
      independenceProblems([
        task("a", "s", near[0]!, [["d", 1]]),
        task("b", "s", "Which DOI does the erratum of paper P-7 carry?", [["doi", "x"]]),
      ]),
    ).toEqual([]);
  });

  it("flag two tasks with the same routes, fact keys and values (duplicate_task_content)", () => {
    const problems = independenceProblems([
      task("a", "s", "How dense is the plate?", [["density", 2.7]]),
      task("b", "t", "Wie hoch ist die Dichte des Blechs?", [["density", 2.7]]),
      task("c", "t", "Et la densité de la tôle ?", [["density", 2.71]]),
    ]);
    expect(problems.map((p) => [p.code, p.index, p.message])).toEqual([
      ["duplicate_task_content", 1, "same required routes, fact keys and fact values as a"],
    ]);
  });
});
