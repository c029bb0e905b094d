/**
 * Quick checks in front of a zod schema (#35): for a large, common input (1,440 run records, a
 * summary's episode scores) a hand-written check is several times faster than zod. A quick check
 * accepts only what its schema accepts AND what the schema would hand back unchanged — every key
 * of a strict object in the schema's own order, no key zod would drop — and otherwise answers
 * "not sure", so the caller parses with zod, which accepts the rest and words every refusal.
 */
import type { z } from "zod";

export type Check = (value: unknown) => boolean;

const SHA = /^[0-9a-f]{64}$/;
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const str: Check = (v) => typeof v === "string";
export const num: Check = (v) => typeof v === "number" && Number.isFinite(v);
export const int: Check = (v) => Number.isSafeInteger(v);
export const positive: Check = (v) => int(v) && (v as number) > 0;
export const nonnegative: Check = (v) => int(v) && (v as number) >= 0;
export const sha: Check = (v) => typeof v === "string" && SHA.test(v);
export const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
export const oneOf =
  (...values: readonly unknown[]): Check =>
  (v) =>
    values.includes(v);
export const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
/** A z.record's object: zod copies its own keys and drops a `__proto__` one, so that one is "not sure". */
export const plainRecord =
  (check: Check): Check =>
  (v) =>
    isObject(v) && !Object.hasOwn(v, "__proto__") && Object.values(v).every(check);
export const anything: Check = () => true;

/** The object shape inside a schema (through its optional, nullable and array wrappers). */
function shapeOf(schema: unknown): z.ZodRawShape {
  let at = schema as { shape?: z.ZodRawShape; _zod: { def: { innerType?: unknown; element?: unknown } } };
  while (at.shape === undefined) at = (at._zod.def.innerType ?? at._zod.def.element) as typeof at;
  return at.shape;
}

/**
 * A strict object's check: its keys exactly the shape's, in the shape's order (optional ones may be
 * absent), each value passing its check.
 */
export function strict(
  schema: unknown,
  checks: Record<string, Check>,
  optional: readonly string[] = [],
): Check {
  const keys = Object.keys(shapeOf(schema));
  // The checks must name the schema's keys exactly: a field added to the schema and not here fails loudly.
  if (keys.join() !== Object.keys(checks).join())
    throw new Error(`quick check: checks ${Object.keys(checks).join()} are not the schema's ${keys.join()}`);
  return (v) => {
    if (!isObject(v)) return false;
    let at = 0;
    for (const key in v) {
      while (at < keys.length && keys[at] !== key) {
        if (!optional.includes(keys[at] as string)) return false;
        at++;
      }
      if (at === keys.length || !(checks[key] as Check)(v[key])) return false;
      at++;
    }
    for (; at < keys.length; at++) if (!optional.includes(keys[at] as string)) return false;
    return true;
  };
}
