/**
 * Reading a fact's evidence the way `corpus check` does: resolve the pointer in its source's
 * payload, read the unit, convert to the fact's unit and compare with the gold value; for a derived
 * fact, recompute it from its inputs. Pure: the converter and the observed payloads come in.
 */
import { canonicalJson, resolvePointer, type UnitConverter } from "../../core/index.ts";
import {
  isDerived,
  isNumericValue,
  type DerivedEvidence,
  type EvidencePointer,
  type FactEvidence,
  type Tolerance,
} from "../task.ts";

/** What a fact's evidence must show: its key, gold value, unit and the key's tolerance. */
export interface GoldFact {
  readonly key: string;
  readonly value: unknown;
  readonly unit: string | null;
  readonly tolerance: Tolerance | undefined;
}

/** `unresolved`: a pointer or source that names nothing; `mismatch`: it names a value that is not the gold one. */
export type EvidenceVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: "pointer_unresolved" | "pointer_value_mismatch";
      readonly message: string;
    };

type Failure = Exclude<EvidenceVerdict, { ok: true }>;
/** A derived fact's recomputed value, or why it cannot be computed. */
type Computed = { readonly value: unknown } | Failure;

const OK: EvidenceVerdict = { ok: true };
const unresolved = (message: string): Failure => ({ ok: false, code: "pointer_unresolved", message });
const mismatch = (message: string): Failure => ({ ok: false, code: "pointer_value_mismatch", message });

/**
 * Both bounds inclusive, with two units in the last place of slack so a value written exactly at
 * the bound does not fail on binary rounding; no tolerance means equal up to that slack (a
 * conversion such as MPa → GPa is never bit-exact).
 */
export function withinTolerance(actual: number, expected: number, tolerance: Tolerance | undefined): boolean {
  const diff = Math.abs(actual - expected);
  const slack = 4 * Number.EPSILON * Math.max(Math.abs(actual), Math.abs(expected), 1);
  if (diff <= slack) return true;
  if (tolerance === undefined) return false;
  if (tolerance.absolute !== undefined && diff <= tolerance.absolute + slack) return true;
  return tolerance.relative !== undefined && diff <= tolerance.relative * Math.abs(expected) + slack;
}

/** A number as a text writes it: "187.4", "71 700", "11,4" (a decimal comma), "−3.2". */
export function readNumber(spelling: string): number | null {
  let text = spelling
    .trim()
    .replace(/[\s\u00a0\u202f]/g, "")
    .replace(/\u2212/g, "-");
  if (/^-?\d+,\d+$/.test(text)) text = text.replace(",", ".");
  if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  return Number(text);
}

const show = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);

/** One input read as a number in its source's unit. */
interface Reading {
  readonly value: number;
  readonly unit: string | null;
}

export class EvidenceReader {
  constructor(
    /** Source id → payload, for every source the fixture's observations show. */
    private readonly payloads: ReadonlyMap<string, Record<string, unknown>>,
    private readonly units: UnitConverter,
  ) {}

  check(evidence: FactEvidence, gold: GoldFact): EvidenceVerdict {
    return isDerived(evidence) ? this.checkDerived(evidence, gold) : this.checkPointer(evidence, gold);
  }

  /** The value at a pointer, or why there is none. */
  private at(evidence: EvidencePointer): { value: unknown } | EvidenceVerdict {
    const payload = this.payloads.get(evidence.source_id);
    if (payload === undefined)
      return unresolved(`source ${evidence.source_id} is not in the task's observations`);
    const found = resolvePointer(payload, evidence.pointer);
    if (!found.found)
      return unresolved(`pointer ${evidence.pointer} does not resolve in ${evidence.source_id}'s payload`);
    return { value: found.value };
  }

  /** The source's unit for a value: at `unit_pointer`, or fixed in `unit`; null when neither is given. */
  private unitOf(evidence: EvidencePointer): { unit: string | null } | EvidenceVerdict {
    if (evidence.unit_pointer === undefined) return { unit: evidence.unit ?? null };
    const payload = this.payloads.get(evidence.source_id) ?? {};
    const found = resolvePointer(payload, evidence.unit_pointer);
    if (!found.found)
      return unresolved(
        `unit_pointer ${evidence.unit_pointer} does not resolve in ${evidence.source_id}'s payload`,
      );
    if (typeof found.value !== "string")
      return unresolved(`unit_pointer ${evidence.unit_pointer} names ${show(found.value)}, not a unit`);
    return { unit: found.value };
  }

  /** A number at a pointer: a JSON number, or the `quote`d spelling inside the string there. */
  private number(raw: unknown, evidence: EvidencePointer, where: string): number | EvidenceVerdict {
    if (evidence.quote !== undefined) {
      if (typeof raw !== "string") return mismatch(`${where} holds ${show(raw)}, not a text to quote from`);
      if (!raw.includes(evidence.quote))
        return mismatch(`the quote ${show(evidence.quote)} does not occur in the text at ${where}`);
      const read = readNumber(evidence.quote);
      if (read === null) return mismatch(`the quote ${show(evidence.quote)} at ${where} is not a number`);
      return read;
    }
    if (!isNumericValue(raw)) return mismatch(`${where} holds ${show(raw)}, not a number`);
    return raw;
  }

