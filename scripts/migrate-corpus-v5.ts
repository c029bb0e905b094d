/**
 * The record of how the bundled corpus moved to the answer-form contract (#26): reads the authored
 * files in `fabench-authored-tasks/v1` (fixture steps, values under `payload.facts`) and writes
 * them back in `fabench-authored-tasks/v2`. Mechanical and deterministic — the same files in give
 * the same bytes out; the content rewrite is the next issue's.
 *
 *   npx tsx scripts/migrate-corpus-v5.ts [tasks/authored] [--dry-run] [--verbose]
 *
 * What it does to each task:
 * - each step becomes a required response `r1`, `r2`, … with the same route, argument rules and
 *   observation; a step whose facts carried a value a later step's `state` rule needs now
 *   `reveals` it, at a pointer to where that value lives in its observation;
 * - every `payload.facts` entry leaves the payload: a value some field of the record already holds
 *   is read there; a number written in the record's text is quoted there; any other number goes
 *   into a list of rows (`measurements`, `reported_values`, `results`, `outputs`, `metrics`:
 *   `{property, value, unit}` in words, not the form key) — beside a `superseded_value` sibling,
 *   which becomes a row with `status: "superseded"`; any other string into a field named as such
 *   a record names it. A `{value, unit}` object keyed by a form key becomes the text "v unit";
 * - every required and forbidden fact gets `evidence` (a pointer with its unit's pointer, or a
 *   quote), and the form `answer_fields` is derived from the required facts;
 * - for every required route's hard-negative twins (see HARD_NEGATIVE_TWINS) a response that is not
 *   required answers a natural call with plausible wrong data — the archive's older value, the
 *   datasheet's nominal one, the simulation's prediction, the preprint's figure, each a fixed
 *   offset from the gold value — and a forbidden fact points at each wrong value.
 *
 * It verifies its own output with the content checker's evidence reader before writing anything.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  EvidenceReader,
  type AnswerField,
  type ArgumentRule,
  type EvidencePointer,
  type FixtureResponse,
  type ForbiddenFact,
  type RequiredFact,
  type Task,
  type Tolerance,
  taskSchema,
} from "../src/authoring/index.ts";
import {
  canonicalJson,
  formatJsonFile,
  loadUnitConverter,
  pointerOf,
  resolvePointer,
  type UnitConverter,
  writeFileAtomic,
} from "../src/core/index.ts";
import { describeField } from "./migrate-corpus-v5-descriptions.ts";

/** The contract this migration wrote (#26); later contracts have their own formats. */
const MIGRATED_FORMAT = "fabench-authored-tasks/v2";

const OLD_FORMAT = "fabench-authored-tasks/v1";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface OldFact {
  value: Json;
  unit: string | null;
}
interface OldSource {
  source_id: string;
  payload: JsonObject & { facts: Record<string, OldFact> };
}
interface OldStep {
  route_id: string;
  argument_rules: Record<string, ArgumentRule>;
  observation: { status: string; result?: JsonObject; sources: OldSource[] };
  fail_once_error?: string;
}
interface OldTask {
  semantic_task_id: string;
  answer_task_stratum: string;
  language: string;
  query: string;
  required_routes: string[];
  executor_fixture: { steps: OldStep[] };
  evidence_payloads: OldSource[];
  allowed_source_ids: string[];
  required_facts: Array<{ key: string; value: Json; unit: string | null; source_id: string }>;
  forbidden_facts: Array<{ key: string; value: Json; unit?: string | null; source_id?: string }>;
  numeric_tolerances: Record<string, Tolerance>;
  accepted_units: Record<string, string[]>;
  mandatory_answer_fields: string[];
  corrective_contract: Task["corrective_contract"];
}

/** Where a value now lives inside one payload. */
type Placement = Omit<EvidencePointer, "source_id">;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const clone = <T>(v: T): T => structuredClone(v);

/** Every leaf of a JSON value with its path, in document order. */
function leaves(
  value: Json,
  path: Array<string | number> = [],
): Array<{ path: Array<string | number>; value: Json }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [{ path, value }];
}

const lastName = (path: ReadonlyArray<string | number>): string | null => {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === "string") return path[i] as string;
  return null;
};

// ---------------------------------------------------------------------------------------------
// Words and field names

/** Fact keys a real record names otherwise (when that name is free in the record). */
const FIELD_NAMES: Record<string, string> = {
  job_state: "state",
  export_state: "state",
  finding: "text",
  next_calibration_due: "next_due",
  calibration_valid_until: "valid_until",
  test_method: "method",
  reference_standard: "reference_standard_id",
  lot_number: "lot",
  supplier_lot: "supplier_lot_no",
  certificate_number: "certificate_no",
  first_author: "first_author_name",
};

/** Words of a quantity as a record's `property` column writes them. */
const WORDS: Record<string, string> = {
  youngs_modulus: "Young's modulus",
  peak_zt: "peak ZT",
  peak_zt_temperature: "temperature of peak ZT",
  particle_size_d50: "particle size D50",
  t80_lifetime: "T80 lifetime",
  hardness_hrc: "Rockwell C hardness",
  validation_r2: "validation R²",
  lattice_parameter_a: "lattice parameter a",
};

const QUALIFIERS =
  /^(current|measured|reported|literature|nominal|database|datasheet|location|max|minimum)_|_(current|previous|history|literature|spec|series|reading)$/;

