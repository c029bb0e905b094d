/**
 * What a unit parameter asks for — a unit system (`SI`, `US_customary`, `metric`, `imperial`) or a
 * temperature unit (`degC`, `K`, `degF`) — and the conversion of one recorded value into it. Pure
 * and synchronous (the replay answers a call without awaiting mathjs): a small table of exact
 * factors per dimension, looked up by the unit table's canonical spelling, so `degC`, `°C` and
 * `℃` are one unit. A test checks every factor against the mathjs converter the scorer uses.
 *
 * A unit the table does not hold (%, eV, S/cm, a hardness scale, 1/K), or one already in the
 * system asked for, is left as recorded: the reply stays truthful, and says its unit.
 */
import { canonicalUnit } from "../../core/index.ts";

export type Target = { readonly system: "SI" | "US" } | { readonly temperature: "°C" | "K" | "°F" };

/** A unit of one dimension: its factor to the dimension's base, and where each system sends it. */
interface Linear {
  readonly dimension: string;
  readonly factor: number;
  /** The label a value converted to this unit is given (ASCII, as the services write units). */
  readonly label: string;
  readonly si?: string;
  readonly us?: string;
}

const PSI = 6894.757293168361;
const LB = 0.45359237;
const INCH = 0.0254;

/** Keyed by canonical spelling (unit-table.ts). `si`/`us`: the canonical unit each system uses instead. */
const LINEAR: Readonly<Record<string, Linear>> = {
  // stress and pressure (Pa)
  GPa: { dimension: "pressure", factor: 1e9, label: "GPa", us: "ksi" },
  MPa: { dimension: "pressure", factor: 1e6, label: "MPa", us: "ksi" },
  "N/mm²": { dimension: "pressure", factor: 1e6, label: "N/mm2", us: "ksi" },
  kPa: { dimension: "pressure", factor: 1e3, label: "kPa", us: "psi" },
  hPa: { dimension: "pressure", factor: 100, label: "hPa", us: "psi" },
  Pa: { dimension: "pressure", factor: 1, label: "Pa", us: "psi" },
  bar: { dimension: "pressure", factor: 1e5, label: "bar", si: "kPa", us: "psi" },
  mbar: { dimension: "pressure", factor: 100, label: "mbar", si: "hPa", us: "psi" },
  ksi: { dimension: "pressure", factor: 1000 * PSI, label: "ksi", si: "MPa" },
  psi: { dimension: "pressure", factor: PSI, label: "psi", si: "kPa" },
  // density (kg/m³)
  "g/cm³": { dimension: "density", factor: 1000, label: "g/cm3", us: "lb/in^3" },
  "g/mL": { dimension: "density", factor: 1000, label: "g/mL", us: "lb/in^3" },
  "kg/m³": { dimension: "density", factor: 1, label: "kg/m3", us: "lb/ft^3" },
  "lb/in^3": { dimension: "density", factor: LB / INCH ** 3, label: "lb/in3", si: "g/cm³" },
  "lb/ft^3": { dimension: "density", factor: LB / (12 * INCH) ** 3, label: "lb/ft3", si: "kg/m³" },
  // thermal conductivity (W/(m·K)); BTU is the International Table BTU, 1055.05585262 J
  "W/(m·K)": { dimension: "conductivity", factor: 1, label: "W/(m*K)", us: "BTU/(h*ft*degF)" },
  "mW/(m·K)": { dimension: "conductivity", factor: 1e-3, label: "mW/(m*K)", us: "BTU/(h*ft*degF)" },
  "BTU/(h*ft*degF)": {
    dimension: "conductivity",
    factor: 1055.05585262 / (3600 * 12 * INCH * (5 / 9)),
    label: "BTU/(h*ft*degF)",
    si: "W/(m·K)",
  },
  // energy (J)
  J: { dimension: "energy", factor: 1, label: "J", us: "ft·lbf" },
  kJ: { dimension: "energy", factor: 1000, label: "kJ", us: "ft·lbf" },
  ft·lbf: { dimension: "energy", factor: 12 * INCH * LB * 9.80665, label: "ft*lbf", si: "J" },
  // force (N), mass (kg), length (m), corrosion rate (m/year)
  N: { dimension: "force", factor: 1, label: "N", us: "lbf" },
  kN: { dimension: "force", factor: 1000, label: "kN", us: "lbf" },
  lbf: { dimension: "force", factor: LB * 9.80665, label: "lbf", si: "N" },
  kg: { dimension: "mass", factor: 1, label: "kg", us: "lb" },
  g: { dimension: "mass", factor: 1e-3, label: "g", us: "lb" },
  lb: { dimension: "mass", factor: LB, label: "lb", si: "kg" },
  mm: { dimension: "length", factor: 1e-3, label: "mm", us: "in" },
  in: { dimension: "length", factor: INCH, label: "in", si: "mm" },
  "mm/year": { dimension: "rate", factor: 1e-3, label: "mm/year", us: "mil/year" },
  "µm/year": { dimension: "rate", factor: 1e-6, label: "um/year", us: "mil/year" },
  "mil/year": { dimension: "rate", factor: INCH / 1000, label: "mil/year", si: "mm/year" },
};

