/**
 * The acceptance of #26 on the bundled corpus, checked here with code of its own rather than the
 * content checker's: nothing an agent can receive holds an answer slot, every required and
 * forbidden fact's evidence resolves to its value (converted, within tolerance), and the
 * hard-negative routes answer with data that a forbidden fact names.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  fieldName,
  fieldNameShare,
  isDerived,
  type EvidencePointer,
  type Task,
  type Tolerance,
} from "../../src/authoring/index.ts";
import { HARD_NEGATIVES } from "../../src/conditions/catalog/hard-negatives.ts";
import { loadUnitConverter, resolvePointer, type UnitConverter } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { corpus } = bundled();
const tasks = corpus.tasks as Task[];
let units: UnitConverter;
beforeAll(async () => {
  units = await loadUnitConverter();
});

/** Every member name in a JSON value with the value it holds. */
function* members(node: unknown): Generator<[string, unknown]> {
  if (Array.isArray(node)) for (const item of node) yield* members(item);
  else if (typeof node === "object" && node !== null)
    for (const [key, value] of Object.entries(node)) {
      yield [key, value];
      yield* members(value);
    }
}

const payloadOf = (task: Task, sourceId: string) =>
  task.executor_fixture.responses.flatMap((r) => r.observation.sources).find((s) => s.source_id === sourceId)
    ?.payload;

const close = (a: number, b: number, tolerance: Tolerance | undefined) => {
  const band = Math.max(
    tolerance?.absolute ?? 0,
    (tolerance?.relative ?? 0) * Math.abs(b),
    1e-9 * Math.abs(b),
  );
  return Math.abs(a - b) <= band + 1e-12;
};

/** The value at an evidence pointer, read independently: a number (from a quote when there is one), a text or a list. */
function read(task: Task, evidence: EvidencePointer): { value: unknown; unit: string | null } {
  const payload = payloadOf(task, evidence.source_id);
  const found = resolvePointer(payload, evidence.pointer);
  if (!found.found)
    throw new Error(`${task.semantic_task_id}: ${evidence.source_id}${evidence.pointer} is missing`);
  const unitAt = evidence.unit_pointer === undefined ? null : resolvePointer(payload, evidence.unit_pointer);
  const unit = unitAt?.found ? (unitAt.value as string) : (evidence.unit ?? null);
  let value = found.value;
  if (evidence.item_pointer !== undefined)
    value = (value as unknown[]).map((row) => {
      const item = resolvePointer(row, evidence.item_pointer as string);
      return item.found ? item.value : undefined;
    });
  else if (evidence.quote !== undefined && typeof value === "string") {
    expect(value).toContain(evidence.quote);
    value = /^-?\d/.test(evidence.quote) ? Number(evidence.quote.replace(",", ".")) : evidence.quote;
  }
  return { value, unit };
}

function resolvesTo(
  task: Task,
  fact: {
    key: string;
    value: unknown;
    unit?: string | null | undefined;
    evidence: Task["required_facts"][number]["evidence"];
  },
) {
  const tolerance = task.numeric_tolerances[fact.key];
  const toGold = (v: number, unit: string | null) =>
    unit === null || fact.unit == null ? v : (units.convert(v, unit, fact.unit) as number);
  if (isDerived(fact.evidence)) {
    // The corpus's one derived fact is a sum; anything else would need its own reading here.
    expect(fact.evidence.derived).toBe("sum");
    const total = fact.evidence.inputs.reduce((sum, input) => {
      const { value, unit } = read(task, input);
      return sum + toGold(value as number, unit);
    }, 0);
    return close(total, fact.value as number, tolerance);
  }
  const { value, unit } = read(task, fact.evidence);
  if (typeof fact.value === "number") return close(toGold(value as number, unit), fact.value, tolerance);
  if (Array.isArray(fact.value))
    return (
      Array.isArray(value) &&
      value.length === fact.value.length &&
      value.every((v, i) => close(toGold(v as number, unit), (fact.value as number[])[i]!, tolerance))
    );
  return value === fact.value;
}

