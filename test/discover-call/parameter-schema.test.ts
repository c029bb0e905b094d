import { describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import { parameterizeRequest } from "../../src/discover-call/adapter-protocol.ts";
import {
  parameterResponseSchema,
  readParameterAnswer,
  requiredParameters,
  validateParameters,
} from "../../src/discover-call/parameter-schema.ts";
import { hasReference, REFERENCE_TASK, referenceHarness, referenceTrial } from "./fixtures/reference.ts";

/** The code, stage and message of what `run` throws. */
function failureOf(run: () => unknown): { stage: string; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof FabenchError)
      return { stage: error.stage, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a failure");
}

const params = (...list: unknown[]) => ({ tool_id: "t", params: list });
const schemaOf = (...list: unknown[]) =>
  (parameterResponseSchema(params(...list)) as { properties: { parameters: Record<string, unknown> } })
    .properties.parameters;

const VARIED_TOOL = {
  tool_id: "weather.forecast",
  params: [
    { name: "city", type: "string", required: true, description: "City name" },
    { name: "days", type: "INT", required: false, description: "Forecast days" },
    { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
    { name: "level", type: "integer", required: true, enum: [1, 2.5] },
    { name: "tags", type: "list", required: false, items: { type: "string", enum: ["a", "b"] } },
    { name: "raw", type: "map", required: false, description: "Opaque" },
    {
      name: "window",
      type: "object",
      required: false,
      properties: { from: { type: "string", required: true, description: "Start" }, to: { type: "string" } },
    },
  ],
};

describe("the strict parameter schema", () => {
  it("matches, byte for byte, what the reference harness generated for a varied tool", () => {
    // Printed by the reference's parameterResponseSchema(VARIED_TOOL) (harness.mjs, qveris-agent-toolkit
    // 5bd6f41) and pasted here, so this check runs even where the reference checkout is absent.
    const expected =
      '{"type":"object","additionalProperties":false,"required":["parameters"],"properties":{"parameters":{"type":"object","additionalProperties":false,"required":["city","days","units","level","tags","raw","window"],"properties":{"city":{"description":"City name","type":"string"},"days":{"description":"Forecast days Use null when this optional parameter is not needed.","type":["integer","null"]},"units":{"type":["string","null"],"enum":["metric","imperial",null]},"level":{"type":"number","enum":[1,2.5]},"tags":{"type":["array","null"],"items":{"type":"string","enum":["a","b"]}},"raw":{"description":"Opaque Use null when this optional parameter is not needed.","type":"null"},"window":{"type":["object","null"],"additionalProperties":false,"required":["from","to"],"properties":{"from":{"description":"Start","type":"string"},"to":{"type":["string","null"]}}}}}}}';
    expect(JSON.stringify(parameterResponseSchema(VARIED_TOOL))).toBe(expected);
  });

  it("lists every parameter as required and makes the optional ones nullable with a hint", () => {
    expect(
      schemaOf(
        { name: "city", type: "string", required: true, description: "City" },
        { name: "units", type: "string", required: false, description: "Units" },
        { name: "note", type: "string", required: false },
      ),
    ).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["city", "units", "note"],
      properties: {
        city: { description: "City", type: "string" },
        units: {
          description: "Units Use null when this optional parameter is not needed.",
          type: ["string", "null"],
        },
        note: { type: ["string", "null"] },
      },
    });
  });

  it("maps the type aliases, in any case", () => {
    const types = ["int", "float", "double", "bool", "STRING", "Number", "Integer", "BOOLEAN"].map(
      (type, i) =>
        (schemaOf({ name: `p${i}`, type, required: true }).properties as Record<string, unknown>)[`p${i}`],
    );
    expect(types).toEqual([
      { type: "integer" },
      { type: "number" },
      { type: "number" },
      { type: "boolean" },
      { type: "string" },
      { type: "number" },
      { type: "integer" },
      { type: "boolean" },
    ]);
  });

  it("types an enum from its members: number absorbs integer, optional adds null", () => {
    const properties = schemaOf(
      { name: "a", type: "string", required: true, enum: [1, 2] },
      { name: "b", type: "integer", required: true, enum: [1, 2.5] },
      { name: "c", type: "string", required: false, enum: ["x", 3] },
      { name: "d", type: "boolean", required: false, enum: [true] },
      { name: "e", type: "string", required: true, enum: [] },
    ).properties;
    expect(properties).toEqual({
      a: { type: "integer", enum: [1, 2] },
      b: { type: "number", enum: [1, 2.5] },
      c: { type: ["string", "integer", "null"], enum: ["x", 3, null] },
      d: { type: ["boolean", "null"], enum: [true, null] },
      e: { type: "string" },
    });
  });

  it("builds arrays from their items and objects from their properties, strictly and recursively", () => {
    const properties = schemaOf(
      { name: "ids", type: "array", required: true, items: { type: "int", required: false } },
      {
        name: "range",
        type: "object",
        required: true,
        properties: {
          from: { type: "string", required: true },
          step: { type: "object", properties: { size: { type: "number", required: true } } },
          odd: "not a definition",
        },
      },
    ).properties;
    expect(properties).toEqual({
      ids: { type: "array", items: { type: "integer" } },
      range: {
        type: "object",
        additionalProperties: false,
        required: ["from", "step", "odd"],
        properties: {
          from: { type: "string" },
          step: {
            type: ["object", "null"],
            additionalProperties: false,
            required: ["size"],
            properties: { size: { type: "number" } },
          },
          odd: { type: ["string", "null"] },
        },
      },
    });
  });

  it("lets an opaque optional array or object only be null", () => {
    expect(
      schemaOf(
        { name: "payload", type: "object", required: false, description: "Body" },
        { name: "items", type: "array", required: false },
        { name: "empty", type: "object", required: false, properties: {} },
      ).properties,
    ).toEqual({
      payload: { description: "Body Use null when this optional parameter is not needed.", type: "null" },
      items: { type: "null" },
      empty: { type: "null" },
    });
  });

  it("keeps a parameter named __proto__ as a parameter", () => {
    const schema = schemaOf({ name: "__proto__", type: "string", required: true });
    expect(Object.hasOwn(schema.properties as object, "__proto__")).toBe(true);
    expect(schema.required).toEqual(["__proto__"]);
  });

  it.each([
    [
      "an opaque required object",
      { name: "payload", type: "object", required: true },
      "Required object parameter payload has no property schema",
    ],
    [
      "an opaque required array",
      { name: "items", type: "array", required: true },
      "Required array parameter items has no item schema",
    ],
    ["a missing type", { name: "q", required: true }, "Parameter type is missing"],
    ["an unknown type", { name: "q", type: "date", required: true }, "Unsupported parameter type: date"],
    [
      "a type named after Object's prototype",
      { name: "q", type: "constructor", required: true },
      "Unsupported parameter type: constructor",
    ],
    [
      "a required flag that is not a boolean",
      { name: "q", type: "string", required: "true" },
      "Inspected tool contains invalid or duplicate parameter metadata",
    ],
    [
      "a missing required flag",
      { name: "q", type: "string" },
      "Inspected tool contains invalid or duplicate parameter metadata",
    ],
    [
      "an empty name",
      { name: " ", type: "string", required: true },
      "Inspected tool contains invalid or duplicate parameter metadata",
    ],
    [
      "an enum that is not a list",
      { name: "q", type: "string", required: true, enum: { unsafe: true } },
      "Parameter q has invalid enum metadata",
    ],
    [
      "an enum with an object member",
      { name: "q", type: "string", required: true, enum: ["a", {}] },
      "Parameter q has unsupported enum values",
    ],
    [
      "an item without a type",
      { name: "q", type: "array", required: false, items: {} },
      "Parameter type is missing",
    ],
  ])("refuses %s as unsupported_parameter_schema", (_, parameter, message) => {
    expect(failureOf(() => parameterResponseSchema(params(parameter)))).toEqual({
      stage: "parameterize",
      code: "unsupported_parameter_schema",
      message,
    });
  });

  it("refuses a repeated name", () => {
    expect(
      failureOf(() =>
        parameterResponseSchema(
          params(
            { name: "q", type: "string", required: true },
            { name: "q", type: "number", required: false },
          ),
        ),
      ).code,
    ).toBe("unsupported_parameter_schema");
  });
});

