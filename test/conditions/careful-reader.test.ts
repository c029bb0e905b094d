/**
 * The careful reader: built without a task (structurally gold-free), its calls chosen from the
 * request and the tool definitions, its answer read from the replies — checked turn by turn on
 * hand-made conversations, and through the real loop and scorer on two hand-written tasks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  carefulReaderAgent,
  carefulReaderEpisode,
  type AgentTurnRequest,
} from "../../src/conditions/agents/index.ts";
import {
  renderTools,
  renderUserMessage,
  runEpisode,
  TurnTokenCounter,
} from "../../src/conditions/execution/index.ts";
import type { Message } from "../../src/providers/index.ts";
import { parseField } from "../../src/conditions/agents/reader-view.ts";
import { readerFacts } from "../../src/conditions/agents/reader-answer.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { scoreRecord } from "../../src/metrics/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { CALIBRATION_TASK, KSI_TASK } from "../helpers/probe-tasks.ts";

const TOKEN = "REQUEST_MORE_TOOLS";
const { catalogs } = bundled();
const endpoints = catalogs.find((c) => c.size === 100)!.catalog.endpoints;
const tools = (...routes: string[]) => renderTools(endpoints.filter((e) => routes.includes(e.route_id)));
let units: UnitConverter;
beforeAll(async () => {
  units = await loadUnitConverter();
});

const user = (query: string, fields: Parameters<typeof renderUserMessage>[0]["answer_fields"]): Message => ({
  role: "user",
  content: renderUserMessage({ query, answer_fields: fields }),
});

function request(messages: Message[], routes: string[], turn: number, maxTurns = 10): AgentTurnRequest {
  return {
    messages: [{ role: "system", content: "system" }, ...messages],
    tools: tools(...routes),
    turn,
    maxTurns,
  };
}

const STRENGTH = [
  { key: "yield_strength", kind: "number" as const, description: "approved yield strength", unit: "MPa" },
];

describe("the careful reader, turn by turn", () => {
  it("is built without a task and calls the route that takes the request's id", async () => {
    const episode = carefulReaderEpisode(TOKEN, units);
    const ask = user("What is the yield strength of alloy MAT-2201 in MPa?", STRENGTH);
    const first = await episode.turn(request([ask], ["materials.current", "materials.search"], 1));
    expect(first.toolCalls).toEqual([
      { id: "call_1", name: "materials__current", arguments: { material_id: "MAT-2201" } },
    ]);
  });

  it("answers from the current row, converted to the form's unit, citing the record", async () => {
    const episode = carefulReaderEpisode(TOKEN, units);
    const reply = {
      status: "ok",
      sources: [
        {
          source_id: "SRC-7",
          payload: {
            properties: [
              {
                property: "yield_strength",
                value: 40,
                unit: "ksi",
                status: "superseded",
                approved_at: "2020-01-01",
              },
              {
                property: "yield_strength",
                value: 50,
                unit: "ksi",
                status: "approved",
                approved_at: "2024-01-01",
              },
              {
                property: "density",
                value: 2.7,
                unit: "g/cm3",
                status: "approved",
                approved_at: "2024-01-01",
              },
            ],
          },
        },
      ],
    };
    const messages: Message[] = [
      user("What is the yield strength of alloy MAT-2201 in MPa?", STRENGTH),
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", name: "materials__current", arguments: { material_id: "MAT-2201" } }],
      },
      { role: "tool", tool_call_id: "call_1", name: "materials__current", content: JSON.stringify(reply) },
    ];
    // Only the route it already called fits: it answers.
    const answer = await episode.turn(request(messages, ["materials.current"], 2));
    expect(answer.toolCalls).toEqual([]);
    const envelope = JSON.parse(answer.text);
    // 50 ksi in MPa by the unit table, to twelve significant digits.
    expect(envelope.facts).toEqual([
      {
        key: "yield_strength",
        value: Number((units.convert(50, "ksi", "MPa") as number).toPrecision(12)),
        unit: "MPa",
        source_id: "SRC-7",
      },
    ]);
    expect(envelope.sources).toEqual(["SRC-7"]);
  });

  it("searches with the request's names when the request has no id", async () => {
    const episode = carefulReaderEpisode(TOKEN, units);
    const ask = user("What is the yield strength of the registered material Inconel 718 in MPa?", STRENGTH);
    const first = await episode.turn(request([ask], ["materials.current", "materials.search"], 1));
    // A search takes the request's run of names: "Inconel 718" ("in MPa" ends the run; the
    // sentence's first word is capitalised by grammar, not as a name).
    expect(first.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ["materials__search", { query: "Inconel 718" }],
    ]);
  });

  it("asks for more tools once when no shown tool fits, and answers on its last turn", async () => {
    const episode = carefulReaderEpisode(TOKEN, units);
    const ask = user("What is the yield strength of Inconel 718 in MPa?", STRENGTH);
    const first = await episode.turn(request([ask], ["bookings.create"], 1));
    expect(first).toEqual({ text: TOKEN, toolCalls: [] });
    const last = await episode.turn(request([ask], ["materials.search"], 10, 10));
    expect(last.toolCalls).toEqual([]);
    expect(JSON.parse(last.text)).toMatchObject({ facts: [], sources: [] });
  });

  it("never calls a destructive route the request does not name", async () => {
    const episode = carefulReaderEpisode(TOKEN, units);
    const ask = user("How much acetone is left in cabinet C-1232 (item ITM-1233)?", STRENGTH);
    const destructive = endpoints
      .filter((e) => e.destructive && e.tool === "inventory")
      .map((e) => e.route_id);
    const turn = await episode.turn(request([ask], destructive, 1));
    expect(turn.toolCalls).toEqual([]);
  });
});

describe("the careful reader's reading of the form", () => {
  it("reads a field's kind, unit and the options the line lists", () => {
    expect(
      parseField('- status (text): state of the booking — one of: confirmed, tentative, "on hold, pending"'),
    ).toEqual({
      key: "status",
      kind: "text",
      unit: null,
      difference: false,
      description: "state of the booking",
      options: ["confirmed", "tentative", "on hold, pending"],
    });
    // A unit holding parentheses ends at the first "):".
    expect(parseField("- k (number, unit mW/(m*K)): conductivity")).toMatchObject({
      unit: "mW/(m*K)",
      description: "conductivity",
    });
    expect(parseField("- margin (number, unit K, a difference): how far apart")).toMatchObject({
      kind: "number",
      unit: "K",
      difference: true,
      options: [],
    });
  });
});

describe("the careful reader through the loop", () => {
  it("reads a ksi record into MPa and the current calibration row, ignoring the task it is handed", async () => {
    const agent = carefulReaderAgent(TOKEN, units);
    const settings = {
      maxTurns: 10,
      maxToolCallsPerTurn: 1,
      systemPrompt: "system",
      incompleteMessage: "x",
      requestMoreTools: TOKEN,
    };
    const recalls: number[] = [];
    for (const task of [KSI_TASK, CALIBRATION_TASK]) {
      const outcome = await runEpisode(
        { task, endpoints, catalogSize: 100, stages: [task.required_routes] },
        agent.startEpisode(task),
        settings,
        new TurnTokenCounter({ name: "none", count: () => 0 }),
      );
      const row = scoreRecord(
        {
          ...outcome,
          semantic_task_id: task.semantic_task_id,
          catalog_size: 100,
          condition: "ORACLE",
          trial: 1,
        },
        task,
        units,
      );
      recalls.push(row.metrics["required_fact_recall"] as number);
    }
    expect(recalls).toEqual([1, 1]);
  });
});

describe("the careful reader's reading of rows, tables and arithmetic", () => {
  const field = (line: string) => parseField(line)!;

  it("reads the row the request's quantity names, and the identifier from that row", () => {
    const fields = [
      field("- hdt (number, unit degC): Approved heat deflection temperature under the 264 psi load"),
      field("- test_record_id (identifier): ID of the test record the approved value comes from"),
    ];
    const record = {
      sourceId: "SRC-1",
      order: 0,
      payload: {
        properties: [
          {
            property: "Heat deflection temperature, 0.45 MPa",
            value: 211.9,
            unit: "degC",
            record_id: "TR-1",
          },
          {
            property: "Heat deflection temperature, 1.82 MPa",
            value: 203.6,
            unit: "degC",
            record_id: "TR-2",
          },
        ],
      },
    };
    // 264 psi is 1.820 MPa: the second row.
    expect(readerFacts(fields, [record], "What HDT at 264 psi?", units)).toEqual([
      { key: "hdt", value: 203.6, unit: "degC", source_id: "SRC-1" },
      { key: "test_record_id", value: "TR-2", unit: null, source_id: "SRC-1" },
    ]);
  });

  it("reads a table's cell by its column and row, and computes the difference and the compliance the form asks", () => {
    const fields = [
      field("- measured_strength (number, unit MPa): NbMoTaW compressive yield strength at 1473 K"),
      field("- minimum_strength (number, unit MPa): Minimum strength the specification sets"),
      field("- strength_margin (number, unit MPa, a difference): measured minus minimum"),
      field("- meets_minimum (boolean: true or false): Whether the strength meets the minimum"),
    ];
    const table = {
      sourceId: "TAB-1",
      order: 0,
      payload: {
        tables: [
          {
            caption: "compressive yield strength",
            columns: [
              { name: "Test temperature", unit: "K" },
              { name: "NbMoTaW", unit: "MPa" },
            ],
            rows: [
              [1273, 548],
              [1473, 506],
            ],
          },
        ],
      },
    };
    const spec = {
      sourceId: "SPEC-1",
      order: 1,
      payload: { limits: [{ property: "strength", min: 500, unit: "MPa" }] },
    };
    const facts = readerFacts(
      fields,
      [table, spec],
      "Compare NbMoTaW at 1473 K with the specification.",
      units,
    );
    expect(facts).toEqual([
      { key: "measured_strength", value: 506, unit: "MPa", source_id: "TAB-1" },
      { key: "minimum_strength", value: 500, unit: "MPa", source_id: "SPEC-1" },
      // 506 − 500, cited from the first value's record; 506 ≥ 500.
      { key: "strength_margin", value: 6, unit: "MPa", source_id: "TAB-1" },
      { key: "meets_minimum", value: true, unit: null, source_id: "TAB-1" },
    ]);
  });
});
