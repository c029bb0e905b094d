/**
 * The bundled corpus's acceptance, checked here with code of its own rather than the content
 * checker's: nothing an agent can receive holds an answer slot, every required and forbidden
 * fact's evidence resolves to its value (converted, within tolerance; a derived fact recomputed),
 * the hard negatives answer with wrong data that a forbidden fact names, and the answer form is
 * derived from the required facts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  fieldName,
  fieldNameShare,
  isDerived,
  type DerivedEvidence,
  type EvidencePointer,
  type Task,
  type Tolerance,
} from "../../src/authoring/index.ts";
import { loadUnitConverter, resolvePointer, type UnitConverter } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { corpus, catalogs } = bundled();
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

/** Every scalar in a JSON value. */
function* leaves(node: unknown): Generator<unknown> {
  if (Array.isArray(node)) for (const item of node) yield* leaves(item);
  else if (typeof node === "object" && node !== null)
    for (const value of Object.values(node)) yield* leaves(value);
  else yield node;
}

const payloadOf = (task: Task, sourceId: string) =>
  task.executor_fixture.responses.flatMap((r) => r.observation.sources).find((s) => s.source_id === sourceId)
    ?.payload;

/** The sources a fact's evidence reads (every input of a derived one). */
const evidenceSources = (evidence: Task["required_facts"][number]["evidence"]): string[] =>
  isDerived(evidence) ? evidence.inputs.map((i) => i.source_id) : [evidence.source_id];

const close = (a: number, b: number, tolerance: Tolerance | undefined) => {
  const band = Math.max(
    tolerance?.absolute ?? 0,
    (tolerance?.relative ?? 0) * Math.abs(b),
    1e-9 * Math.abs(b),
  );
  return Math.abs(a - b) <= band + 1e-12;
};

/** A number as a sentence spells it: "2400", "11,4", "71 700", "−3.2". */
const spelled = (quote: string) =>
  Number(
    quote
      .replace(/[\s\u00a0\u202f]/g, "")
      .replace("\u2212", "-")
      .replace(",", "."),
  );

/**
 * The value at an evidence pointer, read independently: a number (from a quote when the gold is a
 * number), a text (the quote, which must occur there) or a list.
 */
function read(
  task: Task,
  evidence: EvidencePointer,
  number: boolean,
): { value: unknown; unit: string | null } {
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
    expect(value, `${task.semantic_task_id}: ${evidence.source_id}${evidence.pointer}`).toContain(
      evidence.quote,
    );
    value = number ? spelled(evidence.quote) : evidence.quote;
  }
  return { value, unit };
}

/** `v` in `from` expressed in `to` (absolute: a temperature keeps its offset); unitless stays as it is. */
const convert = (v: number, from: string | null, to: string | null) =>
  from === null || to === null ? v : (units.convert(v, from, to) as number);

/**
 * A derived fact recomputed from its inputs, on its own terms: a difference is taken after both
 * inputs are converted to the fact's unit (so an offset cancels), a ratio of the inputs in one
 * unit is scaled to % or ppm, a sum adds the inputs in the fact's unit, `higher`/`lower` name the
 * label of the extreme input, `within` tests the input in the spec's unit against its bounds.
 */
