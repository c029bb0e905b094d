/**
 * The careful reader's arithmetic: a field whose key or description asks for a difference, ratio,
 * sum or compliance is computed from the other fields it read (converted to one unit first), as
 * a careful reader with a calculator would — the form says what to compute, never which records.
 * It cites the record of the first value used.
 */
import type { UnitConverter } from "../../core/index.ts";
import type { AnswerFact } from "./answer-form.ts";
import type { FormField } from "./reader-view.ts";

const DIFFERENCE =
  /(difference|delta|change|shortfall|margin|minus|gap|drift|increase|decrease|reduction|excess|headroom|spread|diff|differenz|diferencia|差|차이)/i;
const RATIO = /(ratio|percent|fraction|factor|times|relative|verhältnis|proporción|比|비율)/i;
const SUM = /(sum|total|combined|together|gesamt|summe|suma|合計|합계|총)/i;
const COMPLY =
  /(within|meets?|compl(y|ies|iant)|conform|pass(es)?|acceptable|in_spec|ok\b|satisf|exceeds?|above|below|under|over|erfüllt|cumple|満た|충족)/i;
const MINIMUM = /(min|minimum|lower|at_least|floor|mindest|mínim|下限|최소|하한)/i;
const MAXIMUM = /(max|maximum|upper|limit|at_most|ceiling|höchst|máxim|上限|최대|상한|限度|한도)/i;

const tidy = (v: number) => Number(v.toPrecision(12));

interface Operand {
  readonly field: FormField;
  readonly fact: AnswerFact;
}

/** The other number fields read, in form order, with a unit that converts to `unit`. */
function operands(
  field: FormField,
  fields: readonly FormField[],
  read: ReadonlyMap<string, AnswerFact>,
  units: UnitConverter,
): Operand[] {
  return fields.flatMap((f) => {
    const fact = read.get(f.key);
    if (f === field || f.kind !== "number" || fact === undefined || typeof fact.value !== "number") return [];
    if (DIFFERENCE.test(f.key) || RATIO.test(f.key) || SUM.test(f.key)) return [];
    if (
      field.unit !== null &&
      fact.unit !== null &&
      field.unit !== "%" &&
      !units.convertible(fact.unit, field.unit)
    )
      return [];
    return [{ field: f, fact }];
  });
}

function valueIn(o: Operand, unit: string | null, units: UnitConverter): number | null {
  const v = o.fact.value as number;
  if (unit === null || o.fact.unit === null || unit === o.fact.unit) return v;
  return units.convert(v, o.fact.unit, unit);
}

/** A number field's computed value, or null when it asks for none or its operands were not read. */
function computeNumber(field: FormField, ops: readonly Operand[], units: UnitConverter): number | null {
  const text = `${field.key} ${field.description}`;
  const [a, b] = ops;
  if (a === undefined || b === undefined) return null;
  const unit = field.unit === "%" ? a.fact.unit : (field.unit ?? a.fact.unit);
  const x = valueIn(a, unit, units);
  const y = valueIn(b, unit, units);
  if (x === null || y === null) return null;
  if (SUM.test(text) && !DIFFERENCE.test(field.key)) {
    const all = ops.map((o) => valueIn(o, unit, units));
    return all.some((v) => v === null) ? null : tidy((all as number[]).reduce((s, v) => s + v, 0));
  }
  if (RATIO.test(text) || field.unit === "%") {
    if (y === 0) return null;
    return tidy(field.unit === "%" ? (x / y) * 100 : x / y);
  }
  if (DIFFERENCE.test(text) || field.difference) return tidy(x - y);
  return null;
}

/** A compliance flag from a measured value and the limit beside it. */
function computeFlag(field: FormField, ops: readonly Operand[], units: UnitConverter): boolean | null {
  if (!COMPLY.test(`${field.key} ${field.description}`)) return null;
  const limit = ops.find((o) => MINIMUM.test(o.field.key) || MAXIMUM.test(o.field.key));
  const value = ops.find((o) => o !== limit);
  if (limit === undefined || value === undefined) return null;
  const v = valueIn(value, limit.fact.unit, units);
  const l = limit.fact.value as number;
  if (v === null) return null;
  return MINIMUM.test(limit.field.key) ? v >= l : v <= l;
}

/** The facts read, with every field the form asks to compute computed from the others (when it can be). */
export function derivedFacts(
  fields: readonly FormField[],
  read: readonly AnswerFact[],
  units: UnitConverter,
): AnswerFact[] {
  const byKey = new Map(read.map((f) => [f.key, f]));
  const out = new Map(byKey);
  for (const field of fields) {
    if (field.kind !== "number" && field.kind !== "boolean") continue;
    const ops = operands(field, fields, byKey, units);
    const value = field.kind === "number" ? computeNumber(field, ops, units) : computeFlag(field, ops, units);
    const cited = ops[0]?.fact.source_id;
    if (value === null || cited === undefined) continue;
    out.set(field.key, {
      key: field.key,
      value,
      unit: field.kind === "number" ? field.unit : null,
      source_id: cited,
    });
  }
  return fields.flatMap((f) => {
    const fact = out.get(f.key);
    return fact === undefined ? [] : [fact];
  });
}