describe("required parameters and one_of_required", () => {
  it("lists required names, then each one-of group as a nested list without repeats", () => {
    const tool = {
      params: [
        { name: "city", type: "string", required: true },
        { name: "query", type: "string", required: false },
        { name: "url", type: "string", required: false },
      ],
      one_of_required: [["query", "url", "query"], ["city"]],
    };
    expect(requiredParameters(tool)).toEqual(["city", ["query", "url"], ["city"]]);
    expect(requiredParameters({ ...tool, one_of_required: ["query", "url"] })).toEqual([
      "city",
      ["query", "url"],
    ]);
    expect(requiredParameters({ ...tool, one_of_required: [] })).toEqual(["city"]);
    expect(requiredParameters({ ...tool, one_of_required: null })).toEqual(["city"]);
  });

  it.each([
    ["a name the tool does not declare", ["nowhere"]],
    ["an empty group", [[]]],
    ["a mix of names and groups", ["query", ["url"]]],
    ["an object", { query: true }],
  ])("refuses a one_of_required with %s", (_, oneOf) => {
    expect(
      failureOf(() =>
        requiredParameters({
          params: [{ name: "query", type: "string", required: false }],
          one_of_required: oneOf,
        }),
      ),
    ).toEqual({
      stage: "parameterize",
      code: "unsupported_parameter_schema",
      message: "Inspected tool contains invalid one_of_required metadata",
    });
  });
});

