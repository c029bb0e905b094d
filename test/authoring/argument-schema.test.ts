/**
 * `corpus check` against the endpoints' own parameter schemas (#32 item 4): a rule whose literal the
 * schema forbids, a rule kind that does not fit the parameter, a date-time compared by spelling,
 * list reveals only for fits_slot, one rule family per route and parameter, a list's tolerance.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONTENT_RULES, type CheckContext, type Task } from "../../src/authoring/index.ts";
import { ruleFamilyProblems } from "../../src/authoring/check/rule-families.ts";
import { checkContext } from "../../src/world/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol, catalogs, corpus } = bundled();
let context: CheckContext;
beforeAll(async () => {
  context = await checkContext({ protocol, catalogs });
});

/** A copy of a bundled task, changed by `mutate`. */
function task(id: string, mutate: (t: Task) => void = () => undefined): Task {
  const found = corpus.tasks.find((t) => t.semantic_task_id === `v4-${id}`);
  expect(found).toBeDefined();
  const copy = structuredClone(found as Task);
  mutate(copy);
  return copy;
}

const problems = (rule: string, t: Task) => CONTENT_RULES[rule]!(t, context).map((p) => [p.code, p.message]);

/** transform en-02: r2 exports.export {artifact_id: eq ART-6207, format: one_of [vtu]}. */
const EXPORT = "transform_or_export_then_status_answer-en-02";
const FORMATS = "csv, tsv, json, parquet, xlsx, hdf5, netcdf, npz, vtu, tiff, pdf";
/** corrective en-03: r2 availability reveals slot_start; r3 bookings.create rules start by state. */
const BOOKING = "corrective_expansion_required-en-03";

describe("argument_rule_violates_schema", () => {
  it("passes the bundled export task as it is", () => {
    expect(problems("argumentRulesInSchema", task(EXPORT))).toEqual([]);
  });

  it("refuses eq: banana on an enum parameter, and each one_of item outside it", () => {
    const banana = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { eq: "banana" };
    });
    expect(problems("argumentRulesInSchema", banana)).toEqual([
      [
        "argument_rule_violates_schema",
        `response r2 (exports.export) rules format: eq "banana", which the schema refuses (format must be one of: ${FORMATS}); no valid call matches it`,
      ],
    ]);
    const oneOf = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { one_of: ["csv", "CSV", 3] };
    });
    expect(problems("argumentRulesInSchema", oneOf).map(([, m]) => m!.split(", which")[0])).toEqual([
      'response r2 (exports.export) rules format: one_of item "CSV"',
      "response r2 (exports.export) rules format: one_of item 3",
    ]);
  });

  it("refuses instant on a parameter that is not a date-time", () => {
    const instant = task(EXPORT, (t) => {
      t.executor_fixture.responses[1]!.argument_rules["format"] = { instant: "2026-03-03T10:00:00Z" };
    });
    expect(problems("argumentRulesInSchema", instant)).toEqual([
      [
        "argument_rule_violates_schema",
        "response r2 (exports.export) rules format: instant on format, which is not a date-time parameter; no valid call matches it",
      ],
    ]);
  });

  it("refuses an instant literal that names no instant, on a date-time parameter", () => {
    const bad = task(BOOKING, (t) => {
      t.executor_fixture.responses[2]!.argument_rules["start"] = { instant: "2026-06-10 afternoon" };
    });
    expect(problems("argumentRulesInSchema", bad)).toEqual([
      [
        "argument_rule_violates_schema",
        'response r3 (bookings.create) rules start: instant "2026-06-10 afternoon", which the schema refuses (start must be an ISO 8601 date-time with a time zone (e.g. 2026-03-03T10:00:00Z)); no valid call matches it',
      ],
    ]);
  });

  it("refuses fits_slot whose end is not another date-time parameter", () => {
    const slot = (end: string) =>
      task(BOOKING, (t) => {
        t.executor_fixture.responses[2]!.argument_rules["start"] = {
          fits_slot: { slots: "slot_start", end, min_minutes: 60 },
        };
      });
    expect(problems("argumentRulesInSchema", slot("end"))).toEqual([]);
    expect(problems("argumentRulesInSchema", slot("purpose"))).toEqual([
      [
        "argument_rule_violates_schema",
        "response r3 (bookings.create) rules start: fits_slot on start names end purpose, which is not another date-time parameter of the endpoint; no valid call matches it",
      ],
    ]);
  });

  it("flags a date-time compared by its spelling, and accepts state as: instant", () => {
    expect(problems("argumentRulesInSchema", task(BOOKING))).toEqual([
      [
        "date_time_rule_not_instant",
        "response r3 (bookings.create) rules start, a date-time, by its spelling (state): another spelling of the same instant would miss; use instant, state … as: instant or fits_slot",
      ],
    ]);
    const fixed = task(BOOKING, (t) => {
      t.executor_fixture.responses[2]!.argument_rules["start"] = { state: "slot_start", as: "instant" };
    });
    expect(problems("argumentRulesInSchema", fixed)).toEqual([]);
  });
});

