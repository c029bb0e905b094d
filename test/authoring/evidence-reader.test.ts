/** The evidence reader `corpus check` uses, on hand-made payloads with hand-computed values. */
import { beforeAll, describe, expect, it } from "vitest";
import { EvidenceReader, readNumber, type DerivedEvidence } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";

const payload = {
  rows: [
    { property: "inlet temperature", value: 25, unit: "degC" },
    { property: "outlet temperature", value: 293.15, unit: "K" },
    { property: "mass", value: 1.5, unit: "kg" },
    { property: "mass", value: 500, unit: "g" },
  ],
  text: "The film broke down at 11,4 kV/mm; the reference at 9.8 kV/mm.",
  state: "succeeded",
};
let reader: EvidenceReader;
beforeAll(async () => {
  reader = new EvidenceReader(new Map([["SRC-1", payload]]), await loadUnitConverter());
});

const at = (i: number) => ({
  source_id: "SRC-1",
  pointer: `/rows/${i}/value`,
  unit_pointer: `/rows/${i}/unit`,
});
const gold = (value: unknown, unit: string | null, tolerance?: { absolute?: number; relative?: number }) => ({
  key: "k",
  value,
  unit,
  tolerance: tolerance as { absolute: number } | undefined,
});
const derived = (d: DerivedEvidence["derived"], inputs: number[], extra: Partial<DerivedEvidence> = {}) =>
  ({ derived: d, inputs: inputs.map(at), ...extra }) as DerivedEvidence;

describe("EvidenceReader", () => {
  it("reads a number with its unit and converts it to the fact's (1.5 kg = 1500 g)", () => {
    expect(reader.check(at(2), gold(1500, "g"))).toEqual({ ok: true });
    expect(reader.check(at(2), gold(1.5, "kg"))).toEqual({ ok: true });
    expect(reader.check(at(2), gold(1.6, "kg", { absolute: 0.05 }))).toMatchObject({
      code: "pointer_value_mismatch",
    });
    expect(reader.check(at(2), gold(1.54, "kg", { absolute: 0.05 }))).toEqual({ ok: true });
  });

  it("reads a number from a quote in a text, a decimal comma included", () => {
    const quoted = { source_id: "SRC-1", pointer: "/text", quote: "11,4", unit: "kV/mm" };
    expect(reader.check(quoted, gold(11.4, "kV/mm"))).toEqual({ ok: true });
    expect(reader.check({ ...quoted, quote: "11.4" }, gold(11.4, "kV/mm"))).toMatchObject({
      code: "pointer_value_mismatch",
    });
    expect(readNumber("71 700")).toBe(71700);
    expect(readNumber("−3.2")).toBe(-3.2);
    expect(readNumber("3 MPa")).toBeNull();
  });

  it("compares texts exactly, or as a quote that occurs there and is the gold", () => {
    expect(reader.check({ source_id: "SRC-1", pointer: "/state" }, gold("succeeded", null))).toEqual({
      ok: true,
    });
    expect(reader.check({ source_id: "SRC-1", pointer: "/state" }, gold("Succeeded", null))).toMatchObject({
      code: "pointer_value_mismatch",
    });
    const quote = { source_id: "SRC-1", pointer: "/text", quote: "the reference at 9.8 kV/mm" };
    expect(reader.check(quote, gold("the reference at 9.8 kV/mm", null))).toEqual({ ok: true });
  });

  it("recomputes a temperature difference as a difference: 25 °C − 293.15 K = 5 K, not 278.15", () => {
    expect(reader.check(derived("difference", [0, 1]), gold(5, "K", { absolute: 1e-9 }))).toEqual({
      ok: true,
    });
    expect(reader.check(derived("difference", [0, 1]), gold(5, "degC", { absolute: 1e-9 }))).toEqual({
      ok: true,
    });
    expect(reader.check(derived("difference", [0, 1]), gold(278.15, "K", { absolute: 0.01 }))).toMatchObject({
      code: "pointer_value_mismatch",
    });
  });

  it("recomputes a sum and a ratio in the fact's unit (1.5 kg + 500 g = 2 kg; 1.5 kg / 500 g = 300 %)", () => {
    expect(reader.check(derived("sum", [2, 3]), gold(2, "kg"))).toEqual({ ok: true });
    expect(reader.check(derived("sum", [2, 3]), gold(2000, "g"))).toEqual({ ok: true });
    expect(reader.check(derived("ratio", [2, 3]), gold(3, null))).toEqual({ ok: true });
    expect(reader.check(derived("ratio", [2, 3]), gold(300, "%"))).toEqual({ ok: true });
    expect(reader.check(derived("sum", [2, 3]), gold(2.5, "kg"))).toMatchObject({
      code: "pointer_value_mismatch",
    });
  });

  it("recomputes which input is higher or lower (as its label) and whether one lies within a spec", () => {
    const labels = { labels: ["first lot", "second lot"] };
    expect(reader.check(derived("higher", [2, 3], labels), gold("first lot", null))).toEqual({ ok: true });
    expect(reader.check(derived("lower", [2, 3], labels), gold("second lot", null))).toEqual({ ok: true });
    expect(reader.check(derived("higher", [2, 3], labels), gold("second lot", null))).toMatchObject({
      code: "pointer_value_mismatch",
    });
    const spec = { spec: { min: 20, max: 30, unit: "degC" } };
    expect(reader.check(derived("within", [0], spec), gold(true, null))).toEqual({ ok: true });
    // 293.15 K is 20 °C: on the bound, inside.
    expect(reader.check(derived("within", [1], spec), gold(true, null))).toEqual({ ok: true });
    expect(
      reader.check(derived("within", [1], { spec: { min: 21, unit: "degC" } }), gold(true, null)),
    ).toMatchObject({
      code: "pointer_value_mismatch",
    });
  });

  it("says pointer_unresolved for a missing source, pointer, unit pointer or derived input", () => {
    expect(reader.check({ ...at(2), source_id: "SRC-2" }, gold(1.5, "kg"))).toMatchObject({
      code: "pointer_unresolved",
      message: "source SRC-2 is not in the task's observations",
    });
    expect(reader.check({ ...at(2), pointer: "/rows/9/value" }, gold(1.5, "kg"))).toMatchObject({
      code: "pointer_unresolved",
    });
    expect(reader.check({ ...at(2), unit_pointer: "/rows/2/units" }, gold(1.5, "kg"))).toMatchObject({
      code: "pointer_unresolved",
    });
    expect(reader.check({ derived: "sum", inputs: [at(2), at(7)] }, gold(2, "kg"))).toMatchObject({
      code: "pointer_unresolved",
    });
  });
});
