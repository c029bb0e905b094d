/**
 * A consistent world (#32, items 5 and 6, replay side): the replay knows the task's entities, an
 * unmatched write reports an id in the service's own format, and a unit parameter changes the
 * reply. Every expected value is computed by hand in the comments.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { renderTemplate } from "../../src/conditions/catalog/index.ts";
import { ReplayExecutor } from "../../src/conditions/execution/index.ts";
import { taskWorld } from "../../src/conditions/execution/entities.ts";
import {
  conversionPairs,
  convertValue,
  significantDigits,
} from "../../src/conditions/execution/unit-systems.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { envelopeText } from "../helpers/task.ts";
import { complete } from "../helpers/world-tasks.ts";

const { catalogs, corpus } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;

const CURRENT_PAYLOAD = {
  material_id: "MAT-2210-AL",
  unit_system: "as_recorded",
  properties: [
    {
      property: "yield strength",
      value: 462,
      unit: "MPa",
      test_temperature: 25,
      test_temperature_unit: "degC",
    },
    { property: "hardness", value: 120, unit: "HB", test_temperature: null },
  ],
};

const READINGS_PAYLOAD = {
  instrument_id: "INS-3301",
  unit: "degC",
  readings: [
    { t: "2026-03-01T00:00:00Z", value: 25 },
    { t: "2026-03-01T01:00:00Z", value: -40 },
  ],
};

/** materials.search lists two materials; only the first has a property record; a booking shows BK-6308. */
const TASK: Task = complete({
  semantic_task_id: "w-world",
  answer_task_stratum: "single_property_value_unit_provenance",
  language: "en",
  query: "What is the approved yield strength of MAT-2210-AL in ksi? Quote the record.",
  answer_fields: [{ key: "yield_strength", kind: "number", description: "the yield strength", unit: "ksi" }],
  executor_fixture: {
    responses: [
      {
        id: "search",
        route_id: "materials.search",
        argument_rules: { query: { terms: ["AlSi10Mg"] } },
        required: false,
        observation: {
          status: "ok",
          result: {
            query: "AlSi10Mg LPBF",
            materials: [
              { material_id: "MAT-2210-AL", name: "AlSi10Mg, LPBF", class: "metal_alloy", status: "active" },
              { material_id: "MAT-2211-AL", name: "AlSi10Mg, cast", class: "metal_alloy", status: "active" },
            ],
          },
          sources: [],
        },
      },
      {
        id: "current",
        route_id: "materials.current",
        argument_rules: { material_id: { eq: "MAT-2210-AL" } },
        required: true,
        observation: { status: "ok", sources: [{ source_id: "MATDB-PS-2210", payload: CURRENT_PAYLOAD }] },
      },
      {
        id: "readings",
        route_id: "instruments.readings",
        argument_rules: { instrument_id: { eq: "INS-3301" } },
        required: false,
        observation: { status: "ok", sources: [{ source_id: "TS-3301", payload: READINGS_PAYLOAD }] },
      },
      {
        id: "booking",
        route_id: "bookings.create",
        argument_rules: { resource_id: { eq: "RES-FURN-07" } },
        required: false,
        observation: { status: "ok", result: { booking_id: "BK-6308", status: "confirmed" }, sources: [] },
      },
    ],
  },
  required_facts: [
    {
      key: "yield_strength",
      value: 462,
      unit: "MPa",
      source_id: "MATDB-PS-2210",
      evidence: {
        source_id: "MATDB-PS-2210",
        pointer: "/properties/0/value",
        unit_pointer: "/properties/0/unit",
      },
    },
  ],
  forbidden_facts: [],
  numeric_tolerances: { yield_strength: { relative: 0.005 } },
  accepted_units: { yield_strength: ["ksi", "MPa"] },
  mandatory_answer_fields: ["yield_strength"],
});

const ask = (name: string, args: Record<string, unknown>, executor = new ReplayExecutor(TASK, endpoints)) =>
  executor.call({ id: "c", name, arguments: args }, "all", 1, 0);

describe("the task's entities", () => {
  it("are the id fields, *_ids items and id-shaped tokens of the query and observations, nothing else", () => {
    const ids = taskWorld(TASK).identifiers;
    expect([...ids].sort()).toEqual([
      "BK-6308",
      "INS-3301",
      "MAT-2210-AL",
      "MAT-2211-AL",
      "MATDB-PS-2210",
      "TS-3301",
    ]);
  });

  it("answer a record route about a material the search listed with that row, not 'not registered'", () => {
    const attempt = ask("materials__retrieve", { material_id: "MAT-2211-AL" });
    expect([attempt.outcome, attempt.observation]).toEqual([
      "unmatched",
      {
        status: "ok",
        result: {
          material: {
            material_id: "MAT-2211-AL",
            name: "AlSi10Mg, cast",
            class: "metal_alloy",
            status: "active",
          },
          artifacts: [],
          source_id: null,
        },
        sources: [],
      },
    ]);
  });

  it("answer a known material with no property record as existing and empty, and a known one's history empty", () => {
    expect(ask("materials__current", { material_id: "MAT-2211-AL" }).observation).toEqual({
      status: "ok",
      result: { properties: [], source_id: null },
      sources: [],
    });
    expect(
      ask("materials__history", { material_id: "MAT-2210-AL", property: "density" }).observation,
    ).toEqual({
      status: "ok",
      result: { material_id: "MAT-2210-AL", property: "density", revisions: [], next_page_token: null },
      sources: [],
    });
  });

  it("leave an id the task does not know not found, on a record route and on a history route", () => {
    const notFound = {
      status: "not_found",
      error: { error: { code: "MATERIAL_NOT_FOUND", message: "material 'MAT-2212-AL' is not registered" } },
    };
    expect(ask("materials__current", { material_id: "MAT-2212-AL" }).observation).toEqual(notFound);
    expect(
      ask("materials__history", { material_id: "MAT-2212-AL", property: "density" }).observation,
    ).toEqual(notFound);
  });
});

