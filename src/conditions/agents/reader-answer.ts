/**
 * The careful reader's answer: for each form field, the candidate values in the records it
 * received — a leaf whose key, row label (`property`, `name`, …) or sentence shares words with the
 * field's key and description, of the field's kind, a number with a unit that converts to the
 * form's — ranked: rows the records mark stale (superseded, withdrawn, draft, …) last, then by
 * the words shared and the row's ties to the request (a quantity or id it names, the row another
 * field was read from), then the latest timestamp, then the first received. The value is
 * converted to the form's unit with the unit table, an option picked when the field lists
 * options, and the record's source_id cited; the fields the form asks to compute are computed
 * from the others (reader-derive.ts).
 */
import type { UnitConverter } from "../../core/index.ts";
import type { AnswerFact } from "./answer-form.ts";
import { overlap } from "./reader-calls.ts";
import { derivedFacts } from "./reader-derive.ts";
import {
  askedQuantities,
  numbersIn,
  type Quantity,
  rowHolds,
  rowNumbers,
  withSynonyms,
} from "./reader-rows.ts";
import { idsOf, wordsOf, type FormField, type SeenRecord } from "./reader-view.ts";

const STALE =
  /\b(superseded|withdrawn|retracted|draft|simulated|simulation|predicted|estimated|estimate|preprint|archived|nominal|queued|obsolete|expired|deprecated|invalid|revoked|stale|provisional|typical)\b/i;

/** Keys whose string value names the row (a property, a parameter, a substance). */
const LABEL_KEYS =
  /^(property|name|parameter|quantity|metric|label|title|substance|field|key|kind|type|test|test_code|characteristic|item|analyte|measurand|component|element|description|channel|sensor|variable|column|header|condition|point|step|stage|role|purpose)$/;

/** Keys whose value says whether a row is current. */
const STATE_KEYS = /(status|state|basis|validity|flag|source_type|value_type|kind|note|remark|stage|origin)/;

const TIME = /^\d{4}-\d{2}-\d{2}/;

interface Context {
  readonly labels: readonly string[];
  readonly keys: readonly string[];
  readonly stale: boolean;
  readonly time: string;
  readonly text: readonly string[];
  /** The nearest enclosing `unit` member, for a value whose own row names none. */
  readonly unit: string | null;
  /** The row's identity, its numbers and the identifiers its strings hold. */
  readonly row: string;
  readonly numbers: readonly Quantity[];
  readonly ids: readonly string[];
}

interface Leaf {
  readonly key: string;
  readonly value: unknown;
  readonly unit: string | null;
  readonly labels: readonly string[];
  readonly keys: readonly string[];
  readonly text: readonly string[];
  readonly stale: boolean;
  readonly time: string;
  readonly sourceId: string;
  readonly order: number;
  readonly row: string;
  readonly numbers: readonly Quantity[];
  readonly ids: readonly string[];
}

function isStale(row: Record<string, unknown>): boolean {
  return Object.entries(row).some(([k, v]) => {
    if (typeof v === "string") return STATE_KEYS.test(k) && STALE.test(v.replace(/_/g, " "));
    if (typeof v === "boolean") {
      if (STALE.test(k.replace(/_/g, " ")) && !/^(not|non)_/.test(k)) return v;
      return /^(is_)?(current|valid|active|approved|measured)$/.test(k) && !v;
    }
    return k === "superseded_by" && v !== null && v !== undefined;
  });
}

function latest(row: Record<string, unknown>, inherited: string): string {
  let time = inherited;
  for (const [k, v] of Object.entries(row))
    if (
      typeof v === "string" &&
      TIME.test(v) &&
      /(at|date|time|on|updated|issued|approved|measured)$/.test(k)
    )
      if (v > time) time = v;
  return time;
}

/** A row's own context: its label words, its state, its time; every short string of it as text. */
function contextOf(row: Record<string, unknown>, parent: Context): Context {
  const labels: string[] = [];
  const text: string[] = [];
  for (const [k, v] of Object.entries(row)) {
    if (typeof v !== "string") continue;
    if (LABEL_KEYS.test(k)) labels.push(...wordsOf(`${v} ${v.replace(/_/g, " ")}`));
    if (v.length <= 240) text.push(...wordsOf(v));
  }
  const unit = typeof row["unit"] === "string" ? row["unit"] : parent.unit;
  return {
    labels,
    keys: parent.keys,
    stale: parent.stale || isStale(row),
    time: latest(row, parent.time),
    text: [...parent.text, ...text],
    unit,
    row: parent.row,
    numbers: rowNumbers(row, unit),
    ids: Object.values(row).flatMap((v) => (typeof v === "string" && v.length <= 200 ? idsOf(v) : [])),
  };
}

/** The unit of a row's value: `unit`, `units`, `KEY_unit` or `unit_of_KEY`. */
function unitIn(row: Record<string, unknown>, key: string): string | null {
  for (const k of [`${key}_unit`, `${key.replace(/_value$/, "")}_unit`, "unit", "units"])
    if (typeof row[k] === "string") return row[k] as string;
  return null;
}

