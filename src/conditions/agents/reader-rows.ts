/**
 * What ties a row of a record to the request, for the careful reader: the quantities the request
 * and the field's description name (`264 psi`, `100 kPa`) found among the row's numbers after
 * conversion, and the identifiers the request names found in the row. Gold-free: it compares the
 * conversation's own text with the replies'.
 */
import { readNumber } from "../../authoring/index.ts";
import type { UnitConverter } from "../../core/index.ts";

export interface Quantity {
  readonly value: number;
  readonly unit: string | null;
}

/** Numbers a text holds with the unit token after each (`187.4 MPa`, `11,4 W/(m·K)`). */
export function numbersIn(text: string): Quantity[] {
  const found = [...text.matchAll(/(-?\d+(?:[.,]\d+)?)\s*([^\s\d,;:、。()（）]+)?/g)];
  return found.flatMap((m) => {
    const value = readNumber(m[1] ?? "");
    const unit = (m[2] ?? "").replace(/[).]+$/, "").replace(/[^\x00-\x7F°µμΩ·²³/%].*$/u, "") || null;
    return value === null ? [] : [{ value, unit }];
  });
}

/** A row's own numbers: its numeric members in the row's unit, and the quantities its strings spell. */
export function rowNumbers(row: Record<string, unknown>, unit: string | null): Quantity[] {
  const out: Quantity[] = [];
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === "number") out.push({ value: v, unit: unitNear(row, k) ?? unit });
    else if (typeof v === "string" && v.length <= 120 && !/^\d{4}-\d{2}-\d{2}/.test(v))
      out.push(...numbersIn(v));
  }
  return out;
}

function unitNear(row: Record<string, unknown>, key: string): string | null {
  for (const k of [`${key}_unit`, "unit", "units"]) if (typeof row[k] === "string") return row[k] as string;
  return null;
}

/** The quantities with a unit the request and a field's description name. */
export function askedQuantities(text: string, units: UnitConverter): Quantity[] {
  return numbersIn(text).filter((q) => q.unit !== null && units.convertible(q.unit, q.unit));
}

/** Whether the row holds one of the asked quantities (converted, within 0.5 %). */
export function rowHolds(
  row: readonly Quantity[],
  asked: readonly Quantity[],
  units: UnitConverter,
): boolean {
  return asked.some((q) =>
    row.some((r) => {
      if (r.unit === null || q.unit === null) return false;
      const v = units.convert(q.value, q.unit, r.unit);
      if (v === null) return false;
      return Math.abs(v - r.value) <= Math.max(Math.abs(r.value) * 0.005, 1e-9);
    }),
  );
}

/** Short forms a record's keys use for the words of a form (min for minimum). */
const SYNONYMS: Readonly<Record<string, string>> = {
  min: "minimum",
  max: "maximum",
  temp: "temperature",
  conc: "concentration",
  uncert: "uncertainty",
  lod: "detection",
  doi: "doi",
  uri: "uri",
  url: "url",
  cas: "cas",
};

/** What a record calls a quantity a form names by its meaning (the remaining mass is the quantity). */
const RECORD_WORDS: Readonly<Record<string, readonly string[]>> = {
  remaining: ["quantity"],
  mass: ["quantity"],
  volume: ["quantity"],
  amount: ["quantity"],
  stock: ["quantity"],
  lead: ["lead"],
  cost: ["price"],
  price: ["price"],
  lot: ["lot"],
  expiry: ["expires"],
  expiration: ["expires"],
  uncertainty: ["uncertainty"],
  deviation: ["offset", "error"],
  error: ["offset"],
  doi: ["doi"],
  licence: ["license"],
  state: ["status"],
  status: ["state"],
  // Keys a form writes in its own language (es, de): the record's English.
  estado: ["state", "status"],
  ruta: ["uri", "path", "location"],
  fichero: ["file"],
  archivo: ["file"],
  filas: ["rows", "row"],
  reserva: ["booking", "reservation"],
  mensaje: ["message"],
  tamano: ["size"],
  trabajo: ["job"],
  fallido: ["failed"],
  suma: ["sha256", "checksum"],
  angebotsnummer: ["quote"],
  buchung: ["booking"],
  freigabe: ["share"],
  laufender: ["current", "running"],
  zustand: ["state", "status"],
  datei: ["file"],
  groesse: ["size"],
};

/** Words with their long forms and a record's names for them added. */
export function withSynonyms(words: readonly string[]): string[] {
  return words.flatMap((w) => [
    w,
    ...(SYNONYMS[w] !== undefined && SYNONYMS[w] !== w ? [SYNONYMS[w]] : []),
    ...(RECORD_WORDS[w] ?? []).filter((r) => r !== w),
  ]);
}