/** "current_thermal_conductivity" → "thermal conductivity". */
export function words(key: string): string {
  let base = key;
  for (let i = 0; i < 3 && QUALIFIERS.test(base); i++) base = base.replace(QUALIFIERS, "");
  if (["max_storage_temperature", "minimum_stock", "max_deviation"].includes(key)) base = key;
  return (
    WORDS[base] ??
    base
      .replace(/_/g, " ")
      .replace(/\byoungs\b/, "Young's")
      .replace(/\bhrc\b/, "HRC")
  );
}

/** Which list of rows numbers go into, and what its label column is called, by the route's family. */
function rowsOf(route: string): { member: string; label: string } {
  const family = route.split(".")[0]?.split("_")[0] ?? "";
  switch (family) {
    case "papers":
      return { member: "reported_values", label: "quantity" };
    case "instruments":
      return { member: "results", label: "quantity" };
    case "runtime":
      return { member: "outputs", label: "name" };
    case "exports":
      return { member: "metrics", label: "name" };
    default:
      return { member: "measurements", label: "property" };
  }
}

// ---------------------------------------------------------------------------------------------
// Finding a value in a record

/** Spellings of a unit as a record's text writes it. */
function unitSpellings(unit: string): string[] {
  const extra: Record<string, string[]> = {
    degC: ["°C", "℃", "degC"],
    um: ["µm", "μm", "um"],
    "W/(m*K)": ["W/(m·K)", "W/(m*K)", "W/m·K", "W m-1 K-1", "W/mK"],
    "mW/(m*K)": ["mW/(m·K)", "mW/(m*K)"],
    "MPa*m^0.5": ["MPa·m^0.5", "MPa*m^0.5", "MPa√m", "MPa m^0.5", "MPa·m½", "MPa m^1/2"],
    "g/cm3": ["g/cm³", "g/cm3"],
    "kg/m3": ["kg/m³", "kg/m3"],
    "mPa*s": ["mPa·s", "mPa*s"],
    "uohm*cm": ["µΩ·cm", "μΩ·cm", "uohm*cm"],
  };
  return extra[unit] ?? [unit, unit.replace(/\*/g, "·")];
}

/** How a number may be written: 163 as "163" or "163.0", 11.4 also as "11,4". */
function numberSpellings(value: number): string[] {
  const spellings = new Set<string>([String(value)]);
  for (let d = 1; d <= 3; d++) if (Number(value.toFixed(d)) === value) spellings.add(value.toFixed(d));
  for (const s of [...spellings]) if (s.includes(".")) spellings.add(s.replace(".", ","));
  return [...spellings].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A text leaf that writes `value` followed by its unit: the pointer and the number's spelling there. */
function findInText(record: Json, value: number, unit: string): Placement | null {
  const numbers = numberSpellings(value).map(escape).join("|");
  const units = unitSpellings(unit).map(escape).join("|");
  const pattern = new RegExp(`(?<![\\d.,])(${numbers})[\\s\\u00a0\\u202f]?(?:${units})(?![A-Za-z0-9])`, "u");
  for (const leaf of leaves(record)) {
    if (typeof leaf.value !== "string") continue;
    const match = pattern.exec(leaf.value);
    if (match?.[1] !== undefined) return { pointer: pointerOf(leaf.path), quote: match[1], unit };
  }
  return null;
}

/**
 * A numeric leaf holding `value` in `unit`: its unit at the nearest `unit` member of an enclosing
 * object (read there); when the record gives none, the field's name carries it (`d50_um`,
 * `composition_wt_pct.Mo`) and the unit is fixed. Logged, so a coincidence is seen in review.
 */
function findNumber(
  record: JsonObject,
  value: number,
  unit: string | null,
  units: UnitConverter,
): Placement | null {
  for (const leaf of leaves(record)) {
    if (!isNumber(leaf.value) || leaf.value !== value) continue;
    let unitAt: Array<string | number> | null = null;
    // `quantity` with `quantity_unit` beside it, else the nearest `unit` of an enclosing object.
    const name = leaf.path.at(-1);
    const parent = resolvePointer(record, pointerOf(leaf.path.slice(0, -1)));
    if (
      typeof name === "string" &&
      parent.found &&
      isObject(parent.value) &&
      typeof parent.value[`${name}_unit`] === "string"
    )
      unitAt = [...leaf.path.slice(0, -1), `${name}_unit`];
    for (let depth = leaf.path.length - 1; depth >= 0 && unitAt === null; depth--) {
      const holder = resolvePointer(record, pointerOf(leaf.path.slice(0, depth)));
      if (holder.found && isObject(holder.value) && typeof holder.value["unit"] === "string")
        unitAt = [...leaf.path.slice(0, depth), "unit"];
    }
    const pointer = pointerOf(leaf.path);
    if (unitAt === null) {
      log(`number ${value} ${unit ?? ""} read at ${pointer}${unit === null ? "" : " (unit fixed)"}`);
      return unit === null ? { pointer } : { pointer, unit };
    }
    const found = resolvePointer(record, pointerOf(unitAt));
    const label = found.found ? String(found.value) : "";
    if (unit === null) {
      log(`number ${value} read at ${pointer} (record unit ${label} ignored)`);
      return { pointer };
    }
    if (label === unit || units.convert(1, label, unit) === 1) {
      log(`number ${value} ${unit} read at ${pointer}, unit at ${pointerOf(unitAt)}`);
      return { pointer, unit_pointer: pointerOf(unitAt) };
    }
  }
  return null;
}

/** A list spread over rows: the array of rows and the member each row holds its item in. */
function findList(
  record: JsonObject,
  items: Json[],
): { pointer: string; item: string; unitPointer: string | null } | null {
  const walk = (node: Json, path: Array<string | number>): ReturnType<typeof findList> => {
    if (Array.isArray(node)) {
      if (node.length === items.length && node.every(isObject)) {
        const first = node[0] as JsonObject;
        for (const member of Object.keys(first))
          if (
            node.every(
              (row, i) => canonicalJson((row as JsonObject)[member]) === canonicalJson(items[i] as Json),
            )
          )
            return { pointer: pointerOf(path), item: `/${member}`, unitPointer: null };
      }
      for (const [i, child] of node.entries()) {
        const found = walk(child, [...path, i]);
        if (found) return found;
      }
    } else if (isObject(node))
      for (const [k, child] of Object.entries(node)) {
        const found = walk(child, [...path, k]);
        if (found)
          return {
            ...found,
            unitPointer:
              found.unitPointer ?? (typeof node["unit"] === "string" ? pointerOf([...path, "unit"]) : null),
          };
      }
    return null;
  };
  return walk(record, []);
}

// ---------------------------------------------------------------------------------------------
// One payload

const verbose = process.argv.includes("--verbose");
let subject = "";
function log(line: string): void {
  if (verbose) process.stdout.write(`${subject}: ${line}\n`);
}

interface PayloadResult {
  readonly payload: JsonObject;
  /** Fact key → where its value now lives in the payload (absent: it lives in the observation's result). */
  readonly placements: Map<string, Placement>;
}

/** A `{value, unit}` object keyed by a form key becomes the text "value unit" a record would print. */
function flattenSlots(node: Json, keys: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((n) => flattenSlots(n, keys));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (keys.has(k) && isObject(v) && "value" in v && "unit" in v) {
      if (Object.keys(v).length !== 2)
        throw new Error(`a ${k} slot with more than value and unit: rewrite by hand`);
      out[k] = `${String(v["value"])} ${String(v["unit"])}`;
    } else out[k] = flattenSlots(v, keys);
  }
  return out;
}

