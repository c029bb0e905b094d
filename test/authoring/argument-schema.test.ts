/**
 * `corpus check` against the endpoints' own parameter schemas (#32 item 4): a rule whose literal the
 * schema forbids, a rule kind that does not fit the parameter, a date-time compared by spelling,
 * list reveals only for fits_slot, one rule family per route and parameter, a list's tolerance.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  argumentsProblem,
  CONTENT_RULES,
  type CheckContext,
  type Task,
  valueProblem,
} from "../../src/authoring/index.ts";
import { ruleFamilyProblems } from "../../src/authoring/check/rule-families.ts";
import { checkContext } from "../../src/world/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BOOKING_TASK } from "../helpers/booking-task.ts";
import { EXPORT_TASK, SEARCH_TASK } from "../helpers/world-tasks.ts";

const { protocol, catalogs } = bundled();
let context: CheckContext;
beforeAll(async () => {
  context = await checkContext({ protocol, catalogs });
});

/** A copy of a hand-written task, changed by `mutate`. */
function task(base: Task, mutate: (t: Task) => void = () => undefined): Task {
  const copy = structuredClone(base);
  mutate(copy);
  return copy;
}

const problems = (rule: string, t: Task) => CONTENT_RULES[rule]!(t, context).map((p) => [p.code, p.message]);

/** EXPORT_TASK's second response: exports.export {artifact_id: state artifact, format: eq csv}. */
const EXPORT = EXPORT_TASK;
const FORMATS = "csv, tsv, json, parquet, xlsx, hdf5, netcdf, npz, vtu, tiff, pdf";
/** BOOKING_TASK: availability reveals slot_start and slot_end; create rules start and end as instants. */
const BOOKING = BOOKING_TASK;

describe("argument_rule_violates_schema", () => {
  it("passes the export task as it is", () => {
    expect(problems("argumentRulesInSchema", task(EXPORT))).toEqual([]);
  });

  it("refuses eq: banana on an enum parameter, and each one_of item outside it", () => {
    const banana = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { eq: "banana" };
    });
    expect(problems("argumentRulesInSchema", banana)).toEqual([
      [
        "argument_rule_violates_schema",
        `response export (exports.export) rules format: eq "banana", which the schema refuses (format must be one of: ${FORMATS}); no valid call matches it`,
      ],
    ]);
    const oneOf = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { one_of: ["csv", "CSV", 3] };
    });
    expect(problems("argumentRulesInSchema", oneOf).map(([, m]) => m!.split(", which")[0])).toEqual([
      'response export (exports.export) rules format: one_of item "CSV"',
      "response export (exports.export) rules format: one_of item 3",
    ]);
  });

  it("refuses instant on a parameter that is not a date-time", () => {
    const instant = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { instant: "2026-03-03T10:00:00Z" };
    });
    expect(problems("argumentRulesInSchema", instant)).toEqual([
      [
        "argument_rule_violates_schema",
        "response export (exports.export) rules format: instant on format, which is not a date-time parameter; no valid call matches it",
      ],
    ]);
  });

  it("refuses an instant literal that names no instant, on a date-time parameter", () => {
    const bad = task(BOOKING, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["start"] = { instant: "2026-06-10 afternoon" };
    });
    expect(problems("argumentRulesInSchema", bad)).toEqual([
      [
        "argument_rule_violates_schema",
        'response create (bookings.create) rules start: instant "2026-06-10 afternoon", which the schema refuses (start must be an ISO 8601 date-time with a time zone (e.g. 2026-03-03T10:00:00Z)); no valid call matches it',
      ],
    ]);
  });

  it("refuses fits_slot whose end is not another date-time parameter", () => {
    const slot = (end: string) =>
      task(BOOKING, (t) => {
        t.executor_fixture.responses[1]!.argument_rules["start"] = {
          fits_slot: { slots: "slot_start", end, min_minutes: 60 },
        };
      });
    expect(problems("argumentRulesInSchema", slot("end"))).toEqual([]);
    expect(problems("argumentRulesInSchema", slot("purpose"))).toEqual([
      [
        "argument_rule_violates_schema",
        "response create (bookings.create) rules start: fits_slot on start names end purpose, which is not another date-time parameter of the endpoint; no valid call matches it",
      ],
    ]);
  });

  it("flags a date-time compared by its spelling, and accepts state as: instant", () => {
    expect(problems("argumentRulesInSchema", task(BOOKING))).toEqual([]);
    const spelled = task(BOOKING, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["start"] = { state: "slot_start" };
      t.executor_fixture.responses[1]!.argument_rules["end"] = { eq: "2026-03-03T12:00:00Z" };
    });
    expect(problems("argumentRulesInSchema", spelled)).toEqual(
      ["start, a date-time, by its spelling (state)", "end, a date-time, by its spelling (eq)"].map(
        (what) => [
          "date_time_rule_not_instant",
          `response create (bookings.create) rules ${what}: another spelling of the same instant would miss; use instant, state … as: instant or fits_slot`,
        ],
      ),
    );
  });
});