describe("reading and checking an answer", () => {
  const tool = {
    tool_id: "weather.forecast",
    params: [
      { name: "city", type: "string", required: true },
      { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
      { name: "days", type: "integer", required: false },
      { name: "tags", type: "array", required: false, items: { type: "string" } },
      {
        name: "window",
        type: "object",
        required: false,
        properties: { from: { type: "string", required: true }, to: { type: "string" } },
      },
      { name: "query", type: "string", required: false },
      { name: "url", type: "string", required: false },
    ],
    one_of_required: [["query", "url"]],
  };
  const check = (parameters: Record<string, unknown>) => () => validateParameters(tool, parameters);

  it("drops top-level nulls only", () => {
    expect(
      readParameterAnswer({ parameters: { city: "London", units: null, window: { from: "a", to: null } } }),
    ).toEqual({
      city: "London",
      window: { from: "a", to: null },
    });
  });

  it.each([[null], ["text"], [{}], [{ parameters: [] }], [{ parameters: null }], [[{ parameters: {} }]]])(
    "refuses %j as invalid_parameters",
    (answer) => {
      expect(failureOf(() => readParameterAnswer(answer))).toEqual({
        stage: "parameterize",
        code: "invalid_parameters",
        message: "Adapter did not return a parameters object",
      });
    },
  );

  it("accepts values that satisfy the inspected tool", () => {
    expect(
      check({ city: "London", units: "metric", days: 3, tags: ["a"], window: { from: "x" }, url: "u" }),
    ).not.toThrow();
  });

  it.each([
    [{ city: "London", query: "q", extra: 1 }, "Adapter returned unknown parameter extra"],
    [{ query: "q" }, "Adapter omitted required parameter city"],
    [{ city: "", query: "q" }, "Adapter omitted required parameter city"],
    [{ city: 5, query: "q" }, "Adapter returned an invalid string value"],
    [{ city: "London", units: "kelvin", query: "q" }, "Adapter returned a value outside the parameter enum"],
    [{ city: "London", days: 1.5, query: "q" }, "Adapter returned an invalid integer value"],
    [{ city: "London", tags: ["a", null], query: "q" }, "Adapter returned null for a required parameter"],
    [{ city: "London", window: {}, query: "q" }, "Adapter omitted a required nested parameter"],
    [
      { city: "London", window: { from: "a", at: 1 }, query: "q" },
      "Adapter returned an unknown nested parameter",
    ],
    [{ city: "London" }, "Adapter omitted one_of_required group query,url"],
    [{ city: "London", url: "" }, "Adapter omitted one_of_required group query,url"],
  ])("refuses %j as invalid_parameter_values", (parameters, message) => {
    expect(failureOf(check(parameters))).toEqual({
      stage: "parameterize",
      code: "invalid_parameter_values",
      message,
    });
  });

  it("looks parameter names up as data, never on Object's prototype", () => {
    const toolWithToString = { params: [{ name: "toString", type: "string", required: true }] };
    expect(failureOf(() => validateParameters(toolWithToString, {})).message).toBe(
      "Adapter omitted required parameter toString",
    );
    expect(failureOf(() => validateParameters({ params: [] }, JSON.parse('{"__proto__": 1}'))).message).toBe(
      "Adapter returned unknown parameter __proto__",
    );
  });
});

/** One trial as fabench runs its parameterize stage, reduced to the fields a record keeps. */
function fabenchTrial(tool: unknown, answer: unknown) {
  const record: { required_parameters: unknown; parameters: unknown; error?: unknown } = {
    required_parameters: [],
    parameters: null,
  };
  try {
    record.required_parameters = requiredParameters(tool);
    parameterizeRequest(REFERENCE_TASK, tool, { model: "model-a", trial: 1, taskSetSha256: "f".repeat(64) });
    record.parameters = readParameterAnswer(answer);
    validateParameters(tool, record.parameters as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof FabenchError)) throw error;
    record.error = { stage: error.stage, reason_code: error.code, message: error.message.slice(0, 500) };
  }
  return record;
}

