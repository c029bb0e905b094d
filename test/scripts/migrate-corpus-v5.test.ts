/**
 * The corpus migration (scripts/migrate-corpus-v5.ts) on a small v1 task written here: where each
 * value ends up, what the hard-negative twin answers, and that the content checker accepts the
 * result. The script is historical: it moved the #26 corpus onto the catalog of its day, so it is
 * run here on that catalog's routes (written out below), not on the bundled one. The bundled corpus
 * itself is checked in test/authoring/bundled-corpus.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONTENT_RULES, type CheckContext } from "../../src/authoring/index.ts";
import { checkContext } from "../../src/world/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { migrateTask, withNumbersMoved, words, wrongNumber } from "../../scripts/migrate-corpus-v5.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol, catalogs } = bundled();
let context: CheckContext;
let units: UnitConverter;
beforeAll(async () => {
  context = await checkContext({ protocol, catalogs });
  units = await loadUnitConverter();
});

const V1_TASK = {
  semantic_task_id: "v4-distractor_or_contradiction_resistance-en-01",
  answer_task_stratum: "distractor_or_contradiction_resistance",
  language: "en",
  query: "Find the Ti-6Al-4V ELI bar in the registry and tell me its current yield strength.",
  required_routes: ["materials.search", "materials.current"],
  executor_fixture: {
    steps: [
      {
        route_id: "materials.search",
        argument_rules: {},
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "MATIDX-1",
              payload: {
                hits: [{ material_id: "MAT-9001-TI", score: 0.93 }],
                facts: { material_id: { value: "MAT-9001-TI", unit: null } },
              },
            },
          ],
        },
      },
      {
        route_id: "materials.current",
        argument_rules: { material_id: { state: "material_id" } },
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "MATDB-1",
              payload: {
                material_id: "MAT-9001-TI",
                method: "ASTM E8/E8M, 0.2% offset",
                superseded_value: { value: 880, unit: "MPa", reason: "extensometer slip" },
                facts: { yield_strength: { value: 912, unit: "MPa" } },
              },
            },
          ],
        },
      },
    ],
  },
  evidence_payloads: [] as unknown[],
  allowed_source_ids: ["MATIDX-1", "MATDB-1"],
  required_facts: [{ key: "yield_strength", value: 912, unit: "MPa", source_id: "MATDB-1" }],
  forbidden_facts: [{ key: "yield_strength", value: 880, unit: "MPa" }],
  numeric_tolerances: { yield_strength: { relative: 0.005 } },
  accepted_units: { yield_strength: ["MPa", "GPa"] },
  mandatory_answer_fields: ["yield_strength"],
  corrective_contract: null,
};
V1_TASK.evidence_payloads = V1_TASK.executor_fixture.steps.flatMap(
  (s) => structuredClone(s.observation.sources) as unknown[],
);

/**
 * The parameters of the routes the migration ran against (the #26 catalog, which #27 replaced):
 * the v1 task's two routes and the twins HARD_NEGATIVE_TWINS gives materials.current. The bundled
 * catalog no longer holds most of them, and the script makes no twin on a route its catalog lacks.
 */
const MIGRATION_ROUTES: ReadonlyArray<[string, string[]]> = [
  ["materials.search", ["query"]],
  ["materials.current", ["material_id", "property"]],
  ["materials_archive.current", ["material_id", "property"]],
  ["materials_v1.current", ["material_id"]],
  ["materials_nominal.lookup", ["material_id", "property"]],
  ["materials_sim.predict", ["material_id", "property"]],
  ["materials_eu.current", ["material_id", "property"]],
  ["materials_shear.current", ["material_id"]],
];
const parameters = () => new Map(MIGRATION_ROUTES.map(([route, names]) => [route, new Set(names)]));

