/**
 * Whether a trial's parameters carry the task's facts (§6): constraint accuracy and
 * required-parameter accuracy, computed from the raw parameters. Public records carry these two
 * shares as attestations instead; they were computed here, before the values were removed.
 */
import type { Constraint, DiscoverCallTask } from "./tasks.ts";

type Parameters = Readonly<Record<string, unknown>>;

/** Supplied means an own key whose value is not null or "" (an inherited `toString` is not a parameter). */
export function supplied(parameters: Parameters, name: string): boolean {
  if (!Object.hasOwn(parameters, name)) return false;
  const value = parameters[name];
  return value !== undefined && value !== null && value !== "";
}

/** The mean of 0/1 or share values, summed in order; nothing to average counts as complete. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 1;
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}

/** Share of required names, and of one-of groups (any member counts), that are supplied. */
export function requiredParameterAccuracy(
  required: ReadonlyArray<string | readonly string[]>,
  parameters: Parameters,
): number {
  return mean(
    required.map((requirement) =>
      (typeof requirement === "string" ? [requirement] : requirement).some((name) =>
        supplied(parameters, name),
      )
        ? 1
        : 0,
    ),
  );
}

/** Share of the task's constraints that some accepted alias carries. */
export function constraintAccuracy(task: DiscoverCallTask, parameters: Parameters): number {
  return mean(task.constraints.map((constraint) => (constraintMet(parameters, constraint, task) ? 1 : 0)));
}

export function constraintMet(
  parameters: Parameters,
  constraint: Constraint,
  task: DiscoverCallTask,
): boolean {
  const expected = normalize(constraint.value, constraint);
  for (const alias of constraint.aliases) {
    if (!supplied(parameters, alias)) continue;
    const actual = normalize(parameters[alias], constraint);
    if (constraint.match === "contains" ? actual.includes(expected) : actual === expected) return true;
    // Provider-specific values (a numeric coin id) are exact even under `contains`.
    const table = constraint.alias_values ?? {};
    const accepted = Object.hasOwn(table, alias) ? (table[alias] ?? []) : [];
    if (accepted.some((value) => actual === normalize(value, constraint))) return true;
  }
  for (const alias of constraint.composite_aliases ?? []) {
    if (!supplied(parameters, alias)) continue;
    if (compositeForms(task, alias).has(normalize(parameters[alias], constraint))) return true;
  }
  return false;
}

/**
 * The exact ways one parameter may carry several constraints at once: their values in task
 * order, joined by nothing or one separator. Reversed pairs (EUR/USD) and longer strings
 * (USDT/EUR) do not match, which is why this is equality and not `contains`.
 */
function compositeForms(task: DiscoverCallTask, alias: string): Set<string> {
  const values = task.constraints
    .filter((c) => c.composite_aliases?.includes(alias) === true)
    .map((c) => normalize(c.value, c));
  return new Set(["", "/", "-", "_", ":", " "].map((separator) => values.join(separator)));
}

/**
 * The comparable text of a value: strings trimmed and lower-cased (then URL-decoded when the
 * constraint asks), numbers and booleans as `String(v)`, anything else as its JSON.
 */
export function normalize(value: unknown, constraint: Pick<Constraint, "normalizers">): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") return JSON.stringify(value);
  let text = value.trim().toLowerCase();
  // Each listed normalizer applies once, in order, so a repeated url_decode decodes again.
  for (const normalizer of constraint.normalizers ?? [])
    if (normalizer === "url_decode") text = urlDecode(text);
  return text;
}

/**
 * `+` as a space, then percent-decoding until the text stops changing, at most twice (a value
 * may arrive encoded once or twice), stopping at the first sequence that does not decode. The
 * decoded text is not lower-cased again: `%41` stays `A`, as the reference scores it.
 */
export function urlDecode(text: string): string {
  let decoded = text.replace(/\+/g, " ");
  for (let round = 0; round < 2; round++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}