/** Inspected tools from plain to hostile: every branch of §4 and of the reference's checks. */
const TOOLS: unknown[] = [
  VARIED_TOOL,
  params(),
  { tool_id: "t", params: [], one_of_required: [] },
  { tool_id: "t", params: "not a list" },
  { tool_id: "t" },
  params({ name: "q", type: "string", required: true, description: "" }),
  params({ name: "q", type: "string", required: false, description: 7 }),
  params({ name: "q", type: "string", required: false, enum: ["a", null] }),
  params({ name: "q", type: "string", required: true, enum: ["a", null] }),
  params({ name: "q", type: "number", required: false, enum: [1, 2, 3] }),
  params({ name: "q", type: "string", required: false, enum: [true, "yes", 1, 1.5] }),
  params({ name: "q", type: "string", required: true, enum: null }),
  params({ name: "q", type: "string", required: true, enum: [[1]] }),
  params({ name: "q", type: "unknown", required: true }),
  params({ name: "q", type: 5, required: true }),
  params({ name: "q", required: false, enum: ["a"] }),
  params({ name: "", type: "string", required: true }),
  params({ name: 7, type: "string", required: true }),
  params(null),
  params("q"),
  params({ name: "q", type: "string", required: true }, { name: "q", type: "string", required: true }),
  params({ name: "q", type: "string", required: 1 }),
  params(
    { name: "__proto__", type: "string", required: true },
    { name: "toString", type: "int", required: false },
  ),
  params({ name: "constructor", type: "map", required: false, properties: { a: { type: "bool" } } }),
  params({ name: "l", type: "list", required: true, items: { type: "list", items: { type: "double" } } }),
  params({ name: "l", type: "list", required: true, items: { type: "array" } }),
  params({ name: "l", type: "list", required: false, items: ["string"] }),
  params({
    name: "l",
    type: "array",
    required: false,
    items: { type: "object", properties: { x: { type: "int", required: true, description: "X" } } },
  }),
  params({ name: "l", type: "array", required: true, items: { type: "object" } }),
  params({ name: "o", type: "object", required: true, properties: [] }),
  params({
    name: "o",
    type: "object",
    required: true,
    properties: { a: { type: "object", required: true } },
  }),
  params({
    name: "o",
    type: "object",
    required: true,
    properties: { a: { type: "object", required: false } },
  }),
  params({
    name: "o",
    type: "object",
    required: true,
    properties: { a: null, b: 3, "": { type: "string" } },
  }),
  params({
    name: "o",
    type: "object",
    required: true,
    properties: { a: { type: "string", enum: ["x"], description: "A" } },
  }),
  params({
    name: "o",
    type: "MAP",
    required: false,
    description: "Opts",
    properties: { a: { type: "date" } },
  }),
  {
    tool_id: "t",
    params: [
      { name: "query", type: "string", required: false },
      { name: "url", type: "string", required: false },
    ],
    one_of_required: ["query", "url"],
  },
  {
    tool_id: "t",
    params: [{ name: "query", type: "string", required: false }],
    one_of_required: ["query", "nowhere"],
  },
  { tool_id: "t", params: [{ name: "query", type: "string", required: false }], one_of_required: "query" },
];