function freeName(record: JsonObject, wanted: string[]): string {
  for (const name of wanted) if (!Object.hasOwn(record, name)) return name;
  for (let i = 2; ; i++) if (!Object.hasOwn(record, `${wanted[0]}_${i}`)) return `${wanted[0]}_${i}`;
}

function migratePayload(
  source: OldSource,
  route: string,
  result: JsonObject | undefined,
  formKeys: ReadonlySet<string>,
  requiredKeys: ReadonlySet<string>,
  units: UnitConverter,
): PayloadResult {
  subject = source.source_id;
  const { facts, ...rest } = clone(source.payload);
  let rowsMember: string | null = null;
  const payload = flattenSlots(rest, formKeys) as JsonObject;
  const placements = new Map<string, Placement>();
  const rows = rowsOf(route);
  for (const [key, fact] of Object.entries(facts)) {
    const value = fact.value;
    if (typeof value === "string") {
      const hits = leaves(payload).filter((l) => l.value === value);
      const named = hits.find((l) => [key, FIELD_NAMES[key]].includes(lastName(l.path) ?? "")) ?? hits[0];
      if (named) {
        log(`text ${key} read at ${pointerOf(named.path)}`);
        placements.set(key, { pointer: pointerOf(named.path) });
        continue;
      }
      // A value only the call's result gives (a job id a later call needs) stays there; the reveal reads it.
      if (!requiredKeys.has(key) && result && leaves(result).some((l) => l.value === value)) continue;
      const name = freeName(payload, [FIELD_NAMES[key] ?? key, key]);
      log(`text ${key} moved to /${name}`);
      payload[name] = value;
      placements.set(key, { pointer: pointerOf([name]) });
      continue;
    }
    if (isNumber(value)) {
      const inText = () => {
        const found = fact.unit === null ? null : findInText(payload, value, fact.unit);
        if (found) log(`number ${key} = ${value} quoted from the text at ${found.pointer}`);
        return found;
      };
      const at = findNumber(payload, value, fact.unit, units) ?? inText();
      if (at) {
        placements.set(key, at);
        continue;
      }
      if (fact.unit === null) {
        const name = freeName(payload, [FIELD_NAMES[key] ?? key]);
        payload[name] = value;
        placements.set(key, { pointer: pointerOf([name]) });
        continue;
      }
      rowsMember ??= freeName(payload, [rows.member, `${rows.member}_reported`]);
      const member = rowsMember;
      const list = (payload[member] ??= []) as Json[];
      log(`number ${key} = ${value} ${fact.unit} moved to a row of /${member}`);
      const row: JsonObject = { [rows.label]: words(key), value, unit: fact.unit };
      const superseded = payload["superseded_value"];
      if (
        isObject(superseded) &&
        isNumber(superseded["value"]) &&
        typeof superseded["unit"] === "string" &&
        units.convertible(superseded["unit"], fact.unit)
      ) {
        // The stale sibling becomes a row of its own, marked as what it is.
        row["status"] = "current";
        const { value: old, unit: oldUnit, ...about } = superseded;
        list.push(row, {
          [rows.label]: words(key),
          value: old,
          unit: oldUnit,
          status: "superseded",
          ...about,
        });
        delete payload["superseded_value"];
      } else list.push(row);
      const index = list.indexOf(row);
      placements.set(key, {
        pointer: pointerOf([member, index, "value"]),
        unit_pointer: pointerOf([member, index, "unit"]),
      });
      continue;
    }
    if (Array.isArray(value)) {
      const found = findList(payload, value);
      if (found) {
        placements.set(key, {
          pointer: found.pointer,
          item_pointer: found.item,
          ...(found.unitPointer !== null
            ? { unit_pointer: found.unitPointer }
            : fact.unit !== null
              ? { unit: fact.unit }
              : {}),
        });
        continue;
      }
      throw new Error(`${source.source_id}: list ${key} is not spread over any rows; place it by hand`);
    }
    const name = freeName(payload, [FIELD_NAMES[key] ?? key]);
    payload[name] = value;
    placements.set(key, { pointer: pointerOf([name]) });
  }
  return { payload, placements };
}