function recompute(task: Task, evidence: DerivedEvidence, unit: string | null): unknown {
  const inputs = evidence.inputs.map(
    (input) => read(task, input, true) as { value: number; unit: string | null },
  );
  const [first, second] = inputs as [(typeof inputs)[0], (typeof inputs)[0]];
  const inFirstUnit = (r: (typeof inputs)[0]) => convert(r.value, r.unit, first.unit);
  switch (evidence.derived) {
    case "difference":
      expect(inputs).toHaveLength(2);
      return convert(first.value, first.unit, unit) - convert(second.value, second.unit, unit);
    case "ratio": {
      expect(inputs).toHaveLength(2);
      const scale = { "%": 100, ppm: 1e6 }[unit ?? ""] ?? (unit === null ? 1 : Number.NaN);
      return (first.value / inFirstUnit(second)) * scale;
    }
    case "sum":
      return inputs.reduce((total, r) => total + convert(r.value, r.unit, unit), 0);
    case "higher":
    case "lower": {
      const values = inputs.map(inFirstUnit);
      const extreme = evidence.derived === "higher" ? Math.max(...values) : Math.min(...values);
      return evidence.labels![values.indexOf(extreme)];
    }
    case "within": {
      const spec = evidence.spec ?? {};
      // Inputs after the value say where the limits are stated: each reads as spec.min or spec.max.
      for (const limit of inputs.slice(1))
        expect([spec.min, spec.max]).toContain(convert(limit.value, limit.unit, spec.unit ?? null));
      const v = convert(first.value, first.unit, spec.unit ?? null);
      return (spec.min === undefined || v >= spec.min) && (spec.max === undefined || v <= spec.max);
    }
  }
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
  const unit = fact.unit ?? null;
  if (isDerived(fact.evidence)) {
    const value = recompute(task, fact.evidence, unit);
    return typeof fact.value === "number"
      ? close(value as number, fact.value, tolerance)
      : JSON.stringify(value) === JSON.stringify(fact.value);
  }
  const { value, unit: from } = read(task, fact.evidence, typeof fact.value === "number");
  if (typeof fact.value === "number")
    return close(convert(value as number, from, unit), fact.value, tolerance);
  if (Array.isArray(fact.value))
    return (
      Array.isArray(value) &&
      value.length === fact.value.length &&
      value.every((v, i) => {
        const gold = (fact.value as unknown[])[i];
        return typeof gold === "number"
          ? close(convert(v as number, from, unit), gold, tolerance)
          : v === gold;
      })
    );
  return value === fact.value;
}

