/**
 * A unit parameter that does what it says: a matched response returned for a call that names a
 * unit (`unit_system: "US_customary"`, `temperature_unit: "degF"`) comes back with its values in
 * that unit. The call must name it: a call that omits the parameter (or asks `as_recorded`) gets the
 * recorded bytes unchanged; one that names a unit gets every convertible value in it, even where
 * the recorded unit differs from the parameter's default (a logger that records kelvin answers
 * `degC` in °C). The shapes the services use:
 *
 * - a row with its own unit: `{…, "value": 203.6, "unit": "degC"}` (also `min`/`max`/`mean`/
 *   `typical_value`…): the numbers and the unit;
 * - a record with one shared `unit` and rows without one (`readings`, `revisions`, `entries`,
 *   `values`): every row's numbers and the shared unit;
 * - a number beside its own unit field: `test_temperature` with `test_temperature_unit`.
 *
 * A value whose unit does not convert stays as recorded, with its unit (truthful); a payload's
 * own `unit_system` field then says what was asked. Source ids never change, and the task's
 * evidence payloads stay as recorded (the scorer converts units). Same call, same bytes.
 */
import type { Endpoint } from "../catalog/schema.ts";
import { convertValue, type Target, targetOf, unitParameters } from "./unit-systems.ts";

const NUMBER_FIELDS = [
  "value",
  "min",
  "max",
  "mean",
  "median",
  "typical_value",
  "nominal",
  "minimum",
  "maximum",
];

type Json = unknown;

/** The target the call names, or null (no unit parameter given, or `as_recorded`). */
export function requestedTarget(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): Target | null {
  for (const name of unitParameters(endpoint.parameters.properties))
    if (Object.hasOwn(args, name)) {
      const target = targetOf(args[name]);
      if (target !== null) return target;
    }
  return null;
}

/** The numbers of `row` named in NUMBER_FIELDS, converted from `unit`; null when none converts. */
function convertNumbers(
  row: Record<string, Json>,
  unit: string,
  target: Target,
): { row: Record<string, Json>; unit: string } | null {
  let label: string | null = null;
  const out: Record<string, Json> = { ...row };
  for (const field of NUMBER_FIELDS) {
    const value = row[field];
    if (typeof value !== "number") continue;
    const converted = convertValue(value, unit, target);
    if (converted === null) return null;
    out[field] = converted.value;
    label = converted.unit;
  }
  return label === null ? null : { row: out, unit: label };
}

function convertNode(node: Json, target: Target, shared: string | null): Json {
  if (Array.isArray(node)) return node.map((item) => convertNode(item, target, shared));
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, Json>;
  const own = typeof record["unit"] === "string" ? (record["unit"] as string) : null;
  let out: Record<string, Json> = { ...record };
  // A row with its own unit, or a row without one inside a record whose unit it shares.
  const unit = own ?? shared;
  if (unit !== null) {
    const converted = convertNumbers(out, unit, target);
    if (converted !== null) {
      out = converted.row;
      if (own !== null) out["unit"] = converted.unit;
    }
  }
  for (const [name, value] of Object.entries(record)) {
    const unitField = record[`${name}_unit`];
    if (typeof value === "number" && typeof unitField === "string") {
      const converted = convertValue(value, unitField, target);
      if (converted !== null) {
        out[name] = converted.value;
        out[`${name}_unit`] = converted.unit;
      }
    } else if (typeof value === "object" && value !== null)
      out[name] = convertNode(value, target, own !== null && Array.isArray(value) ? own : null);
  }
  // The shared unit itself, when its rows' numbers converted.
  if (own !== null && shared === null && !NUMBER_FIELDS.some((f) => typeof record[f] === "number")) {
    const probe = convertValue(1, own, target);
    if (probe !== null) out["unit"] = probe.unit;
  }
  return out;
}

/** The observation as the call's unit parameter asks; the same object when it asks for nothing. */
export function convertObservation(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  observation: Record<string, unknown>,
): Record<string, unknown> {
  const target = requestedTarget(endpoint, args);
  if (target === null) return observation;
  const sources = observation["sources"];
  if (!Array.isArray(sources)) return observation;
  const result = observation["result"];
  return {
    ...observation,
    ...(result === undefined ? {} : { result: convertNode(result, target, null) }),
    sources: sources.map((source: Record<string, unknown>) => {
      const payload = convertNode(source["payload"], target, null) as Record<string, unknown>;
      for (const name of unitParameters(endpoint.parameters.properties))
        if (Object.hasOwn(payload, name) && Object.hasOwn(args, name)) payload[name] = args[name];
      return { ...source, payload };
    }),
  };
}