  /** A number converted from its source's unit to `unit` (null: no conversion). */
  private converted(reading: Reading, unit: string | null, where: string): number | EvidenceVerdict {
    if (unit === null) return reading.value;
    if (reading.unit === null)
      return mismatch(`${where} gives no unit (no unit_pointer or unit) for a value in ${unit}`);
    const value = this.units.convert(reading.value, reading.unit, unit);
    if (value === null) return mismatch(`${where} is in ${reading.unit}, which does not convert to ${unit}`);
    return value;
  }

  private checkPointer(evidence: EvidencePointer, gold: GoldFact): EvidenceVerdict {
    const where = `${evidence.source_id}${evidence.pointer}`;
    const found = this.at(evidence);
    if (!("value" in found)) return found;
    const unit = this.unitOf(evidence);
    if (!("unit" in unit)) return unit;
    if (isNumericValue(gold.value)) {
      const read = this.number(found.value, evidence, where);
      if (typeof read !== "number") return read;
      const value = this.converted({ value: read, unit: unit.unit }, gold.unit, where);
      if (typeof value !== "number") return value;
      return withinTolerance(value, gold.value, gold.tolerance)
        ? OK
        : mismatch(
            `${where} holds ${read}${unit.unit === null ? "" : ` ${unit.unit}`}` +
              (unit.unit !== null && gold.unit !== null && unit.unit !== gold.unit
                ? ` = ${value} ${gold.unit}`
                : "") +
              `, not the gold ${gold.value}${gold.unit === null ? "" : ` ${gold.unit}`}`,
          );
    }
    if (typeof gold.value === "string") {
      if (typeof found.value !== "string") return mismatch(`${where} holds ${show(found.value)}, not a text`);
      if (evidence.quote === undefined)
        return found.value === gold.value
          ? OK
          : mismatch(`${where} holds ${show(found.value)}, not the gold ${show(gold.value)}`);
      if (evidence.quote !== gold.value)
        return mismatch(`the quote ${show(evidence.quote)} is not the gold ${show(gold.value)}`);
      return found.value.includes(evidence.quote)
        ? OK
        : mismatch(`the quote ${show(evidence.quote)} does not occur in the text at ${where}`);
    }
    if (Array.isArray(gold.value)) return this.checkList(found.value, evidence, unit.unit, gold, where);
    return canonicalJson(found.value) === canonicalJson(gold.value)
      ? OK
      : mismatch(`${where} holds ${show(found.value)}, not the gold ${show(gold.value)}`);
  }

  /** A list: the array at the pointer, or each row's item at `item_pointer`; numbers converted item by item. */
  private checkList(
    raw: unknown,
    evidence: EvidencePointer,
    unit: string | null,
    gold: GoldFact,
    where: string,
  ): EvidenceVerdict {
    if (!Array.isArray(raw)) return mismatch(`${where} holds ${show(raw)}, not a list`);
    const expected = gold.value as unknown[];
    const items: unknown[] = [];
    for (const [index, row] of raw.entries()) {
      if (evidence.item_pointer === undefined) {
        items.push(row);
        continue;
      }
      const found = resolvePointer(row, evidence.item_pointer);
      if (!found.found)
        return unresolved(`item_pointer ${evidence.item_pointer} does not resolve in ${where}/${index}`);
      items.push(found.value);
    }
    if (items.length !== expected.length)
      return mismatch(`${where} lists ${items.length} item(s), the gold list ${expected.length}`);
    for (const [index, item] of items.entries()) {
      const want = expected[index];
      if (isNumericValue(want) && isNumericValue(item)) {
        const value = this.converted({ value: item, unit }, gold.unit, `${where}/${index}`);
        if (typeof value !== "number") return value;
        if (!withinTolerance(value, want, gold.tolerance))
          return mismatch(`item ${index} at ${where} is ${item}, not the gold ${want}`);
      } else if (canonicalJson(item) !== canonicalJson(want))
        return mismatch(`item ${index} at ${where} is ${show(item)}, not the gold ${show(want)}`);
    }
    return OK;
  }

  /** One derived input as a number in its own unit. */
  private reading(input: EvidencePointer): Reading | EvidenceVerdict {
    const where = `${input.source_id}${input.pointer}`;
    const found = this.at(input);
    if (!("value" in found)) return found;
    const unit = this.unitOf(input);
    if (!("unit" in unit)) return unit;
    const value = this.number(found.value, input, where);
    return typeof value === "number" ? { value, unit: unit.unit } : value;
  }