describe("the bundled corpus (acceptance)", () => {
  it("holds no facts member and no {value, unit} object keyed by a form key in anything an agent can receive", () => {
    let observations = 0;
    for (const task of tasks) {
      const keys = new Set([
        ...task.answer_fields.map((f) => f.key),
        ...task.required_facts.map((f) => f.key),
        ...task.forbidden_facts.map((f) => f.key),
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
    const operations = new Set<string>();
    for (const task of tasks)
      for (const fact of [...task.required_facts, ...task.forbidden_facts]) {
        facts++;
        if (isDerived(fact.evidence)) operations.add(fact.evidence.derived);
        expect(
          resolvesTo(task, fact),
          `${task.semantic_task_id}: ${fact.key} = ${JSON.stringify(fact.value)}`,
        ).toBe(true);
      }
    // 359 required facts (36 of them derived) and 475 forbidden ones, every derived operation among them.
    expect(tasks.reduce((n, t) => n + t.required_facts.length, 0)).toBe(359);
    expect(facts).toBe(359 + 475);
    expect([...operations].sort()).toEqual(["difference", "higher", "lower", "ratio", "sum", "within"]);
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
    const endpoints = new Map(catalogs.flatMap((c) => c.catalog.endpoints).map((e) => [e.route_id, e]));
    let twins = 0;
    for (const task of tasks) {
      const required = task.executor_fixture.responses.filter((r) => r.required);
      const factSources = new Set(task.required_facts.flatMap((f) => evidenceSources(f.evidence)));
      for (const response of task.executor_fixture.responses.filter((r) => !r.required)) {
        const sources = new Set(response.observation.sources.map((s) => s.source_id));
        const endpoint = endpoints.get(response.route_id);
        if (endpoint?.role !== "hard_negative") continue;
        // Not an allowed source: citing a record a hard-negative route shows is citing the trap. (An
        // optional call on a base route — the failed job's own status — may show an allowed record.)
        for (const id of sources) expect(task.allowed_source_ids, task.semantic_task_id).not.toContain(id);
        // A natural call: the same rules as a base response it imitates, for the arguments both have.
        const bases = required.filter((r) => r.route_id === endpoint.imitates);
        if (bases.length > 0)
          expect(
            bases.some((base) =>
              Object.entries(response.argument_rules).every(
                ([argument, rule]) =>
                  !(argument in base.argument_rules) ||
                  JSON.stringify(rule) === JSON.stringify(base.argument_rules[argument]),
              ),
            ),
            `${task.semantic_task_id}: ${response.id}`,
          ).toBe(true);
        // It carries a value unless it shows nothing or twins a step whose own answer holds no fact
        // (a search, a submission, an availability query: ids or slots, not an answer).
        const step =
          bases.length > 0 &&
          bases.every((b) => b.observation.sources.every((s) => !factSources.has(s.source_id)));
        if (sources.size === 0 || step) continue;
        twins++;
        // Named by a forbidden fact that reads its record, or that holds a value it shows verbatim.
        const shown = new Set([...leaves(response.observation.sources)].map((v) => JSON.stringify(v)));
        const named = task.forbidden_facts.filter(
          (f) =>
            [f.source_id, ...evidenceSources(f.evidence)].some((s) => s !== undefined && sources.has(s)) ||
            shown.has(JSON.stringify(f.value)),
        );
        expect(
          named.length,
          `${task.semantic_task_id}: ${response.id} (${response.route_id})`,
        ).toBeGreaterThan(0);
        // Wrong: never the gold value of the same key.
        for (const f of named)
          for (const gold of task.required_facts.filter((g) => g.key === f.key))
            expect(JSON.stringify(f.value)).not.toBe(JSON.stringify(gold.value));
      }
    }
    expect(twins).toBeGreaterThan(150);
  });

  it("derives each answer field from the required facts: kind from the value, unit the asked unit, a description", () => {
    for (const task of tasks) {
      expect(task.answer_fields.map((f) => f.key)).toEqual([
        ...new Set(task.required_facts.map((f) => f.key)),
      ]);
      for (const field of task.answer_fields) {
        const fact = task.required_facts.find((f) => f.key === field.key)!;
        const at = `${task.semantic_task_id}: ${field.key}`;
        // The unit asked for is the gold's unit and the first the task accepts.
        expect(field.unit, at).toBe(fact.unit);
        if (field.unit !== null) expect(task.accepted_units[field.key]?.[0], at).toBe(field.unit);
        expect(field.description.length).toBeGreaterThan(3);
        // Words, not the scorer's snake_case key.
        if (field.key.includes("_")) expect(field.description).not.toContain(field.key);
        if (typeof fact.value === "number") expect(field.kind, at).toBe("number");
        if (typeof fact.value === "boolean") expect(field.kind, at).toBe("boolean");
        if (typeof fact.value === "string") expect(["text", "identifier"], at).toContain(field.kind);
        if (Array.isArray(fact.value)) {
          expect(field.kind, at).toBe("list");
          expect(typeof field.ordered, at).toBe("boolean");
          for (const item of fact.value)
            if (typeof item === "number") expect(field.item_kind, at).toBe("number");
            else expect(["text", "identifier"], at).toContain(field.item_kind);
        }
      }
    }
    // Identifiers for ids and locations (DOIs, URIs, hashes, dates), text for free sentences.
    const strings = tasks.flatMap((t) =>
      t.answer_fields.flatMap((f) => {
        const value = t.required_facts.find((r) => r.key === f.key)!.value;
        return typeof value === "string" ? [{ kind: f.kind, value }] : [];
      }),
    );
    const idLike = strings.filter(({ value }) =>
      /^(10\.\d{4,}\/|[a-z][a-z0-9+.-]*:\/\/|[0-9a-f]{64}$|\d{4}-\d{2}-\d{2})/i.test(value),
    );
    const sentences = strings.filter(({ value }) => value.split(/\s+/).length >= 5 && /[.!?。]$/.test(value));
    expect(idLike.length).toBeGreaterThan(20);
    expect(sentences.length).toBeGreaterThan(3);
    expect(new Set(idLike.map((s) => s.kind))).toEqual(new Set(["identifier"]));
    expect(new Set(sentences.map((s) => s.kind))).toEqual(new Set(["text"]));
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
    // Counted here from the pointers themselves; a derived fact has no one field.
    let named = 0;
    for (const task of tasks)
      for (const fact of task.required_facts) {
        if (isDerived(fact.evidence)) continue;
        const tokens = fact.evidence.pointer.split("/").filter((t) => t !== "" && !/^\d+$/.test(t));
        if (tokens.at(-1) === fact.key) named++;
      }
    expect(fieldNameShare(tasks)).toEqual({
      required_facts: 359,
      named_as_form_key: named,
      share: Math.round((named / 359) * 10_000) / 10_000,
    });
    // Only corrective-en-01's error code, read from a log line's `error_code`: 1 of 359, share 0.0028.
    expect(named).toBe(1);
    expect(fieldName("/measurements/0/value")).toBe("value");
    expect(fieldName("/entries/12")).toBe("entries");
    expect(fieldName("/a~1b/0")).toBe("a/b");
    expect(fieldName("/3")).toBeNull();
  });
});