describe("reveals: a list only for a fits_slot rule's slots", () => {
  /** r2 reveals the whole free_slots list of BOOKIT-AVAIL-FUR-5132 (three {start, end, minutes} slots). */
  const slots = (rule: boolean, pointer = "/sources/0/payload/free_slots") =>
    task(BOOKING, (t) => {
      t.executor_fixture.responses[1]!.reveals = { free_slots: pointer };
      t.executor_fixture.responses[2]!.argument_rules["start"] = rule
        ? { fits_slot: { slots: "free_slots", end: "end", min_minutes: 120 } }
        : { state: "free_slots", as: "instant" };
    });

  it("accepts a list of {start, end} date-times that a fits_slot rule books inside", () => {
    expect(problems("reveals", slots(true))).toEqual([]);
  });

  it("refuses a list no fits_slot rule names", () => {
    expect(problems("reveals", slots(false))).toEqual([
      [
        "pointer_unresolved",
        expect.stringMatching(
          /^response r2 reveals free_slots at \/sources\/0\/payload\/free_slots, which holds \[.*\], not an id \(a list is revealed only for a fits_slot rule's slots\)$/,
        ),
      ],
    ]);
  });

  it("refuses slots that are not a list of {start, end} date-times", () => {
    expect(problems("reveals", slots(true, "/sources/0/payload/rules"))).toEqual([
      [
        "fits_slot_slots_invalid",
        'response r2 reveals free_slots at /sources/0/payload/rules, which holds {"lead_time_hours":12,"max_slot_hours":24,"training_required":"FUR-basic"}, not a list of {start, end} date-times a fits_slot rule can book inside',
      ],
    ]);
  });
});

describe("rule_family_mismatch", () => {
  it("reports the task whose rules for a route's parameter leave the family most tasks use", () => {
    // papers.section's section: one_of in en-02 and en-03 (identifier), eq_text in en-04 (text).
    const tasks = [
      task("literature_fact_with_source_attribution-en-02"),
      task("literature_fact_with_source_attribution-en-03"),
      task("literature_fact_with_source_attribution-en-04", (t) => {
        t.executor_fixture.responses[0]!.argument_rules["section"] = { eq_text: "Methods" };
      }),
    ];
    expect(ruleFamilyProblems(tasks)).toEqual([
      {
        code: "rule_family_mismatch",
        index: 2,
        message:
          "papers.section section: a rule of the text family (eq_text, nonempty, contains_state) where 2 of the 3 tasks that rule it use the identifier family (eq, one_of, state)",
      },
    ]);
    expect(ruleFamilyProblems(tasks.slice(0, 2))).toEqual([]);
  });
});

describe("a list of numbers takes a tolerance, applied to each item", () => {
  /** single_property en-02: one number fact, kinematic_viscosity, with its tolerance. */
  const listed = (tolerance: boolean) =>
    task("single_property_value_unit_provenance-en-02", (t) => {
      const fact = t.required_facts[0]!;
      t.answer_fields.push({
        key: "readings",
        kind: "list",
        item_kind: "number",
        description: "r",
        unit: "mm2/s",
      });
      t.required_facts.push({ ...structuredClone(fact), key: "readings", value: [1.5, 2.5] });
      if (tolerance) t.numeric_tolerances["readings"] = { absolute: 0.01 };
    });

  it("requires one, as for a number", () => {
    expect(problems("tolerances", listed(true))).toEqual([]);
    expect(problems("tolerances", listed(false)).map(([code]) => code)).toEqual(["tolerance_keys_mismatch"]);
  });
});