describe("a search's echo of its query", () => {
  it("is the query the call sent, not the one the fixture's author typed", () => {
    const attempt = ask("materials__search", { query: "alsi10mg cast" });
    expect([attempt.outcome, (attempt.observation["result"] as Record<string, unknown>)["query"]]).toEqual([
      "observation",
      "alsi10mg cast",
    ]);
  });
});

describe("the bundled corpus's world", () => {
  /** A schema-valid placeholder for a parameter: its first enum value, its minimum, a date, a text. */
  const placeholder = (schema: Record<string, unknown>): unknown =>
    Array.isArray(schema["enum"])
      ? schema["enum"][0]
      : schema["type"] === "integer" || schema["type"] === "number"
        ? (schema["minimum"] ?? 1)
        : schema["type"] === "boolean"
          ? true
          : schema["type"] === "array"
            ? []
            : schema["format"] === "date"
              ? "2026-01-01"
              : schema["format"] === "date-time"
                ? "2026-01-01T00:00:00Z"
                : "x";

  it("never denies an identifier a task's query names, on any read route keyed by an id", () => {
    const denied: string[] = [];
    for (const task of corpus.tasks)
      for (const id of taskWorld(task).identifiers)
        if (task.query.includes(id))
          for (const e of endpoints) {
            const key = e.parameters.required.find((n) => /_id$/.test(n));
            if (!e.read_only || key === undefined) continue;
            const args: Record<string, unknown> = Object.fromEntries(
              e.parameters.required.map((n) => [n, placeholder(e.parameters.properties[n] ?? {})]),
            );
            args[key] = id;
            const attempt = new ReplayExecutor(task, endpoints).call(
              { id: "c", name: e.function_name, arguments: args },
              "all",
              1,
              0,
            );
            if (attempt.observation["status"] === "not_found")
              denied.push(`${task.semantic_task_id} ${e.route_id} ${id}`);
          }
    expect(denied).toEqual([]);
  });
});

describe("an unmatched write's id", () => {
  it("has the format of the service's ids in the task (BK- and four digits) and is the same for the same call", () => {
    const args = { resource_id: "RES-SEM-02", start: "2026-03-02T09:00:00Z", end: "2026-03-02T11:00:00Z" };
    const first = ask("bookings__create", args).observation["result"] as Record<string, unknown>;
    const again = ask("bookings__create", { end: args.end, start: args.start, resource_id: args.resource_id })
      .observation["result"] as Record<string, unknown>;
    // The last four digits of sha256("bookings.create\n" + canonical arguments) read as a decimal number.
    const hash = createHash("sha256")
      .update(
        'bookings.create\n{"end":"2026-03-02T11:00:00Z","resource_id":"RES-SEM-02","start":"2026-03-02T09:00:00Z"}',
      )
      .digest("hex");
    const expected = `BK-${(BigInt(`0x${hash}`) % 10000n).toString().padStart(4, "0")}`;
    expect([first["booking_id"], again["booking_id"]]).toEqual([expected, expected]);
    expect(first["booking_id"]).toMatch(/^BK-\d{4}$/);
  });
});

describe("an id of the service's shape", () => {
  it("never repeats an id the world holds: a taken one gives way to the hash's digits before it", () => {
    const hash = createHash("sha256").update('bookings.create\n{"resource_id":"R-1"}').digest("hex");
    const digits = BigInt(`0x${hash}`).toString(10);
    const [last, before] = [digits.slice(-4), digits.slice(-8, -4)];
    const context = {
      routeId: "bookings.create",
      parameters: endpoints[0]!.parameters,
      args: { resource_id: "R-1" },
      idShape: "####",
    };
    expect(renderTemplate({ id: "BK-{@id}" }, context)).toEqual({ id: `BK-${last}` });
    expect(renderTemplate({ id: "BK-{@id}" }, { ...context, idTaken: (id: string) => id === last })).toEqual({
      id: `BK-${before}`,
    });
  });
});