describe("reveals: a list only for a fits_slot rule's slots", () => {
  /** The availability response reveals its whole free_slots list (one slot, 10:00Z to 12:00Z). */
  const slots = (rule: boolean, pointer = "/sources/0/payload/free_slots") =>
    task(BOOKING, (t) => {
      const [availability, create] = t.executor_fixture.responses;
      availability!.reveals = { free_slots: pointer };
      create!.argument_rules = rule
        ? { resource_id: { eq: "RES-SEM-02" }, start: { fits_slot: { slots: "free_slots", end: "end" } } }
        : { resource_id: { eq: "RES-SEM-02" }, start: { state: "free_slots", as: "instant" } };
    });

  it("accepts a list of {start, end} date-times that a fits_slot rule books inside", () => {
    expect(problems("reveals", slots(true))).toEqual([]);
  });

  it("refuses a list no fits_slot rule names", () => {
    expect(problems("reveals", slots(false))).toEqual([
      [
        "pointer_unresolved",
        'response availability reveals free_slots at /sources/0/payload/free_slots, which holds [{"end":"2026-03-03T12:00:00Z","start":"2026-03-03T10:00:00Z"}], not an id (a list is revealed only for a fits_slot rule\'s slots)',
      ],
    ]);
  });

  it("refuses slots that are not a list of {start, end} date-times", () => {
    expect(problems("reveals", slots(true, "/sources/0/payload/resource_id"))).toEqual([
      [
        "fits_slot_slots_invalid",
        'response availability reveals free_slots at /sources/0/payload/resource_id, which holds "RES-SEM-02", not a list of {start, end} date-times a fits_slot rule can book inside',
      ],
    ]);
  });
});

describe("rule_family_mismatch", () => {
  it("reports the task whose rules for a route's parameter leave the family most tasks use", () => {
    // exports.export's format: eq csv in two tasks (identifier), eq_text CSV in the third (text).
    const tasks = [
      task(EXPORT),
      task(EXPORT),
      task(EXPORT, (t) => {
        t.executor_fixture.responses[1]!.argument_rules["format"] = { eq_text: "CSV" };
      }),
    ];
    expect(ruleFamilyProblems(tasks)).toEqual([
      {
        code: "rule_family_mismatch",
        index: 2,
        message:
          "exports.export format: a rule of the text family (eq_text, nonempty, contains_state) where 2 of the 3 tasks that rule it use the identifier family (eq, one_of, state)",
      },
    ]);
    expect(ruleFamilyProblems(tasks.slice(0, 2))).toEqual([]);
    // One task each: a tie, which goes to the family first in order (identifier).
    expect(
      ruleFamilyProblems([tasks[2]!, tasks[0]!]).map((p) => [
        p.index,
        p.message.endsWith("(a tie, broken in family order)"),
      ]),
    ).toEqual([[0, true]]);
  });
});

describe("a list of numbers takes a tolerance, applied to each item", () => {
  /** SEARCH_TASK's one number fact, the solidus in K (±0.5 K), and a list of numbers beside it. */
  const listed = (tolerance: boolean) =>
    task(SEARCH_TASK, (t) => {
      const fact = t.required_facts[0]!;
      t.answer_fields.push({
        key: "readings",
        kind: "list",
        item_kind: "number",
        description: "r",
        unit: "K",
      });
      t.required_facts.push({ ...structuredClone(fact), key: "readings", value: [1533.15, 1534.15] });
      if (tolerance) t.numeric_tolerances["readings"] = { absolute: 0.5 };
    });

  it("requires one, as for a number", () => {
    expect(problems("tolerances", listed(true))).toEqual([]);
    expect(problems("tolerances", listed(false))).toEqual([
      [
        "tolerance_keys_mismatch",
        "numeric_tolerances has keys [solidus] but the numeric required facts are [solidus, readings]",
      ],
    ]);
  });
});

describe("the parameter validator the executor and the checker share", () => {
  const schema = {
    type: "object",
    properties: {
      lot_id: { type: "string", pattern: "^LOT-[0-9]+$" },
      note: { type: "string", maxLength: 5 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      tags: { type: "array", items: { type: "string" }, maxItems: 2 },
      contact: { type: "string", format: "email" },
      link: { type: "string", format: "uri" },
      day: { type: "string", format: "date" },
    },
    required: ["lot_id"],
    additionalProperties: false,
  };
  it.each([
    [{ lot_id: "lot 7" }, "invalid_format", "lot_id must match the pattern ^LOT-[0-9]+$"],
    [
      { lot_id: "LOT-7", note: "too long" },
      "invalid_argument_value",
      "note must be at most 5 character(s) long",
    ],
    [{ lot_id: "LOT-7", ratio: 0 }, "invalid_argument_value", "ratio must be > 0"],
    [{ lot_id: "LOT-7", ratio: 1 }, "invalid_argument_value", "ratio must be < 1"],
    [{ lot_id: "LOT-7", tags: ["a", 2] }, "invalid_type", "tags[1] must be string"],
    [
      { lot_id: "LOT-7", tags: ["a", "b", "c"] },
      "invalid_argument_value",
      "tags must list at most 2 item(s)",
    ],
    [{ lot_id: "LOT-7", contact: "someone" }, "invalid_format", "contact must be an email address"],
    [{ lot_id: "LOT-7", link: "not a uri" }, "invalid_format", "link must be a URI"],
    [{ lot_id: "LOT-7", day: "2026-02-30" }, "invalid_format", "day must be a date (YYYY-MM-DD)"],
    // The first problem in the schema's order of parameters, whatever the arguments' order.
    [{ day: "x", lot_id: "lot" }, "invalid_format", "lot_id must match the pattern ^LOT-[0-9]+$"],
  ])("%j: %s", (args, code, message) => {
    expect(argumentsProblem(schema, args)).toEqual({ code, message });
  });

  it("accepts what the schema allows", () => {
    const args = { lot_id: "LOT-7", ratio: 0.5, tags: ["a"], contact: "a@lab.example", day: "2026-02-28" };
    expect(argumentsProblem(schema, args)).toBeNull();
    expect(valueProblem("ratio", schema.properties.ratio, 0.25)).toBeNull();
    expect(valueProblem("ratio", schema.properties.ratio, 2)).toEqual({
      code: "invalid_argument_value",
      message: "ratio must be < 1",
    });
  });
});