/**
 * A table's rows (`columns: [{name, unit}]`, `rows: [[…]]`) as objects keyed by column name, each
 * cell's unit beside it and the first cell as the row's name, so a cell reads like a row's member.
 */
function tableRows(obj: Record<string, unknown>): Record<string, unknown>[] | null {
  const { columns, rows } = obj;
  if (!Array.isArray(columns) || !Array.isArray(rows) || !rows.every(Array.isArray)) return null;
  const names = columns.map((c) =>
    typeof c === "string" ? { name: c, unit: null } : (c as { name?: unknown; unit?: unknown }),
  );
  return (rows as unknown[][]).map((cells) => {
    const row: Record<string, unknown> = {};
    cells.forEach((cell, i) => {
      const column = names[i];
      const name = typeof column?.name === "string" ? column.name : `column ${i + 1}`;
      row[name] = cell;
      if (typeof column?.unit === "string") row[`${name}_unit`] = column.unit;
    });
    if (typeof cells[0] === "string") row["name"] = cells[0];
    return row;
  });
}

/** Every leaf of a record, with its row's context. */
export function leavesOf(record: SeenRecord): Leaf[] {
  const out: Leaf[] = [];
  const root: Context = {
    labels: [],
    keys: [],
    stale: false,
    time: "",
    text: [],
    unit: null,
    row: "",
    numbers: [],
    ids: [],
  };
  let rows = 0;
  const visit = (node: unknown, key: string, context: Context, row: Record<string, unknown> | null) => {
    if (Array.isArray(node)) {
      if (node.length > 0 && node.every((v) => typeof v !== "object" || v === null))
        out.push(leaf(key, node, null, context));
      node.forEach((child) => visit(child, key, context, null));
      return;
    }
    if (typeof node === "object" && node !== null) {
      const obj = node as Record<string, unknown>;
      rows += 1;
      const inner = contextOf(obj, {
        ...context,
        keys: [...context.keys, ...wordsOf(key.replace(/_/g, " "))],
        row: `${record.sourceId}#${rows}`,
      });
      const table = tableRows(obj);
      for (const [k, v] of Object.entries(obj))
        visit(k === "rows" && table !== null ? table : v, k, inner, obj);
      return;
    }
    if (node === null || row === null) return;
    out.push(leaf(key, node, unitIn(row, key) ?? context.unit, context));
  };
  const leaf = (key: string, value: unknown, unit: string | null, c: Context): Leaf => ({
    key,
    value,
    unit,
    labels: c.labels,
    keys: c.keys,
    text: c.text,
    stale: c.stale,
    time: c.time,
    sourceId: record.sourceId,
    order: record.order,
    row: c.row,
    numbers: c.numbers,
    ids: c.ids,
  });
  visit(record.payload, "", root, null);
  return out;
}

interface Scored {
  readonly value: unknown;
  readonly unit: string | null;
  readonly score: number;
  readonly leaf: Leaf;
}

/** The leaf's value as a candidate for the field, converted, or null when it is not of the field's kind. */
function asCandidate(
  field: FormField,
  leaf: Leaf,
  units: UnitConverter,
): { value: unknown; unit: string | null; bonus: number }[] {
  const v = leaf.value;
  if (field.kind === "number") {
    const readings =
      typeof v === "number"
        ? [{ value: v, unit: leaf.unit }]
        : typeof v === "string"
          ? // A sentence's numbers only where the form asks a unit (a year or a date is no reading).
            field.unit === null || TIME.test(v)
            ? []
            : numbersIn(v).filter((r) => r.unit !== null)
          : [];
    return readings.flatMap((r): { value: unknown; unit: string | null; bonus: number }[] => {
      const unit = r.unit ?? (field.unit === null ? null : unitOfKey(leaf.key, field.unit, units));
      if (field.unit === null) return [{ value: r.value, unit: null, bonus: 0 }];
      // A number without a unit is no reading of a quantity the form asks in a unit.
      if (unit === null) return [];
      const converted = field.difference
        ? difference(units, r.value, unit, field.unit)
        : units.convert(r.value, unit, field.unit);
      return converted === null
        ? []
        : [{ value: Number(converted.toPrecision(12)), unit: field.unit, bonus: 2 }];
    });
  }
  if (field.kind === "boolean") return typeof v === "boolean" ? [{ value: v, unit: null, bonus: 0 }] : [];
  if (field.kind === "list") return Array.isArray(v) ? [{ value: v, unit: field.unit, bonus: 0 }] : [];
  if (typeof v !== "string") return [];
  if (field.kind === "identifier") {
    const idLike = idsOf(v).includes(v) || /^[a-z][a-z0-9+.-]*:\/\//i.test(v);
    if (idLike || /(_id|_uri|_url|location|path)$/.test(leaf.key))
      return [{ value: v, unit: null, bonus: 1 }];
    // Any other single token (a date, a code) can be an identifier too, without the bonus.
    return /^\S{1,80}$/.test(v) ? [{ value: v, unit: null, bonus: 0 }] : [];
  }
  // A text field wants words, not an identifier or a timestamp.
  if (idsOf(v).includes(v) || TIME.test(v) || /^[-+]?\d/.test(v)) return [];
  if (field.options.length > 0) {
    const option = field.options.find((o) => o.toLowerCase() === v.toLowerCase());
    return option === undefined ? [] : [{ value: option, unit: null, bonus: 2 }];
  }
  return v.length <= 80 ? [{ value: v, unit: null, bonus: 0 }] : [];
}