/** Answers to one tool, each failing (or passing) a different check. */
const ANSWER_TOOL = {
  tool_id: "weather.forecast",
  params: [
    { name: "city", type: "string", required: true },
    { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
    { name: "count", type: "int", required: false },
    { name: "ratio", type: "float", required: false },
    { name: "flag", type: "bool", required: false },
    { name: "tags", type: "list", required: false, items: { type: "string", enum: ["a", "b"] } },
    {
      name: "opts",
      type: "object",
      required: false,
      properties: { on: { type: "boolean", required: true }, label: { type: "string" }, odd: "x" },
    },
    { name: "blob", type: "object", required: false },
    { name: "query", type: "string", required: false },
    { name: "url", type: "string", required: false },
  ],
  one_of_required: [["query", "url"]],
};
const ANSWERS: unknown[] = [
  { parameters: { city: "London", query: "q" } },
  { parameters: { city: "London", query: "q", units: null, count: null, opts: null, blob: null } },
  {
    parameters: {
      city: "London",
      url: "u",
      units: "imperial",
      count: 2,
      ratio: 0.5,
      flag: false,
      tags: ["a", "b"],
    },
  },
  { parameters: { city: "London", query: "q", opts: { on: true, label: null } } },
  { parameters: { city: "London", query: "q", opts: { on: null } } },
  { parameters: { city: "London", query: "q", opts: { label: "x" } } },
  { parameters: { city: "London", query: "q", opts: { on: true, more: 1 } } },
  { parameters: { city: "London", query: "q", opts: { on: true, odd: "v" } } },
  { parameters: { city: "London", query: "q", opts: [] } },
  { parameters: { city: "London", query: "q", blob: { any: 1 } } },
  { parameters: { city: "London", query: "q", tags: ["c"] } },
  { parameters: { city: "London", query: "q", tags: "a" } },
  { parameters: { city: "London", query: "q", count: "2" } },
  { parameters: { city: "London", query: "q", ratio: 1 } },
  { parameters: { city: "London", query: "q", flag: "true" } },
  { parameters: { city: "London", query: "q", units: "Metric" } },
  { parameters: { city: null, query: "q" } },
  { parameters: { city: "", query: "q" } },
  { parameters: { city: "London", query: "" } },
  { parameters: { city: "London", unknown: 1, query: "q" } },
  { parameters: {} },
  { parameters: [] },
  { parameters: "city=London" },
  { params: { city: "London" } },
  null,
  [],
];

describe.skipIf(!hasReference)("the parameterize stage beside the reference harness", () => {
  it("generates the same schema bytes, or the same failure, for every inspected tool", async () => {
    const harness = await referenceHarness();
    for (const tool of TOOLS) {
      let theirs: unknown;
      try {
        theirs = JSON.stringify(harness.parameterResponseSchema(tool));
      } catch (error) {
        const e = error as { benchmarkStage?: string; benchmarkReason?: string; message: string };
        theirs = { stage: e.benchmarkStage, code: e.benchmarkReason, message: e.message };
      }
      let ours: unknown;
      try {
        ours = JSON.stringify(parameterResponseSchema(tool));
      } catch (error) {
        if (!(error instanceof FabenchError)) throw error;
        ours = { stage: error.stage, code: error.code, message: error.message };
      }
      expect({ tool, schema: ours }).toEqual({ tool, schema: theirs });
    }
  });

  it("records the same required names, parameters and error for every tool and answer", async () => {
    const harness = await referenceHarness();
    const cases = [
      ...TOOLS.map((tool) => ({ tool, answer: { parameters: {} } })),
      ...ANSWERS.map((answer) => ({ tool: ANSWER_TOOL, answer })),
    ];
    for (const { tool, answer } of cases) {
      if ((tool as { tool_id?: unknown }).tool_id === undefined) continue; // nothing to select
      const { record } = await referenceTrial(harness, tool, answer);
      const theirs = {
        required_parameters: (record["inspection"] as { required_parameters: unknown }).required_parameters,
        parameters: record["parameters"],
        ...(record["error"] === undefined ? {} : { error: record["error"] }),
      };
      expect({ tool, answer, record: fabenchTrial(tool, answer) }).toEqual({ tool, answer, record: theirs });
    }
  });
});
