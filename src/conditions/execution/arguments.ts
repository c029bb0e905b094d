/** Checking a call's arguments: against the endpoint's JSON Schema, then the fixture's rules. */
import type { ArgumentRule } from "../../authoring/index.ts";
import { jsonEqual, normalizeQuery } from "../../core/index.ts";
import type { Endpoint } from "../catalog/schema.ts";

export interface SchemaProblem {
  readonly code: "unexpected_arguments" | "missing_required_argument" | "invalid_type";
  readonly message: string;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  integer: (v) => typeof v === "number" && Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

/** Unexpected, then missing, then wrong-typed arguments (the executor's order). */
export function schemaProblem(endpoint: Endpoint, args: unknown): SchemaProblem | null {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return { code: "invalid_type", message: "arguments must be a JSON object" };
  const record = args as Record<string, unknown>;
  const { properties, required } = endpoint.parameters;
  const unexpected = Object.keys(record).filter((k) => !Object.hasOwn(properties, k));
  if (unexpected.length > 0)
    return { code: "unexpected_arguments", message: `unexpected argument(s): ${unexpected.join(", ")}` };
  const missing = required.filter((k) => !Object.hasOwn(record, k));
  if (missing.length > 0)
    return {
      code: "missing_required_argument",
      message: `missing required argument(s): ${missing.join(", ")}`,
    };
  for (const [key, value] of Object.entries(record)) {
    const type = (properties[key] as { type?: unknown } | undefined)?.type;
    const check = typeof type === "string" ? TYPE_CHECKS[type] : undefined;
    if (check && !check(value)) return { code: "invalid_type", message: `${key} must be ${type}` };
  }
  return null;
}

/**
 * Whether every argument satisfies its rule; `state` holds the values earlier responses revealed
 * (a `state` or `contains_state` rule on a name not yet revealed never holds).
 */
export function rulesHold(
  rules: Record<string, ArgumentRule>,
  args: Record<string, unknown>,
  state: ReadonlyMap<string, unknown>,
): boolean {
  return Object.entries(rules).every(([name, rule]) => {
    if (!Object.hasOwn(args, name)) return false;
    const value = args[name];
    if ("eq" in rule) return jsonEqual(value, rule.eq);
    if ("eq_text" in rule) return typeof value === "string" && sameText(value, rule.eq_text);
    if ("one_of" in rule) return rule.one_of.some((option) => jsonEqual(value, option));
    if ("nonempty" in rule) return nonEmpty(value);
    if ("state" in rule) return state.has(rule.state) && jsonEqual(value, state.get(rule.state));
    return (
      typeof value === "string" &&
      state.has(rule.contains_state) &&
      value.includes(String(state.get(rule.contains_state)))
    );
  });
}

/** Text equality after NFKC, whitespace collapsing and case folding (the corpus's query normaliser). */
export function sameText(a: string, b: string): boolean {
  return normalizeQuery(a) === normalizeQuery(b);
}

function nonEmpty(value: unknown): boolean {
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return value !== null && value !== undefined;
}
