/** An endpoint's JSON Schema as the params list of DISCOVER-CALL.md §2, and its example call. */
import { describe, expect, it } from "vitest";
import { parameterResponseSchema, validateParameters } from "../../src/discover-call/parameter-schema.ts";
import { exampleCall, paramsOf } from "../../src/serve/index.ts";
import { testWorld } from "./helpers.ts";

describe("paramsOf", () => {
  it("keeps name, type, required and description, in the schema's order", () => {
    const params = paramsOf({
      properties: {
        query: { type: "string", description: "free-text search terms" },
        limit: { type: "integer", description: "maximum number of hits" },
      },
      required: ["query"],
    });
    expect(params).toEqual([
      { name: "query", required: true, type: "string", description: "free-text search terms" },
      { name: "limit", required: false, type: "integer", description: "maximum number of hits" },
    ]);
  });

  it("carries enum, array items and object properties, each property with its own required flag", () => {
    const [units, tags, filter] = paramsOf({
      properties: {
        units: { type: "string", enum: ["metric", "imperial"] },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        filter: {
          type: "object",
          properties: { country: { type: "string" }, limit: { type: "integer" } },
          required: ["country"],
        },
      },
      required: ["tags"],
    });
    expect(units).toEqual({ name: "units", required: false, type: "string", enum: ["metric", "imperial"] });
    expect(tags).toEqual({
      name: "tags",
      required: true,
      type: "array",
      items: { type: "string", enum: ["a", "b"] },
    });
    expect(filter).toEqual({
      name: "filter",
      required: false,
      type: "object",
      properties: {
        country: { type: "string", required: true },
        limit: { type: "integer", required: false },
      },
    });
  });

  it("reads a nullable type list and infers a missing type from enum, items or properties", () => {
    const params = paramsOf({
      properties: {
        a: { type: ["integer", "null"] },
        b: { enum: [1, 2.5] },
        c: { items: { type: "number" } },
        d: { properties: { x: { type: "boolean" } } },
      },
      required: [],
    });
    expect(params.map((p) => p.type)).toEqual(["integer", "number", "array", "object"]);
  });
});

describe("exampleCall", () => {
  it("fills every required param with a placeholder of its type, never a task's value", () => {
    const params = paramsOf({
      properties: {
        id: { type: "string" },
        n: { type: "integer" },
        on: { type: "boolean" },
        mode: { type: "string", enum: ["fast", "slow"] },
        ids: { type: "array", items: { type: "string" } },
        optional: { type: "string" },
      },
      required: ["id", "n", "on", "mode", "ids"],
    });
    expect(exampleCall(params)).toEqual({ id: "<id>", n: 1, on: true, mode: "fast", ids: ["<ids>"] });
    // With the schema, a placeholder its constraints accept: a date-time, a number within bounds.
    const bounded = {
      properties: {
        from: { type: "string", format: "date-time" },
        on: { type: "string", format: "date" },
        page_size: { type: "integer", minimum: 5, maximum: 50 },
      },
      required: ["from", "on", "page_size"],
    };
    expect(exampleCall(paramsOf(bounded), bounded)).toEqual({
      from: "2026-01-01T00:00:00Z",
      on: "2026-01-01",
      page_size: 5,
    });
  });
});

describe("every served endpoint", () => {
  it.each([100, 250])(
    "of catalog %i builds the client's strict schema, and its example passes the client's check",
    (size) => {
      const world = testWorld(size);
      expect(world.tools.size).toBe(size);
      for (const tool of world.tools.values()) {
        expect(() => parameterResponseSchema(tool)).not.toThrow();
        expect(() => validateParameters(tool, tool.examples[0] ?? {})).not.toThrow();
      }
    },
  );
});