// ---------------------------------------------------------------------------------------------
// Hard-negative twins

interface Twin {
  readonly route: string;
  /** The base route whose calls it imitates. */
  readonly base: string;
  readonly prefix: string;
  /** Header fields the twin's record carries, before the rows. */
  readonly header: JsonObject;
  /** Numbers: the list member, its label and value columns, and the fixed relative offset of the wrong value. */
  readonly numbers?: {
    member: string;
    label: string;
    column: string;
    /** The relative offset of the wrong value, or per fact key. */
    factor: number | ((key: string) => number);
    only?: RegExp;
    /** Words before the quantity's (a neighbouring quantity: "shear" yield strength). */
    prefix?: string;
  };
  /** Strings the twin speaks about: key pattern → the wrong value it gives for the gold one. */
  readonly strings?: ReadonlyArray<{
    keys: RegExp;
    field: string;
    wrong: (gold: string, ids: JsonObject) => string | null;
  }>;
}

/** A DOI as a user might mistype it: the last two characters swapped (or the last digit changed). */
function mistypedDoi(doi: string): string {
  const [a, b] = [doi.at(-2), doi.at(-1)];
  if (a !== undefined && b !== undefined && a !== b) return `${doi.slice(0, -2)}${b}${a}`;
  return `${doi.slice(0, -1)}${(Number(b) + 1) % 10}`;
}

function legacyLocation(uri: string): string {
  const scheme = /^([a-z0-9]+:\/\/)([^/]*)(.*)$/.exec(uri);
  if (scheme)
    return `${scheme[1]}${scheme[2] === "" ? "" : `${scheme[2]}-v1-legacy`}${scheme[2] === "" ? scheme[3]?.replace(/^\/([^/]+)/, "/$1-v1-legacy") : scheme[3]}`;
  return `/legacy-v1${uri.startsWith("/") ? "" : "/"}${uri}`;
}

/** A sentence with every number in it moved by `factor`, rounded as written; null when it holds none. */
export function withNumbersMoved(text: string, factor: number): string | null {
  let moved = false;
  // Only measured figures (a number with its unit), never a name such as 316L or SAC305.
  const figure =
    /(?<![\w.,-])(\d+(?:\.\d+)?)(?=\s?(?:%|°C|K\b|[kMG]?Pa\b|mm\b|µm|nm\b|h\b|kJ\/mol|eV\b|HV|HRC|J\b|kN\b|N\b|mS\/cm|S\/cm|W\/))/gu;
  const out = text.replace(figure, (spelling) => {
    const decimals = (spelling.split(".")[1] ?? "").length;
    const value = Number(spelling);
    let wrong = Number((value * factor).toFixed(decimals));
    if (wrong === value) wrong = Number((value + 10 ** -decimals).toFixed(decimals));
    moved = true;
    return wrong.toFixed(decimals);
  });
  return moved ? out : null;
}

const LOCATION = /^(file_uri|output_path|output_prefix|manifest_uri)$/;

