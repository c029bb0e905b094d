/**
 * When the user asks for a unit other than the record's, the form accepts only that unit (up to
 * spelling): otherwise an agent that never converts would pass unit accuracy.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONTENT_RULES, type CheckContext, type Task } from "../../src/authoring/index.ts";
import type { TaskRule } from "../../src/authoring/check/context.ts";
import { checkContext } from "../../src/world/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { makeTask } from "../helpers/task.ts";

const { protocol, catalogs } = bundled();
let context: CheckContext;
beforeAll(async () => {
  context = await checkContext({ protocol, catalogs });
});

/** A task whose record holds the modulus in `recordUnit`, asked in `asked`, accepting `accepted`. */
function task(recordUnit: string, asked: string, accepted: string[]): Task {
  return makeTask({
    answer_fields: [{ key: "youngs_modulus", kind: "number", description: "the modulus", unit: asked }],
    evidence_payloads: [{ source_id: "SRC-A", payload: { modulus: { value: 144, unit: recordUnit } } }],
    required_facts: [
      {
        key: "youngs_modulus",
        value: 144,
        unit: asked,
        source_id: "SRC-A",
        evidence: { source_id: "SRC-A", pointer: "/modulus/value", unit_pointer: "/modulus/unit" },
      },
    ],
    accepted_units: { youngs_modulus: accepted },
  });
}
const answerFields = (t: Task) => (CONTENT_RULES["answerFields"] as TaskRule)(t, context);
const codes = (t: Task) => answerFields(t).map((p) => p.code);

describe("accepted units when the user asks for another unit than the record's", () => {
  it("accepts only spellings of the asked unit", () => {
    expect(codes(task("MPa", "GPa", ["GPa"]))).toEqual([]);
    const beyond = answerFields(task("MPa", "GPa", ["GPa", "MPa"]));
    expect(beyond.map((p) => [p.code, p.message])).toEqual([
      [
        "accepted_units_beyond_request",
        "answer field youngs_modulus asks for GPa, a unit other than the record's MPa, so only spellings of GPa may be accepted; also accepted: [MPa]",
      ],
    ]);
  });

  it("leaves a field in the record's own unit free to accept convertible units", () => {
    expect(codes(task("GPa", "GPa", ["GPa", "MPa", "ksi"]))).toEqual([]);
    // A spelling of the record's unit is the record's unit.
    expect(codes(task("W/(m*K)", "W/(m·K)", ["W/(m·K)", "mW/(m·K)"]))).toEqual([]);
  });
});