describe("the migrated corpus (#26 acceptance)", () => {
  it("holds no facts member and no {value, unit} object keyed by a form key in anything an agent can receive", () => {
    let observations = 0;
    for (const task of tasks) {
      const keys = new Set([
        ...task.answer_fields.map((f) => f.key),
        ...task.required_facts.map((f) => f.key),
      ]);
      for (const response of task.executor_fixture.responses) {
        observations++;
        for (const [key, value] of members(response.observation)) {
          expect(key, task.semantic_task_id).not.toBe("facts");
          const slot =
            keys.has(key) &&
            typeof value === "object" &&
            value !== null &&
            "value" in value &&
            "unit" in value;
          expect(slot, `${task.semantic_task_id}: ${key}`).toBe(false);
        }
      }
    }
    expect(observations).toBeGreaterThan(144);
  });

  it("resolves every required and forbidden fact's evidence to its value, converted and within tolerance", () => {
    let facts = 0;
    for (const task of tasks)
      for (const fact of [...task.required_facts, ...task.forbidden_facts]) {
        facts++;
        expect(
          resolvesTo(task, fact),
          `${task.semantic_task_id}: ${fact.key} = ${JSON.stringify(fact.value)}`,
        ).toBe(true);
      }
    // 273 required facts; the forbidden ones are the 33 distractors plus the hard negatives' wrong values.
    expect(tasks.reduce((n, t) => n + t.required_facts.length, 0)).toBe(273);
    expect(facts).toBeGreaterThan(273 + 33);
  });

  it("cites, for every required fact, a record a required response shows", () => {
    for (const task of tasks)
      for (const fact of task.required_facts) {
        const shownBy = task.executor_fixture.responses.filter((r) =>
          r.observation.sources.some((s) => s.source_id === fact.source_id),
        );
        expect(
          shownBy.some((r) => r.required),
          `${task.semantic_task_id}: ${fact.key}`,
        ).toBe(true);
      }
  });

  it("answers hard-negative routes with plausible wrong data that a forbidden fact names", () => {
    const hard = new Set(HARD_NEGATIVES.map((h) => h.route));
    let twins = 0;
    for (const task of tasks) {
      const required = task.executor_fixture.responses.filter((r) => r.required);
      for (const response of task.executor_fixture.responses.filter((r) => !r.required)) {
        twins++;
        expect(hard.has(response.route_id), response.route_id).toBe(true);
        const sources = new Set(response.observation.sources.map((s) => s.source_id));
        const named = task.forbidden_facts.filter(
          (f) => f.source_id !== undefined && sources.has(f.source_id),
        );
        expect(named.length, `${task.semantic_task_id}: ${response.id}`).toBeGreaterThan(0);
        // Wrong: never the gold value of the same key.
        for (const f of named)
          for (const gold of task.required_facts.filter((g) => g.key === f.key))
            expect(JSON.stringify(f.value)).not.toBe(JSON.stringify(gold.value));
        // A natural call: the same identifier rules as the base response it imitates.
        const base =
          required.find((r) => r.route_id.split(".")[1] === response.route_id.split(".")[1]) ?? required[0];
        for (const [argument, rule] of Object.entries(response.argument_rules))
          if (base && argument in base.argument_rules) expect(rule).toEqual(base.argument_rules[argument]);
        // Not an allowed source: citing it is citing the trap.
        for (const id of sources) expect(task.allowed_source_ids).not.toContain(id);
      }
    }
    expect(twins).toBeGreaterThan(300);
    // The archive's value for the first task: 128.4 ksi moved by the archive's −7 %, rounded as the gold is written.
    const first = tasks[0]!;
    const archived = first.forbidden_facts.find((f) => f.source_id?.startsWith("ARCH2019-"));
    expect(archived?.value).toBe(119.4);
  });

  it("derives each answer field from the required facts: kind from the value, unit the gold unit, a description", () => {
    for (const task of tasks) {
      expect(task.answer_fields.map((f) => f.key)).toEqual([
        ...new Set(task.required_facts.map((f) => f.key)),
      ]);
      for (const field of task.answer_fields) {
        const fact = task.required_facts.find((f) => f.key === field.key)!;
        expect(field.unit).toBe(fact.unit);
        expect(field.description.length).toBeGreaterThan(3);
        // Words, not the scorer's snake_case key.
        if (field.key.includes("_")) expect(field.description).not.toContain(field.key);
        if (typeof fact.value === "number") expect(field.kind).toBe("number");
        if (Array.isArray(fact.value))
          expect(field).toMatchObject({ kind: "list", ordered: true, item_kind: "number" });
      }
    }
    // Identifiers for ids and locations, text for free strings.
    const kinds = new Map(tasks.flatMap((t) => t.answer_fields.map((f) => [f.key, f.kind] as const)));
    expect([kinds.get("doi"), kinds.get("file_uri"), kinds.get("sha256")]).toEqual([
      "identifier",
      "identifier",
      "identifier",
    ]);
    expect([kinds.get("finding"), kinds.get("supplier"), kinds.get("job_state")]).toEqual([
      "text",
      "text",
      "text",
    ]);
  });

  it("reveals, for every state rule, the value a later call needs at a pointer that resolves", () => {
    for (const task of tasks)
      for (const response of task.executor_fixture.responses)
        for (const rule of Object.values(response.argument_rules)) {
          if (!("state" in rule)) continue;
          const revealer = task.executor_fixture.responses.find(
            (r) => r.required && r !== response && r.reveals?.[rule.state] !== undefined,
          );
          expect(revealer, `${task.semantic_task_id}: ${response.id} needs ${rule.state}`).toBeDefined();
          const value = resolvePointer(revealer!.observation, revealer!.reveals![rule.state]!);
          expect(value.found && typeof value.value === "string").toBe(true);
        }
  });

  it("reports the share of required facts read from a field named as their form key", () => {
    // Counted here from the pointers themselves.
    let named = 0;
    for (const task of tasks)
      for (const fact of task.required_facts) {
        if (isDerived(fact.evidence)) continue;
        const tokens = fact.evidence.pointer.split("/").filter((t) => t !== "" && !/^\d+$/.test(t));
        if (tokens.at(-1) === fact.key) named++;
      }
    expect(fieldNameShare(tasks)).toEqual({
      required_facts: 273,
      named_as_form_key: named,
      share: Math.round((named / 273) * 10_000) / 10_000,
    });
    expect(named).toBe(94);
    expect(fieldName("/measurements/0/value")).toBe("value");
    expect(fieldName("/entries/12")).toBe("entries");
    expect(fieldName("/a~1b/0")).toBe("a/b");
    expect(fieldName("/3")).toBeNull();
  });
});