/** Which hard-negative endpoint imitates which base route (hard-negatives.ts), with what it answers. */
export const HARD_NEGATIVE_TWINS: readonly Twin[] = [
  {
    route: "materials_archive.current",
    base: "materials.current",
    prefix: "ARCH2019",
    header: { snapshot: "2019-12-31", source: "materials database archive (frozen)" },
    numbers: { member: "archived_values", label: "property", column: "value", factor: 0.93 },
  },
  {
    route: "materials_v1.current",
    base: "materials.current",
    prefix: "MATV1",
    header: { api_version: "v1", deprecated: true },
    numbers: { member: "properties", label: "name", column: "value", factor: 0.96, only: /modulus|density/ },
  },
  {
    route: "materials_nominal.lookup",
    base: "materials.current",
    prefix: "DATASHEET",
    header: { basis: "nominal (supplier datasheet)", issued: "2022-01-15" },
    numbers: { member: "nominal_values", label: "property", column: "nominal_value", factor: 1.05 },
  },
  {
    route: "materials_sim.predict",
    base: "materials.current",
    prefix: "SURR",
    header: { model: "surrogate-gbr-3.2", kind: "prediction" },
    numbers: { member: "predictions", label: "property", column: "predicted_value", factor: 1.08 },
  },
  {
    route: "materials_eu.current",
    base: "materials.current",
    prefix: "EUREP",
    header: { replica: "eu-central", replication_lag_h: 24 },
    numbers: { member: "measurements", label: "property", column: "value", factor: 0.97 },
  },
  // A neighbouring quantity: the shear modulus G ≈ 0.385 E, the shear yield strength ≈ 0.577 σy (von Mises).
  {
    route: "materials_shear.current",
    base: "materials.current",
    prefix: "SHEAR",
    header: { lab: "shear-test laboratory" },
    numbers: {
      member: "measurements",
      label: "property",
      column: "value",
      factor: (key) => (/modulus/.test(key) ? 0.385 : 0.577),
      only: /modulus|strength/,
      prefix: "shear ",
    },
  },
  {
    route: "materials_archive.history",
    base: "materials.history",
    prefix: "ARCH2019",
    header: { snapshot: "2019-12-31", order: "oldest first" },
    numbers: { member: "archived_series", label: "property", column: "value", factor: 0.93 },
  },
  {
    route: "materials_v1.history",
    base: "materials.history",
    prefix: "MATV1H",
    header: { api_version: "v1", aggregation: "yearly average" },
    numbers: { member: "yearly_averages", label: "name", column: "value", factor: 0.96, only: /modulus/ },
  },
  {
    route: "materials_sim.forecast",
    base: "materials.forecast",
    prefix: "SCEN",
    header: { model: "ageing-scenario-B", kind: "scenario forecast" },
    numbers: { member: "forecast", label: "property", column: "value", factor: 1.09 },
  },
  {
    route: "materials_registry_legacy.retrieve",
    base: "materials.retrieve",
    prefix: "LEGREG",
    header: { registry: "legacy (pre-2020)", registered: "2018-04-09" },
    numbers: { member: "properties", label: "property", column: "value", factor: 0.94 },
  },
  {
    route: "papers_preprints.retrieve",
    base: "papers.retrieve",
    prefix: "PREPRINT",
    header: { version: "preprint v1 (not peer reviewed)", posted: "2020-11-02" },
    numbers: { member: "reported_values", label: "quantity", column: "value", factor: 1.04 },
    // The preprint's sentence: the published one with the earlier figures in it.
    strings: [{ keys: /^finding$/, field: "text", wrong: (gold) => withNumbersMoved(gold, 1.08) }],
  },
  {
    route: "papers_refs.citations",
    base: "papers.citations",
    prefix: "USERREF",
    header: { entered_by: "user library import", verified: false },
    numbers: { member: "counts", label: "name", column: "value", factor: 0.9 },
    strings: [{ keys: /^doi$/, field: "doi", wrong: (gold) => mistypedDoi(gold) }],
  },
  {
    route: "instruments_legacy.calibration",
    base: "instruments.calibration",
    prefix: "LEGCAL",
    header: { register: "pre-2022 metrology register", calibrated_on: "2021-03-18" },
    numbers: { member: "results", label: "quantity", column: "value", factor: 0.88 },
  },
  {
    route: "instruments_sim.readings",
    base: "instruments.readings",
    prefix: "SIMRD",
    header: { simulator: "training-sim 4.1", simulated: true },
    numbers: { member: "readings", label: "quantity", column: "value", factor: 1.08 },
  },
  {
    route: "instruments_daily.readings",
    base: "instruments.readings",
    prefix: "DAILY",
    header: { aggregation: "daily mean", day: "2026-03-01" },
    numbers: { member: "daily_means", label: "quantity", column: "daily_mean", factor: 0.97 },
  },
  {
    route: "inventory_snapshot.list",
    base: "inventory.list",
    prefix: "SNAP",
    header: { snapshot_at: "yesterday 23:00 UTC", movements_today: "not included" },
    numbers: { member: "snapshot_quantities", label: "item", column: "quantity", factor: 1.1 },
  },
  {
    route: "runtime_sandbox.execute",
    base: "runtime.execute",
    prefix: "SANDBOX",
    header: { sandbox: true, published: false },
    numbers: { member: "outputs", label: "name", column: "value", factor: 1.06 },
  },
  {
    route: "exports_legacy.export",
    base: "exports.export",
    prefix: "EXPV1",
    header: { service: "export-v1 (legacy mirror, read-only)", exported_at: "2021-06-30T00:00:00Z" },
    strings: [{ keys: LOCATION, field: "file_uri", wrong: (gold) => legacyLocation(gold) }],
  },
  {
    route: "exports_preview.export",
    base: "exports.export",
    prefix: "PREVIEW",
    header: { kind: "preview (first 100 rows)", expires_in_s: 3600 },
    strings: [
      {
        keys: LOCATION,
        field: "preview_uri",
        wrong: (_gold, ids) =>
          `https://preview.exports.example.org/${String(ids["artifact_id"] ?? "artifact")}/preview?expires=3600`,
      },
    ],
  },
  {
    route: "exports_queue.status",
    base: "exports.status",
    prefix: "QUEUE",
    header: { queue: "export-default", queue_position: 2 },
    strings: [
      { keys: /state|status/, field: "state", wrong: (gold) => (gold === "queued" ? null : "queued") },
    ],
  },
];

/** Record ids a twin's record repeats from the base record. */
const ID_FIELDS = [
  "material_id",
  "paper_id",
  "instrument_id",
  "runtime_id",
  "artifact_id",
  "job_id",
  "location",
  "channel",
];

