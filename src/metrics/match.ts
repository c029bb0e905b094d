/**
 * The matching rules between an emitted fact and a required (or forbidden) fact — the scoring
 * contract of the scorer issue. Values are compared by the kind of the answer-form field of their
 * key (number, text, identifier, list, boolean); units up to spelling through the unit table.
 * Pure: unit conversion arrives as a `UnitConverter`.
 */
import type { AnswerField, AnswerKind, RequiredFact, Tolerance } from "../authoring/index.ts";
import { acceptedSources, isNumericValue } from "../authoring/index.ts";
import {
  jsonEqual,
  normalizeIdentifier,
  normalizeText,
  sameInstant,
  sameUnit,
  type UnitConverter,
} from "../core/index.ts";

/** What an emitted fact is compared with: a required fact, or a forbidden one (unit may be absent). */
export interface Target {
  readonly key: string;
  readonly value: unknown;
  readonly unit: string | null;
}

export interface Emitted {
  readonly value: unknown;
  readonly unit: string | null;
}

/** The parts of an answer-form field the comparison reads. */
export type FieldRules = Pick<AnswerField, "kind" | "unit" | "difference" | "ordered" | "item_kind">;

/** A unit label that says something: an empty or blank label is no unit. */
function givenUnit(unit: string | null): string | null {
  return unit === null || unit.trim() === "" ? null : unit;
}

/**
 * unit_ok: a unitless target wants no unit; otherwise f's unit is, up to spelling, one the task
 * accepts for the key (`accepted`, else e's own unit) or the unit the form asks for.
 */
export function unitOk(
  f: Emitted,
  e: Target,
  accepted: readonly string[] | undefined,
  field?: FieldRules,
): boolean {
  const unit = givenUnit(f.unit);
  if (e.unit === null) return unit === null;
  if (unit === null) return false;
  const labels = [...(accepted ?? [e.unit]), ...(field?.unit ? [field.unit] : [])];
  return labels.some((label) => sameUnit(unit, label));
}

/** What a comparison needs besides the two values. */
interface Comparison {
  readonly from: string | null;
  readonly to: string | null;
  readonly tolerance: Tolerance | undefined;
  readonly units: UnitConverter;
  readonly difference: boolean;
  readonly ordered: boolean;
  readonly itemKind: AnswerKind | undefined;
}

type Kind = AnswerKind | "json";

/**
 * value_ok, by the kind of the key's form field (inferred from the gold value when the key has no
 * field or the field's kind does not fit it: numbers, booleans, lists; strings as identifiers;
 * anything else by deep equality).
 * Numbers: f's value converted from f's unit to e's (as a difference when the field says so), then
 * within tolerance; a unit that converts to nothing leaves the raw value. Text: after NFKC,
 * quote/dash folding, whitespace collapsing and case folding. Identifiers: after NFKC and trimming.
 * Booleans: JSON true/false only. Lists: same length, in order when the field says `ordered`, else
 * as a multiset; items by `item_kind`.
 */
export function valueOk(
  f: Emitted,
  e: Target,
  tolerance: Tolerance | undefined,
  units: UnitConverter,
  field?: FieldRules,
): boolean {
  return sameValue(field?.kind ?? inferKind(e.value), f.value, e.value, {
    from: givenUnit(f.unit),
    to: e.unit,
    tolerance,
    units,
    difference: field?.difference === true,
    ordered: field?.ordered === true,
    itemKind: field?.item_kind,
  });
}

function inferKind(value: unknown): Kind {
  if (isNumericValue(value)) return "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "identifier";
  return Array.isArray(value) ? "list" : "json";
}

/**
 * A kind that does not fit the gold value (a list field's scalar forbidden value, a number field
 * holding a string) falls back to the kind the value itself has, so it is still compared sensibly.
 */