describe("unit parameters", () => {
  it("convert readings to °F when asked (25 °C → 77 °F, −40 °C → −40 °F), with the shared unit", () => {
    const payload = ask("instruments__readings", { instrument_id: "INS-3301", temperature_unit: "degF" })
      .observation as { sources: Array<{ source_id: string; payload: unknown }> };
    expect(payload.sources).toEqual([
      {
        source_id: "TS-3301",
        payload: {
          instrument_id: "INS-3301",
          unit: "degF",
          readings: [
            { t: "2026-03-01T00:00:00Z", value: 77 },
            { t: "2026-03-01T01:00:00Z", value: -40 },
          ],
        },
      },
    ]);
    // In kelvin: 25 + 273.15 = 298.15 and −40 + 273.15 = 233.15, to the recorded 0 decimals + 1.
    const kelvin = ask("instruments__readings", { instrument_id: "INS-3301", temperature_unit: "K" })
      .observation as {
      sources: Array<{ payload: { readings: Array<{ value: number }> } }>;
    };
    expect(kelvin.sources[0]!.payload.readings.map((r) => r.value)).toEqual([298.2, 233.2]);
  });

  it("convert MPa to ksi under US_customary (462 MPa / 6.894757 = 67.007 → 67.01 ksi), temperatures too, and leave HB as recorded", () => {
    const observation = ask("materials__current", { material_id: "MAT-2210-AL", unit_system: "US_customary" })
      .observation as { sources: Array<{ source_id: string; payload: unknown }> };
    expect(observation.sources).toEqual([
      {
        source_id: "MATDB-PS-2210",
        payload: {
          material_id: "MAT-2210-AL",
          unit_system: "US_customary",
          properties: [
            // 25 °C = 77 °F; the record's own unit field follows.
            {
              property: "yield strength",
              value: 67.01,
              unit: "ksi",
              test_temperature: 77,
              test_temperature_unit: "degF",
            },
            { property: "hardness", value: 120, unit: "HB", test_temperature: null },
          ],
        },
      },
    ]);
  });

  it("return the recorded bytes when the call names no unit, or as_recorded, or a unit the values are in", () => {
    for (const args of [
      { material_id: "MAT-2210-AL" },
      { material_id: "MAT-2210-AL", unit_system: "as_recorded" },
      { material_id: "MAT-2210-AL", unit_system: "SI" },
    ]) {
      const observation = ask("materials__current", args).observation as {
        sources: Array<{ payload: unknown }>;
      };
      const payload = observation.sources[0]!.payload as Record<string, unknown>;
      expect({ ...payload, unit_system: "as_recorded" }).toEqual(CURRENT_PAYLOAD);
    }
    const plain = ask("materials__current", { material_id: "MAT-2210-AL" });
    expect(JSON.stringify(plain.observation)).toBe(
      JSON.stringify(TASK.executor_fixture.responses[1]!.observation),
    );
  });

  it("give the same call the same bytes, and leave the task's evidence payloads as recorded", () => {
    const args = { material_id: "MAT-2210-AL", unit_system: "US_customary" };
    expect(JSON.stringify(ask("materials__current", args).observation)).toBe(
      JSON.stringify(ask("materials__current", args).observation),
    );
    expect(TASK.evidence_payloads.find((p) => p.source_id === "MATDB-PS-2210")?.payload).toEqual(
      CURRENT_PAYLOAD,
    );
  });

  it("score an answer read from the converted reply right: 67.01 ksi citing the same record", async () => {
    const units = await loadUnitConverter();
    const text = envelopeText(
      [{ key: "yield_strength", value: 67.01, unit: "ksi", source_id: "MATDB-PS-2210" }],
      ["MATDB-PS-2210"],
    );
    const metrics = scoreEpisode(TASK, parseEnvelope(text), units).metrics;
    expect([metrics.required_fact_recall, metrics.unit_accuracy, metrics.provenance_accuracy]).toEqual([
      1, 1, 1,
    ]);
  });

  it("use factors that agree with the converter the scorer uses", async () => {
    const units = await loadUnitConverter();
    const pairs = conversionPairs();
    expect(pairs.length).toBeGreaterThan(20);
    for (const { from, to, factor } of pairs) {
      const reference = units.convert(1, from, to);
      expect(reference, `${from} → ${to}`).not.toBeNull();
      expect(factor / (reference as number), `${from} → ${to}`).toBeCloseTo(1, 9);
    }
    // Temperatures on their scales: 25 °C = 77 °F; 300 K = 80.33 °F → 80.3 (0 decimals + 1).
    expect(convertValue(25, "°C", { temperature: "°F" })).toEqual({ value: 77, unit: "degF" });
    expect(convertValue(300, "K", { system: "US" })).toEqual({ value: 80.3, unit: "degF" });
    expect(convertValue(77, "degF", { system: "SI" })).toEqual({ value: 25, unit: "degC" });
    expect(convertValue(5, "%", { system: "US" })).toBeNull();
    expect([significantDigits(211.9), significantDigits(2770), significantDigits(0.05)]).toEqual([4, 4, 1]);
  });
});