/** Temperatures convert on their scales, offset included (a reading is a point, not a difference). */
const TO_KELVIN: Readonly<Record<string, (v: number) => number>> = {
  "°C": (v) => v + 273.15,
  K: (v) => v,
  "°F": (v) => ((v - 32) * 5) / 9 + 273.15,
};
const FROM_KELVIN: Readonly<Record<string, (k: number) => number>> = {
  "°C": (k) => k - 273.15,
  K: (k) => k,
  "°F": (k) => ((k - 273.15) * 9) / 5 + 32,
};
const TEMPERATURE_LABEL: Readonly<Record<string, string>> = { "°C": "degC", K: "K", "°F": "degF" };

/** What a unit parameter's value asks for; null for `as_recorded` or a value this does not know. */
export function targetOf(value: unknown): Target | null {
  if (typeof value !== "string") return null;
  if (value === "SI" || value === "metric") return { system: "SI" };
  if (value === "US_customary" || value === "imperial") return { system: "US" };
  const unit = canonicalUnit(value);
  return unit === "°C" || unit === "K" || unit === "°F" ? { temperature: unit } : null;
}

/** The parameters of a route that select the unit of its reply. */
export function unitParameters(
  parameters: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): string[] {
  return Object.entries(parameters)
    .filter(
      ([name, schema]) =>
        /^(unit_system|units|temperature_unit)$/.test(name) && Array.isArray(schema["enum"]),
    )
    .map(([name]) => name);
}

/** Significant digits of a number as written (`211.9` → 4, `0.05` → 1; an integer's every digit: `2770` → 4). */
export function significantDigits(value: number): number {
  const magnitude = Math.abs(value);
  if (Number.isInteger(magnitude) && magnitude < 1e15)
    return Math.max(1, String(magnitude).replace(/^0$/, "0").length);
  const digits = magnitude
    .toExponential()
    .replace(/e.*$/, "")
    .replace(/[^0-9]/g, "");
  return Math.max(1, digits.length);
}

/** Decimal places of a number as written (`203.6` → 1, `25` → 0). */
function decimals(value: number): number {
  const text = String(value);
  return /e/i.test(text) ? 6 : (text.split(".")[1] ?? "").length;
}

/** A linear conversion keeps the recorded significant digits plus one: deterministic, no false precision. */
function rounded(converted: number, recorded: number): number {
  return Number(converted.toPrecision(Math.min(significantDigits(recorded) + 1, 15)));
}

/** A temperature moves its zero, so its precision is in decimal places: the recorded ones plus one. */
function roundedTemperature(converted: number, recorded: number): number {
  const scale = 10 ** Math.min(decimals(recorded) + 1, 10);
  // Through 12 significant digits first, so 298.15 (a float just below it) rounds half up to 298.2.
  const value = Math.round(Number((converted * scale).toPrecision(12))) / scale;
  return Object.is(value, -0) ? 0 : value;
}

/** `value` in `unit` expressed as `target` asks, with its new label; null when it stays as recorded. */
export function convertValue(
  value: number,
  unit: string,
  target: Target,
): { value: number; unit: string } | null {
  const from = canonicalUnit(unit);
  if ("temperature" in target) {
    const toK = TO_KELVIN[from];
    if (toK === undefined || from === target.temperature) return null;
    const fromK = FROM_KELVIN[target.temperature] as (k: number) => number;
    return {
      value: roundedTemperature(fromK(toK(value)), value),
      unit: TEMPERATURE_LABEL[target.temperature] as string,
    };
  }
  if (from in TO_KELVIN) {
    const to = target.system === "US" ? (from === "°F" ? null : "°F") : from === "°F" ? "°C" : null;
    return to === null ? null : convertValue(value, unit, { temperature: to });
  }
  const source = LINEAR[from];
  const to = source === undefined ? undefined : target.system === "US" ? source.us : source.si;
  const dest = to === undefined ? undefined : LINEAR[to];
  if (source === undefined || dest === undefined) return null;
  return { value: rounded((value * source.factor) / dest.factor, value), unit: dest.label };
}

/** Every conversion the table makes (not temperatures), with its exact factor: for the test against mathjs. */
export function conversionPairs(): Array<{ from: string; to: string; factor: number }> {
  return Object.values(LINEAR).flatMap((u) =>
    [u.si, u.us]
      .filter((t) => t !== undefined)
      .map((t) => {
        const dest = LINEAR[t] as Linear;
        return { from: u.label, to: dest.label, factor: u.factor / dest.factor };
      }),
  );
}
