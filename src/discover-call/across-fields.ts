/**
 * Rules that compare fields of one object (unique ids, "failed ⇔ error"). zod skips such rules
 * once a field has a problem of its own; these run anyway, on any object, so one pass over a file
 * reports both — and so they read the value as unchecked JSON and skip what is not there.
 */
import type { z } from "zod";

export type Json = Record<string, unknown>;
type Report = (path: PropertyKey[], message: string) => void;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The two arguments of `.superRefine(...)` for `rule`. */
export function acrossFields<T>(rule: (value: Json, report: Report) => void) {
  return [
    (value: T, ctx: z.RefinementCtx<T>) =>
      rule(value as Json, (path, message) => ctx.addIssue({ code: "custom", path, message })),
    { when: (payload: { value: unknown }) => isObject(payload.value) },
  ] as const;
}