  private checkDerived(evidence: DerivedEvidence, gold: GoldFact): EvidenceVerdict {
    const readings: Reading[] = [];
    for (const input of evidence.inputs) {
      const reading = this.reading(input);
      if ("ok" in reading) return reading;
      readings.push(reading);
    }
    const computed = this.compute(evidence, readings, gold.unit);
    if ("ok" in computed) return computed;
    const { value } = computed;
    const label = `${evidence.derived} of ${evidence.inputs.map((i) => `${i.source_id}${i.pointer}`).join(", ")}`;
    if (isNumericValue(value) && isNumericValue(gold.value))
      return withinTolerance(value, gold.value, gold.tolerance)
        ? OK
        : mismatch(
            `the ${label} is ${value}${gold.unit === null ? "" : ` ${gold.unit}`}, not the gold ${gold.value}`,
          );
    return canonicalJson(value) === canonicalJson(gold.value)
      ? OK
      : mismatch(`the ${label} is ${show(value)}, not the gold ${show(gold.value)}`);
  }

  /** The derived value: a number in the fact's unit, a label, or a boolean. */
  private compute(evidence: DerivedEvidence, readings: readonly Reading[], unit: string | null): Computed {
    const [first, second] = readings as [Reading, Reading | undefined];
    if (readings.length !== 2 && ["difference", "ratio"].includes(evidence.derived))
      return mismatch(`${evidence.derived} takes 2 inputs, not ${readings.length}`);
    if (readings.length > 3 && evidence.derived === "within")
      return mismatch(`within takes the value and at most two limits, not ${readings.length} inputs`);
    // An input in the first input's unit, as an absolute value (a temperature with its offset).
    const inFirstUnit = (r: Reading): number | null =>
      first.unit === null || r.unit === null || r.unit === first.unit
        ? r.value
        : this.units.convert(r.value, r.unit, first.unit);
    const notConvertible = (r: Reading) => mismatch(`a ${r.unit} input does not convert to ${first.unit}`);
    switch (evidence.derived) {
      case "difference": {
        const b = inFirstUnit(second as Reading);
        if (b === null) return notConvertible(second as Reading);
        const delta = first.value - b;
        if (unit === null || first.unit === null || first.unit === unit) return { value: delta };
        // A difference converts without the offset: a difference of 5 K is one of 5 °C.
        const to = this.units.convert(delta, first.unit, unit);
        const zero = this.units.convert(0, first.unit, unit);
        return to === null || zero === null
          ? mismatch(`a ${first.unit} difference does not convert to ${unit}`)
          : { value: to - zero };
      }
      case "ratio": {
        const b = inFirstUnit(second as Reading);
        if (b === null) return notConvertible(second as Reading);
        const scale = unit === null ? 1 : unit === "%" ? 100 : unit === "ppm" ? 1e6 : null;
        return scale === null
          ? mismatch(`a ratio cannot be given in ${unit}`)
          : { value: (first.value / b) * scale };
      }
      case "sum": {
        let total = 0;
        for (const r of readings) {
          const value = this.converted(r, unit, "an input");
          if (typeof value !== "number") return value as Failure;
          total += value;
        }
        return { value: total };
      }
      case "higher":
      case "lower": {
        const labels = evidence.labels ?? [];
        if (labels.length !== readings.length)
          return mismatch(
            `${evidence.derived} needs one label per input (${readings.length}), not ${labels.length}`,
          );
        let best = 0;
        let bestValue = Number.NaN;
        for (const [index, r] of readings.entries()) {
          const value = inFirstUnit(r);
          if (value === null) return notConvertible(r);
          if (index === 0 || (evidence.derived === "higher" ? value > bestValue : value < bestValue)) {
            best = index;
            bestValue = value;
          }
        }
        return { value: labels[best] };
      }
      case "within":
        return this.within(evidence, readings);
    }
  }

  /**
   * Whether the first input lies in `spec`. Inputs after the first say where the limits are stated
   * (a standard's clause, a spec sheet): each must read as spec.min or spec.max, so citing it is
   * citing the limit.
   */
  private within(evidence: DerivedEvidence, readings: readonly Reading[]): Computed {
    const spec = evidence.spec ?? {};
    const value = this.converted(readings[0] as Reading, spec.unit ?? null, "the input");
    if (typeof value !== "number") return value as Failure;
    for (const limit of readings.slice(1)) {
      const bound = this.converted(limit, spec.unit ?? null, "a limit input");
      if (typeof bound !== "number") return bound as Failure;
      const same = (b: number | undefined) =>
        b !== undefined && Math.abs(bound - b) <= 1e-9 * Math.max(1, Math.abs(b));
      if (!same(spec.min) && !same(spec.max))
        return mismatch(`a limit input reads ${bound}, which is neither spec.min nor spec.max`);
    }
    return {
      value: (spec.min === undefined || value >= spec.min) && (spec.max === undefined || value <= spec.max),
    };
  }
}