/** The gold value moved by a fixed relative offset, outside three times the tolerance and rounded as the gold is written. */
export function wrongNumber(
  gold: number,
  factor: number,
  tolerance: Tolerance | undefined,
  key: string,
): number {
  if (/year/.test(key)) return gold - 1;
  const decimals = (String(gold).split(".")[1] ?? "").length;
  const step = 10 ** -decimals;
  const band = Math.max(tolerance?.absolute ?? 0, (tolerance?.relative ?? 0) * Math.abs(gold));
  const sign = factor >= 1 ? 1 : -1;
  let delta = gold * (factor - 1);
  if (Math.abs(delta) < 3 * band + step) delta = sign * (3 * band + step);
  let wrong = Number((gold + delta).toFixed(decimals));
  while (Math.abs(wrong - gold) <= 3 * band || wrong === gold)
    wrong = Number((wrong + sign * step).toFixed(decimals));
  return wrong;
}

// ---------------------------------------------------------------------------------------------
// One task

const KIND_TEXT = /state|status|finding|supplier|venue|author|method|name|title/;

function answerKind(key: string, value: Json): AnswerField["kind"] {
  if (isNumber(value)) return "number";
  if (typeof value === "boolean") return "boolean";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string" && (KIND_TEXT.test(key) || /\s/.test(value))) return "text";
  return "identifier";
}

function answerFields(task: OldTask): AnswerField[] {
  const seen = new Set<string>();
  return task.required_facts.flatMap((fact) => {
    if (seen.has(fact.key)) return [];
    seen.add(fact.key);
    const kind = answerKind(fact.key, fact.value);
    const field: AnswerField = {
      key: fact.key,
      kind,
      description: describeField(fact.key, task.language),
      unit: fact.unit,
    };
    if (Array.isArray(fact.value)) {
      const first = fact.value[0];
      return [{ ...field, ordered: true, item_kind: isNumber(first) ? "number" : "identifier" }];
    }
    return [field];
  });
}

interface Context {
  readonly units: UnitConverter;
  readonly parameters: ReadonlyMap<string, ReadonlySet<string>>;
}

export function migrateTask(task: OldTask, context: Context): Task {
  const formKeys = new Set([
    ...task.required_facts.map((f) => f.key),
    ...task.forbidden_facts.map((f) => f.key),
  ]);
  const steps = task.executor_fixture.steps;
  // Which earlier step each state rule reads: the nearest one whose facts carried that name.
  const reveals = steps.map(() => new Set<string>());
  for (const [k, step] of steps.entries())
    for (const rule of Object.values(step.argument_rules)) {
      const name = "state" in rule ? rule.state : "contains_state" in rule ? rule.contains_state : null;
      if (name === null) continue;
      let from = -1;
      for (let i = k - 1; i >= 0; i--)
        if (steps[i]?.observation.sources.some((s) => Object.hasOwn(s.payload.facts, name))) {
          from = i;
          break;
        }
      if (from < 0)
        throw new Error(`${task.semantic_task_id}: step ${k + 1} needs ${name}, which no earlier step shows`);
      reveals[from]?.add(name);
    }

  const placed = new Map<string, { payload: JsonObject; placements: Map<string, Placement> }>();
  const responses: FixtureResponse[] = steps.map((step, i) => {
    const sources = step.observation.sources.map((source) => {
      const requiredKeys = new Set(
        task.required_facts.filter((f) => f.source_id === source.source_id).map((f) => f.key),
      );
      const migrated = migratePayload(
        source,
        step.route_id,
        step.observation.result,
        formKeys,
        requiredKeys,
        context.units,
      );
      placed.set(source.source_id, migrated);
      return { source_id: source.source_id, payload: migrated.payload };
    });
    const observation = { ...clone(step.observation), sources } as FixtureResponse["observation"];
    const revealed: Record<string, string> = {};
    for (const name of reveals[i] ?? []) revealed[name] = revealPointer(step, observation, name, placed);
    return {
      id: `r${i + 1}`,
      route_id: step.route_id,
      argument_rules: clone(step.argument_rules),
      observation,
      required: true,
      ...(Object.keys(revealed).length > 0 ? { reveals: revealed } : {}),
      ...(step.fail_once_error !== undefined ? { fail_once_error: step.fail_once_error } : {}),
    };
  });

  const requiredFacts: RequiredFact[] = task.required_facts.map((fact) => {
    const at = placed.get(fact.source_id)?.placements.get(fact.key);
    if (!at)
      throw new Error(
        `${task.semantic_task_id}: required fact ${fact.key} has no place in ${fact.source_id}`,
      );
    return { ...fact, evidence: { source_id: fact.source_id, ...at } };
  });

  const forbiddenFacts: ForbiddenFact[] = task.forbidden_facts.map((fact) => {
    const found = locateForbidden(fact, responses, context.units);
    if (!found)
      throw new Error(
        `${task.semantic_task_id}: forbidden fact ${fact.key} = ${String(fact.value)} is nowhere in the evidence`,
      );
    // The record that shows the wrong value is named, as the twins' forbidden facts name theirs.
    const source = fact.source_id ?? ("derived" in found ? undefined : found.source_id);
    return { ...fact, ...(source === undefined ? {} : { source_id: source }), evidence: found };
  });

  const twins = twinResponses(task, responses, requiredFacts, context);
  responses.push(...twins.responses);
  forbiddenFacts.push(...twins.forbidden);

  const evidencePayloads = responses.flatMap((r) => r.observation.sources.map((s) => clone(s)));
  const out: Task = {
    semantic_task_id: task.semantic_task_id,
    answer_task_stratum: task.answer_task_stratum,
    language: task.language,
    query: task.query,
    answer_fields: answerFields(task),
    required_routes: task.required_routes,
    executor_fixture: { responses },
    evidence_payloads: evidencePayloads,
    allowed_source_ids: task.allowed_source_ids,
    required_facts: requiredFacts,
    forbidden_facts: forbiddenFacts,
    numeric_tolerances: task.numeric_tolerances,
    accepted_units: task.accepted_units,
    mandatory_answer_fields: task.mandatory_answer_fields,
    corrective_contract: task.corrective_contract,
  };
  return taskSchema.parse(out);
}

