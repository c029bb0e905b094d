import { describe, expect, it } from "vitest";
import { renderUserMessage } from "../../src/conditions/execution/index.ts";
import { COMPARE_TASK } from "../helpers/world-tasks.ts";

describe("the user message", () => {
  it("is the request, then the answer form: keys, kinds, units and descriptions, one line a field", () => {
    expect(renderUserMessage(COMPARE_TASK)).toBe(
      [
        "What is the yield strength of alloy MAT-7 now, and what was it in 2019? Give both in MPa, the change since 2019, which is higher, and whether today's value meets the 130 MPa minimum.",
        "",
        "Answer form: fill every field from the evidence the tools return; give each number in the unit shown.",
        "- yield_strength_current (number, unit MPa): today's yield strength",
        "- yield_strength_2019 (number, unit MPa): the yield strength in 2019",
        "- yield_strength_change (number, unit MPa, a difference): today's value minus the 2019 value",
        "- higher (text): which is higher: now or 2019",
        "- meets_minimum (boolean: true or false): whether today's value is at least 130 MPa",
      ].join("\n"),
    );
  });

  it("says how a list is compared and what it holds, and never shows a value", () => {
    const text = renderUserMessage({
      query: "  Which suppliers stock it?  ",
      answer_fields: [
        {
          key: "suppliers",
          kind: "list",
          item_kind: "identifier",
          ordered: false,
          description: "their ids",
          unit: null,
        },
        {
          key: "ranked",
          kind: "list",
          item_kind: "number",
          ordered: true,
          description: "prices, cheapest first",
          unit: "USD",
        },
        { key: "count", kind: "number", description: "how many", unit: null },
        { key: "lot", kind: "identifier", description: "the lot", unit: null },
      ],
    });
    expect(text.split("\n")).toEqual([
      "Which suppliers stock it?",
      "",
      "Answer form: fill every field from the evidence the tools return; give each number in the unit shown.",
      "- suppliers (list of identifier, any order): their ids",
      "- ranked (list of number, unit USD, in order): prices, cheapest first",
      "- count (number, no unit): how many",
      "- lot (identifier): the lot",
    ]);
  });

  it("shows a field's options after its description, spelled as given (#32)", () => {
    const text = renderUserMessage({
      query: "¿Está confirmada la reserva?",
      answer_fields: [
        {
          key: "estado",
          kind: "text",
          description: "estado de la reserva",
          unit: null,
          options: ["confirmed", "tentative", "cancelled"],
        },
        {
          key: "hazards",
          kind: "list",
          item_kind: "text",
          ordered: false,
          description: "Gefahrenklassen",
          unit: null,
          options: ["Flam. Liq. 2", "Acute Tox. 4, oral"],
        },
      ],
    });
    expect(text.split("\n").slice(3)).toEqual([
      "- estado (text): estado de la reserva — one of: confirmed, tentative, cancelled",
      '- hazards (list of text, any order): Gefahrenklassen — each one of: Flam. Liq. 2, "Acute Tox. 4, oral"',
    ]);
  });
});