describe("migrateTask", () => {
  it("moves the value into a row beside the superseded one, points the facts at them and reveals the id", () => {
    const task = migrateTask(structuredClone(V1_TASK) as never, { units, parameters: parameters() });
    const [search, current] = task.executor_fixture.responses;
    expect(search).toMatchObject({
      id: "r1",
      required: true,
      reveals: { material_id: "/sources/0/payload/hits/0/material_id" },
    });
    expect(current!.observation.sources[0]!.payload).toEqual({
      material_id: "MAT-9001-TI",
      method: "ASTM E8/E8M, 0.2% offset",
      measurements: [
        { property: "yield strength", value: 912, unit: "MPa", status: "current" },
        {
          property: "yield strength",
          value: 880,
          unit: "MPa",
          status: "superseded",
          reason: "extensometer slip",
        },
      ],
    });
    expect(task.required_facts[0]!.evidence).toEqual({
      source_id: "MATDB-1",
      pointer: "/measurements/0/value",
      unit_pointer: "/measurements/0/unit",
    });
    expect(task.forbidden_facts[0]).toEqual({
      key: "yield_strength",
      value: 880,
      unit: "MPa",
      source_id: "MATDB-1",
      evidence: {
        source_id: "MATDB-1",
        pointer: "/measurements/1/value",
        unit_pointer: "/measurements/1/unit",
      },
    });
    expect(task.answer_fields).toEqual([
      {
        key: "yield_strength",
        kind: "number",
        description: "0.2% offset yield strength currently on record",
        unit: "MPa",
      },
    ]);
  });

  it("answers the current route's hard-negative twins with offset wrong values a forbidden fact names", () => {
    const task = migrateTask(structuredClone(V1_TASK) as never, { units, parameters: parameters() });
    const archive = task.executor_fixture.responses.find((r) => r.route_id === "materials_archive.current")!;
    // The same identifier rule as the response it imitates, so a natural call matches it.
    expect(archive).toMatchObject({
      required: false,
      argument_rules: { material_id: { state: "material_id" } },
    });
    // 912 MPa × 0.93 = 848.16, written as the gold is: 848.
    expect(archive.observation.sources[0]!.payload["archived_values"]).toEqual([
      { property: "yield strength", value: 848, unit: "MPa" },
    ]);
    expect(
      task.forbidden_facts.find((f) => f.source_id === archive.observation.sources[0]!.source_id),
    ).toMatchObject({
      value: 848,
      evidence: { pointer: "/archived_values/0/value" },
    });
    // The twins of materials.current, and none for the search (its catalogue numbers carry no value).
    expect(task.executor_fixture.responses.map((r) => r.route_id)).toEqual([
      "materials.search",
      "materials.current",
      "materials_archive.current",
      "materials_nominal.lookup",
      "materials_sim.predict",
      "materials_eu.current",
      "materials_shear.current",
    ]);
  });

  it("gives a task every content rule accepts", () => {
    const task = migrateTask(structuredClone(V1_TASK) as never, { units, parameters: parameters() });
    // Checked against the catalog the migration ran on: its routes and their parameters.
    const routes = new Set(MIGRATION_ROUTES.map(([route]) => route));
    const onItsCatalog = { ...context, routeIds: routes, anyRouteIds: routes, routeParameters: parameters() };
    expect(task.executor_fixture.responses).toHaveLength(7);
    expect(Object.values(CONTENT_RULES).flatMap((rule) => rule(task, onItsCatalog))).toEqual([]);
  });

  it("moves numbers outside three times the tolerance, rounded as the gold is written", () => {
    expect(wrongNumber(128.4, 0.93, { relative: 0.005 }, "yield_strength")).toBe(119.4);
    // A zero offset: the relative move is nothing, so it moves by more than the tolerance band.
    expect(wrongNumber(0, 1.05, { absolute: 0.1 }, "zero_offset")).toBe(1);
    expect(wrongNumber(0.25, 0.97, { absolute: 0.05 }, "expanded_uncertainty")).toBe(0.09);
    expect(wrongNumber(2021, 0.9, { absolute: 0 }, "publication_year")).toBe(2020);
  });

  it("moves the measured figures of a sentence, never a name such as 316L", () => {
    expect(withNumbersMoved("reduced the elongation of as-built 316L by 38 % at 23 °C", 1.08)).toBe(
      "reduced the elongation of as-built 316L by 41 % at 25 °C",
    );
    expect(withNumbersMoved("no figures here, only SAC305", 1.08)).toBeNull();
  });

  it("writes quantities in words, without the record's qualifiers", () => {
    expect(words("current_thermal_conductivity")).toBe("thermal conductivity");
    expect(words("youngs_modulus")).toBe("Young's modulus");
    expect(words("yield_strength_previous")).toBe("yield strength");
  });
});