/** Where in the response's observation the value named `name` now lives. */
function revealPointer(
  step: OldStep,
  observation: FixtureResponse["observation"],
  name: string,
  placed: ReadonlyMap<string, { placements: Map<string, Placement> }>,
): string {
  for (const [j, source] of step.observation.sources.entries()) {
    const fact = source.payload.facts[name];
    if (fact === undefined) continue;
    const at = placed.get(source.source_id)?.placements.get(name);
    if (at) return `/sources/${j}/payload${at.pointer}`;
    const inResult = leaves((observation.result ?? {}) as Json).find((l) => l.value === fact.value);
    if (inResult) return pointerOf(["result", ...inResult.path]);
  }
  throw new Error(`no place for revealed ${name}`);
}

/** A forbidden value where the evidence shows it: a number with its unit, or a number in a text. */
function locateForbidden(
  fact: OldTask["forbidden_facts"][number],
  responses: readonly FixtureResponse[],
  units: UnitConverter,
): ForbiddenFact["evidence"] | null {
  const value = fact.value;
  const sources = responses.flatMap((r) => r.observation.sources);
  if (fact.source_id !== undefined)
    sources.sort((a, b) => Number(b.source_id === fact.source_id) - Number(a.source_id === fact.source_id));
  for (const source of sources) {
    const payload = source.payload as JsonObject;
    const at = isNumber(value)
      ? findNumber(payload, value, fact.unit ?? null, units)
      : (() => {
          const leaf = leaves(payload).find((l) => canonicalJson(l.value) === canonicalJson(value));
          return leaf ? { pointer: pointerOf(leaf.path) } : null;
        })();
    if (at) return { source_id: source.source_id, ...at };
  }
  if (isNumber(value) && typeof fact.unit === "string")
    for (const source of sources) {
      const at = findInText(source.payload as Json, value, fact.unit);
      if (at) return { source_id: source.source_id, ...at };
    }
  if (isNumber(value)) {
    const sum = findSum(sources, value, fact.unit ?? null, units);
    if (sum) return sum;
  }
  return null;
}

/** A wrong value that is two of the record's numbers added up (both lots of a stock, say): a derived sum. */
function findSum(
  sources: ReadonlyArray<{ source_id: string; payload: Record<string, unknown> }>,
  value: number,
  unit: string | null,
  units: UnitConverter,
): ForbiddenFact["evidence"] | null {
  for (const source of sources) {
    const payload = source.payload as JsonObject;
    const numbers = leaves(payload).filter((l) => isNumber(l.value));
    for (const [i, a] of numbers.entries())
      for (const b of numbers.slice(i + 1)) {
        if (Math.abs((a.value as number) + (b.value as number) - value) > 1e-9 * Math.max(1, Math.abs(value)))
          continue;
        // Each addend must be read where it stands (not at an equal number elsewhere in the record).
        const read = (leaf: (typeof numbers)[number]) => {
          const at = findNumber(payload, leaf.value as number, unit, units);
          return at !== null && at.pointer === pointerOf(leaf.path)
            ? { source_id: source.source_id, ...at }
            : null;
        };
        const [x, y] = [read(a), read(b)];
        if (x === null || y === null) continue;
        log(`forbidden ${value} is the sum of ${x.pointer} and ${y.pointer}`);
        return { derived: "sum", inputs: [x, y] };
      }
  }
  return null;
}