function sameValue(kind: Kind, got: unknown, want: unknown, c: Comparison): boolean {
  switch (kind) {
    case "number":
      if (!isNumericValue(want)) return sameValue(inferKind(want), got, want, c);
      return isNumericValue(got) && withinTolerance(convertNumber(got, c), want, c.tolerance);
    case "text":
    case "identifier": {
      if (typeof want !== "string") return sameValue(inferKind(want), got, want, c);
      const normal = kind === "text" ? normalizeText : normalizeIdentifier;
      if (typeof got !== "string") return false;
      // A date-time is an instant: `2026-04-07T10:00:00+02:00` is the gold `2026-04-07T08:00:00Z`.
      return normal(got) === normal(want) || (kind === "identifier" && sameInstant(got, want));
    }
    case "boolean":
      // Only JSON true/false: "yes", "true" or 1 are not booleans, as "144" is not a number.
      if (typeof want !== "boolean") return sameValue(inferKind(want), got, want, c);
      return got === want;
    case "list":
      if (!Array.isArray(want)) return sameValue(inferKind(want), got, want, c);
      return sameList(got, want, c);
    default:
      return jsonEqual(got, want);
  }
}

function sameList(got: unknown, want: readonly unknown[], c: Comparison): boolean {
  if (!Array.isArray(got) || got.length !== want.length) return false;
  const item = (g: unknown, w: unknown) => sameValue(c.itemKind ?? inferKind(w), g, w, c);
  if (c.ordered) return want.every((w, i) => item(got[i], w));
  return perfectMatching(got.length, (i, j) => item(got[i], want[j]));
}

/**
 * Whether every emitted item pairs with a different gold item (Kuhn's augmenting paths): with a
 * tolerance two gold numbers may both accept one emitted number, so a greedy pairing could miss.
 */
function perfectMatching(n: number, edge: (i: number, j: number) => boolean): boolean {
  const ok = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => edge(i, j)));
  const partner: number[] = new Array(n).fill(-1); // gold item → emitted item
  const augment = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < n; j++) {
      if (!ok[i]![j] || seen[j]) continue;
      seen[j] = true;
      if (partner[j] === -1 || augment(partner[j]!, seen)) {
        partner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < n; i++) if (!augment(i, new Array(n).fill(false))) return false;
  return true;
}

/**
 * source_ok: a source the fact accepts (its own, one that also holds the value, or for a derived
 * fact one it was computed from: `acceptedSources`), and an allowed one.
 */
export function sourceOk(
  sourceId: string,
  e: Pick<RequiredFact, "source_id" | "evidence" | "also_in">,
  allowed: ReadonlySet<string>,
): boolean {
  return allowed.has(sourceId) && acceptedSources(e).includes(sourceId);
}

/**
 * Both bounds inclusive. The slack of two units in the last place of the operands keeps a value
 * written exactly at the bound (1.01 against 1 ± 0.01) from failing on binary rounding alone.
 */
export function withinTolerance(actual: number, expected: number, tolerance: Tolerance | undefined): boolean {
  const diff = Math.abs(actual - expected);
  if (tolerance === undefined) return diff === 0;
  const slack = 2 * Number.EPSILON * Math.max(Math.abs(actual), Math.abs(expected));
  if (tolerance.absolute !== undefined && diff <= tolerance.absolute + slack) return true;
  return (
    tolerance.relative !== undefined &&
    diff <= tolerance.relative * Math.max(Math.abs(expected), 1e-12) + slack
  );
}

/**
 * Converted numbers are rounded to 12 significant digits: 117400 MPa is 117.4 GPa, not
 * 117.39999999999999, so conversion alone never costs an exact match.
 */
function convertNumber(value: number, c: Comparison): number {
  const { from, to, units } = c;
  if (from === null || to === null || sameUnit(from, to) || !units.convertible(from, to)) return value;
  const converted = units.convert(value, from, to, { difference: c.difference });
  return converted === null ? value : Number(converted.toPrecision(12));
}
