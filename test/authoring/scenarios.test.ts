/** The scenario rules (#27): skeletons, entities and scored comparisons, each on a counterexample. */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { entitiesOf, scenarioProblems, skeletonOf } from "../../src/authoring/check/scenarios.ts";
import { makeTask } from "../helpers/task.ts";

const LANGUAGES = ["en", "ko", "es", "ja", "de", "mixed"];
/** A task of `stratum` in `language` whose required routes are `routes` and whose query names `ids`. */
function task(
  n: number,
  routes: string[],
  options: { language?: string; stratum?: string; ids?: string[] } = {},
): Task {
  return makeTask({
    semantic_task_id: `t-${n}`,
    language: options.language ?? LANGUAGES[n % 6]!,
    answer_task_stratum: options.stratum ?? "single_property_value_unit_provenance",
    required_routes: routes,
    query: `Question ${n} about ${(options.ids ?? [`MAT-${1000 + n}-X`]).join(" and ")}.`,
  });
}
const codes = (tasks: Task[]) => scenarioProblems(tasks).map((p) => p.code);

describe("skeletons", () => {
  it("are the stratum, the ordered tools of the required routes and the sorted kinds of the form", () => {
    const t = makeTask({
      required_routes: ["papers.search", "papers.retrieve", "materials.current"],
      answer_fields: [
        { key: "a", kind: "text", description: "a", unit: null },
        { key: "b", kind: "number", description: "b", unit: "MPa" },
      ],
    });
    expect(skeletonOf(t)).toBe(
      "single_property_value_unit_provenance | papers>papers>materials | number,text",
    );
  });

  it("may repeat in three tasks and two languages of a stratum, not more", () => {
    const same = ["materials.current"];
    const distinct = (n: number) => task(n, [`tool${n}.x`]);
    const filler = Array.from({ length: 12 }, (_, i) => distinct(100 + i));
    const three = [
      task(1, same, { language: "en" }),
      task(2, same, { language: "ko" }),
      task(3, same, { language: "ko" }),
    ];
    expect(codes([...three, ...filler])).toEqual([]);
    const fourth = task(4, same, { language: "en" });
    const over = scenarioProblems([...three, fourth, ...filler]);
    expect(over.map((p) => [p.code, p.index])).toEqual([["skeleton_overused", 3]]);
    expect(over[0]?.message).toContain("t-1, t-2, t-3, t-4");
    const thirdLanguage = task(5, same, { language: "de" });
    expect(codes([three[0]!, three[1]!, thirdLanguage, ...filler])).toEqual(["skeleton_across_languages"]);
    // Another stratum is another skeleton.
    expect(
      codes([three[0]!, three[1]!, task(6, same, { language: "de", stratum: "other" }), ...filler]),
    ).toEqual([]);
  });

  it("must be distinct in two thirds of the tasks", () => {
    const tasks = Array.from({ length: 9 }, (_, i) =>
      task(i, [`tool${i % 5}.x`], { language: LANGUAGES[i % 2] as string }),
    );
    // 5 distinct among 9: at least 6 are needed.
    expect(codes(tasks)).toEqual(["skeletons_too_few"]);
    expect(codes(tasks.slice(0, 7).concat(task(50, ["tool50.x"]), task(51, ["tool51.x"])))).toEqual([]);
  });
});

describe("entities", () => {
  it("are the identifiers of the query and of the eq and one_of rules", () => {
    const t = makeTask({
      query: "Is LOT-4291-B of MAT-1042-TI within ASTM E8 limits? Ti-6Al-4V, ISO 6892-1, its SHA-256.",
      executor_fixture: {
        responses: [
          {
            id: "r1",
            route_id: "inventory.item",
            argument_rules: { item_id: { eq: "INV-6017" }, site: { one_of: ["SITE-300", "SITE-301"] } },
            observation: { status: "ok", sources: [] },
            required: true,
          },
        ],
      },
    });
    expect([...entitiesOf(t)].sort()).toEqual([
      "INV-6017",
      "LOT-4291-B",
      "MAT-1042-TI",
      "SITE-300",
      "SITE-301",
    ]);
  });

  it("may not be named by two tasks", () => {
    const tasks = [
      task(1, ["a.x"], { ids: ["MAT-1042-TI"] }),
      task(2, ["b.x"], { ids: ["MAT-1043-TI"] }),
      task(3, ["c.x"], { ids: ["MAT-1042-TI", "P-2019-2443"] }),
    ];
    const problems = scenarioProblems(tasks);
    expect(problems.map((p) => [p.code, p.index, p.message])).toEqual([
      ["entity_reused", 2, "MAT-1042-TI is named by t-1 too"],
    ]);
  });
});

describe("scored comparisons", () => {
  const comparison = "multi_source_comparison";
  const derived = (n: number): Task => {
    const t = task(n, [`m${n}.x`], { stratum: comparison });
    return {
      ...t,
      required_facts: [
        ...t.required_facts,
        {
          key: "difference",
          value: 4,
          unit: "GPa",
          source_id: "SRC-A",
          evidence: {
            derived: "difference",
            inputs: [
              { source_id: "SRC-A", pointer: "/a" },
              { source_id: "SRC-B", pointer: "/b" },
            ],
          },
        },
      ],
    };
  };

  it("are needed in two thirds of the multi-source tasks", () => {
    const plain = (n: number) => task(n, [`m${n}.x`], { stratum: comparison });
    expect(codes([derived(1), derived(2), plain(3)])).toEqual([]);
    expect(codes([derived(1), plain(2), plain(3)])).toEqual(["derived_comparisons_too_few"]);
    // Other strata need none.
    expect(codes([task(1, ["a.x"]), task(2, ["b.x"])])).toEqual([]);
  });
});