function twinResponses(
  task: OldTask,
  required: readonly FixtureResponse[],
  facts: readonly RequiredFact[],
  context: Context,
): { responses: FixtureResponse[]; forbidden: ForbiddenFact[] } {
  const responses: FixtureResponse[] = [];
  const forbidden: ForbiddenFact[] = [];
  const matchers = new Set(required.map((r) => canonicalJson([r.route_id, r.argument_rules])));
  let next = required.length + 1;
  for (const base of required)
    for (const twin of HARD_NEGATIVE_TWINS) {
      if (twin.base !== base.route_id) continue;
      const params = context.parameters.get(twin.route);
      if (!params) continue; // not in the catalog
      const rules = Object.fromEntries(
        Object.entries(base.argument_rules).filter(([arg]) => params.has(arg)),
      );
      const matcher = canonicalJson([twin.route, rules]);
      if (matchers.has(matcher)) continue;
      const baseSource = base.observation.sources[0];
      const ids: JsonObject = {};
      for (const source of base.observation.sources)
        for (const field of ID_FIELDS)
          if (ids[field] === undefined && source.payload[field] !== undefined)
            ids[field] = source.payload[field] as Json;
      for (const [arg, rule] of Object.entries(rules))
        if ("eq" in rule && ids[arg] === undefined) ids[arg] = rule.eq as Json;
      const sourceId = `${twin.prefix}-${baseSource?.source_id ?? `${task.semantic_task_id.split("-").at(-1)}-${next}`}`;
      const payload: JsonObject = { ...ids, ...twin.header };
      const wrongs: ForbiddenFact[] = [];
      const shown = new Set(base.observation.sources.map((s) => s.source_id));
      if (twin.numbers) {
        const { member, label, column, factor, only } = twin.numbers;
        const rows: JsonObject[] = [];
        for (const fact of facts) {
          if (!shown.has(fact.source_id) || (only && !only.test(fact.key))) continue;
          const tolerance = task.numeric_tolerances[fact.key];
          const offset = typeof factor === "number" ? factor : factor(fact.key);
          let wrong: Json;
          if (isNumber(fact.value)) wrong = wrongNumber(fact.value, offset, tolerance, fact.key);
          else if (Array.isArray(fact.value) && fact.value.every(isNumber))
            wrong = (fact.value as number[]).map((v) => wrongNumber(v, offset, tolerance, fact.key));
          else continue;
          const row: JsonObject = {
            [label]: `${twin.numbers.prefix ?? ""}${words(fact.key)}`,
            [Array.isArray(wrong) ? "values" : column]: wrong,
          };
          if (fact.unit !== null) row["unit"] = fact.unit;
          rows.push(row);
          const i = rows.length - 1;
          wrongs.push({
            key: fact.key,
            value: wrong,
            unit: fact.unit,
            source_id: sourceId,
            evidence: {
              source_id: sourceId,
              pointer: pointerOf([member, i, Array.isArray(wrong) ? "values" : column]),
              ...(fact.unit !== null ? { unit_pointer: pointerOf([member, i, "unit"]) } : {}),
            },
          });
        }
        if (rows.length > 0) payload[member] = rows;
      }
      for (const speaks of twin.strings ?? [])
        for (const fact of facts) {
          if (typeof fact.value !== "string" || !speaks.keys.test(fact.key)) continue;
          const wrong = speaks.wrong(fact.value, ids);
          if (wrong === null || wrong === fact.value || Object.hasOwn(payload, speaks.field)) continue;
          payload[speaks.field] = wrong;
          wrongs.push({
            key: fact.key,
            value: wrong,
            unit: null,
            source_id: sourceId,
            evidence: { source_id: sourceId, pointer: pointerOf([speaks.field]) },
          });
        }
      if (wrongs.length === 0) continue;
      matchers.add(matcher);
      responses.push({
        id: `r${next++}`,
        route_id: twin.route,
        argument_rules: rules,
        observation: { status: "ok", sources: [{ source_id: sourceId, payload }] },
        required: false,
      });
      forbidden.push(...wrongs);
    }
  return { responses, forbidden };
}

// ---------------------------------------------------------------------------------------------
// The shell

async function main(dir: string, dryRun: boolean): Promise<void> {
  const units = await loadUnitConverter();
  const catalog = JSON.parse(readFileSync("tasks/catalogs/100.json", "utf8")) as {
    endpoints: Array<{ route_id: string; parameters: { properties: Record<string, unknown> } }>;
  };
  const parameters = new Map(
    catalog.endpoints.map((e) => [e.route_id, new Set(Object.keys(e.parameters.properties))]),
  );
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const written: Array<{ path: string; text: string }> = [];
  let problems = 0;
  for (const file of files) {
    const path = join(dir, file);
    const doc = JSON.parse(readFileSync(path, "utf8")) as {
      format: string;
      stratum: string;
      tasks: OldTask[];
    };
    if (doc.format === MIGRATED_FORMAT) {
      process.stdout.write(`${path}: already ${MIGRATED_FORMAT}; left alone\n`);
      continue;
    }
    if (doc.format !== OLD_FORMAT) throw new Error(`${path}: not ${OLD_FORMAT}`);
    const tasks = doc.tasks.map((t) => migrateTask(t, { units, parameters }));
    for (const task of tasks) problems += verify(task, units);
    written.push({ path, text: formatJsonFile({ format: MIGRATED_FORMAT, stratum: doc.stratum, tasks }) });
  }
  if (problems > 0) {
    process.stderr.write(
      `${problems} fact(s) whose evidence does not resolve to their value; nothing written\n`,
    );
    process.exitCode = 1;
    return;
  }
  for (const { path, text } of written) {
    if (dryRun) continue;
    writeFileAtomic(path, text);
    process.stdout.write(`wrote ${path}\n`);
  }
}

/** Every fact's evidence read back as `corpus check` reads it. */
function verify(task: Task, units: UnitConverter): number {
  const payloads = new Map<string, Record<string, unknown>>();
  for (const r of task.executor_fixture.responses)
    for (const s of r.observation.sources) payloads.set(s.source_id, s.payload);
  const reader = new EvidenceReader(payloads, units);
  let problems = 0;
  for (const fact of [...task.required_facts, ...task.forbidden_facts]) {
    const verdict = reader.check(fact.evidence, {
      key: fact.key,
      value: fact.value,
      unit: fact.unit ?? null,
      tolerance: task.numeric_tolerances[fact.key],
    });
    if (!verdict.ok) {
      problems++;
      process.stderr.write(`${task.semantic_task_id}: ${fact.key}: ${verdict.code}: ${verdict.message}\n`);
    }
  }
  return problems;
}

const args = process.argv.slice(2);
if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? "")).href)
  await main(args.find((a) => !a.startsWith("--")) ?? "tasks/authored", args.includes("--dry-run"));