/** A unit a key spells at its end (`size_bytes`, `runtime_s`, `temp_degc`), when it converts to the form's. */
function unitOfKey(key: string, to: string, units: UnitConverter): string | null {
  const parts = key.split("_");
  for (const n of [2, 1]) {
    if (parts.length <= n) continue;
    const unit = parts.slice(-n).join("_");
    if (units.convert(1, unit, to) !== null) return unit;
  }
  return null;
}

function difference(units: UnitConverter, value: number, from: string, to: string): number | null {
  const at = units.convert(value, from, to);
  const zero = units.convert(0, from, to);
  return at === null || zero === null ? null : at - zero;
}

/** What ties a row to the request: the quantities and ids it names, and the rows other fields were read from. */
export interface Focus {
  readonly requestWords: readonly string[];
  readonly asked: readonly Quantity[];
  readonly askedIds: readonly string[];
  readonly rows: ReadonlySet<string>;
  /** Leaves another field already took: two fields of a comparison are two values. */
  readonly used: ReadonlySet<Leaf>;
}

/** The field's best candidate among the leaves, or null when no leaf shares a word with it. */
export function pickValue(
  field: FormField,
  leaves: readonly Leaf[],
  focus: Focus,
  units: UnitConverter,
): Scored | null {
  const fieldWords = withSynonyms(wordsOf(`${field.key.replace(/_/g, " ")} ${field.description}`));
  const asked = [...focus.asked, ...askedQuantities(field.description, units)];
  const scored: Scored[] = [];
  for (const leaf of leaves) {
    const own = overlap(fieldWords, withSynonyms(wordsOf(leaf.key.replace(/_/g, " "))));
    const label = overlap(fieldWords, withSynonyms(leaf.labels));
    const sentence = typeof leaf.value === "string" ? overlap(fieldWords, wordsOf(leaf.value)) : 0;
    const fit = 3 * own + 3 * label + overlap(fieldWords, leaf.keys) + sentence;
    if (fit === 0) continue;
    // The row the request is about: it holds a quantity the request names, or an id it names.
    const about =
      overlap(focus.requestWords, leaf.text) +
      (focus.used.has(leaf) ? -6 : 0) +
      // The form asks what the user does not know: an id the request already names is no answer.
      (field.kind === "identifier" && typeof leaf.value === "string" && focus.askedIds.includes(leaf.value)
        ? -4
        : 0) +
      (rowHolds(leaf.numbers, asked, units) ? 4 : 0) +
      (leaf.ids.some((id) => focus.askedIds.includes(id) && id !== leaf.value) ? 2 : 0) +
      (focus.rows.has(leaf.row) ? 3 : 0);
    for (const c of asCandidate(field, leaf, units))
      scored.push({ value: c.value, unit: c.unit, score: fit + about + c.bonus, leaf });
  }
  scored.sort(
    (a, b) =>
      Number(a.leaf.stale) - Number(b.leaf.stale) ||
      b.score - a.score ||
      (a.leaf.time > b.leaf.time ? -1 : a.leaf.time < b.leaf.time ? 1 : 0) ||
      a.leaf.order - b.leaf.order,
  );
  return scored[0] ?? null;
}

/**
 * The form filled from the records received: numbers and flags first, then identifiers and texts
 * preferring the rows those were read from (the test record behind the value), then the derived
 * fields computed from the others.
 */
export function readerFacts(
  fields: readonly FormField[],
  records: readonly SeenRecord[],
  request: string,
  units: UnitConverter,
): AnswerFact[] {
  const leaves = records.flatMap(leavesOf);
  const focus: Focus = {
    requestWords: wordsOf(request),
    asked: askedQuantities(request, units),
    askedIds: idsOf(request),
    rows: new Set(),
    used: new Set(),
  };
  const used = new Set<Leaf>();
  const first = new Map<string, Scored>();
  for (const field of fields) {
    if (field.kind !== "number" && field.kind !== "boolean") continue;
    const best = pickValue(field, leaves, { ...focus, used }, units);
    if (best === null) continue;
    first.set(field.key, best);
    used.add(best.leaf);
  }
  const rows = new Set([...first.values()].map((s) => s.leaf.row));
  const read = fields.flatMap((field) => {
    const best = first.get(field.key) ?? pickValue(field, leaves, { ...focus, rows }, units);
    return best === null
      ? []
      : [{ key: field.key, value: best.value, unit: best.unit, source_id: best.leaf.sourceId }];
  });
  return derivedFacts(fields, read, units);
}
