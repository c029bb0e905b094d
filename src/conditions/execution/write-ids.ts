/**
 * The shape of the id a write reports when no response of the fixture matches it: the service's
 * own format, so an invented booking is `BK-4821` where the service's bookings are `BK-6308`, not
 * `BK-1D537790`. The shape is read where `{@id}` sits in the route's success template — the text
 * before it (`BK-`) and the field it fills (`booking_id`) — and then, in this order:
 *
 * 1. the task's own ids: a value of that field in a response of this route, as it is — its
 *    prefix replaces the template's (`JOB-88120` makes `EXP-{@id}` a `JOB-#####`); else the first
 *    value of a field of that name (any response, fixture order) that starts with the template's
 *    prefix, else the first identifier the task knows with that prefix followed by a digit;
 * 2. the catalog's examples: an `e.g. BK-6308` in any parameter's description;
 * 3. else five digits.
 *
 * The example's last run of digits becomes `#`s, one per digit, which the call's hash fills
 * (replies.ts): the same call, the same id. A function of the task and the catalog alone.
 */
import type { IdFormat } from "../catalog/replies.ts";
import type { Endpoint } from "../catalog/schema.ts";
import type { TaskWorld } from "./entities.ts";

const DEFAULT_SHAPE = "#####";
const ID_AT = /^(.*?)\{@id\}/;

/** Where `{@id}` first sits in a template: the field it fills and the text before it. */
function idSite(template: unknown, field: string | null): { field: string | null; prefix: string } | null {
  if (typeof template === "string") {
    const site = ID_AT.exec(template);
    // A literal prefix only (a placeholder before the id, `{project}-{@id}`, makes no fixed prefix).
    return site ? { field, prefix: /[{}]/.test(site[1] as string) ? "" : (site[1] as string) } : null;
  }
  if (Array.isArray(template)) {
    for (const item of template) {
      const found = idSite(item, field);
      if (found) return found;
    }
    return null;
  }
  if (typeof template === "object" && template !== null)
    for (const [name, value] of Object.entries(template)) {
      const found = idSite(value, name);
      if (found) return found;
    }
  return null;
}

/** `BK-6308` after `BK-` → `####`; `2026-0412` → `2026-####`; null when the rest has no digit. */
export function shapeOf(rest: string): string | null {
  const runs = [...rest.matchAll(/\d+/g)];
  const last = runs.at(-1);
  if (last === undefined) return null;
  return rest.slice(0, last.index) + "#".repeat(last[0].length) + rest.slice(last.index + last[0].length);
}

/** `e.g. BK-6308` style examples in the catalog's parameter descriptions, by prefix. */
export function catalogIdExamples(endpoints: readonly Endpoint[]): string[] {
  const examples: string[] = [];
  for (const e of endpoints)
    for (const schema of Object.values(e.parameters.properties)) {
      const text = typeof schema["description"] === "string" ? schema["description"] : "";
      for (const m of text.matchAll(/\b[A-Z][A-Z0-9]*-[A-Z0-9-]*\d[A-Z0-9]*\b/g)) examples.push(m[0]);
    }
  return examples;
}

export function writeIdFormat(
  endpoint: Endpoint,
  world: TaskWorld,
  catalogExamples: readonly string[],
): IdFormat {
  const site = idSite(endpoint.replies?.success, null);
  if (site === null) return { shape: DEFAULT_SHAPE };
  const { field, prefix } = site;
  // The route's own responses: the service's ids as they are, prefix included.
  const mine =
    field === null
      ? undefined
      : world.valuesOf(field, endpoint.route_id, true).find((v) => shapeOf(v) !== null);
  if (mine !== undefined && prefix !== "" && !mine.startsWith(prefix)) {
    const split = /^[A-Za-z]+[-_]?/.exec(mine)?.[0] ?? "";
    const shape = shapeOf(mine.slice(split.length));
    if (split !== "" && shape !== null) return { shape, prefix: { from: prefix, to: split } };
  }
  const fits = (value: string) => value.startsWith(prefix) && shapeOf(value.slice(prefix.length)) !== null;
  const own = field === null ? [] : world.valuesOf(field, endpoint.route_id).filter(fits);
  const known =
    prefix === "" ? [] : [...world.identifiers].filter((v) => fits(v) && /^\d/.test(v.slice(prefix.length)));
  const catalog = prefix === "" ? [] : catalogExamples.filter(fits);
  const example = own[0] ?? known[0] ?? catalog[0];
  return { shape: example === undefined ? DEFAULT_SHAPE : (shapeOf(example.slice(prefix.length)) as string) };
}
