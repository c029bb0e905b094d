/**
 * What a visible, schema-valid call that matches no fixture response receives: the reply that
 * route would give — the catalog's reply template for the route (`replies.unmatched`) when it has
 * one, else derived from the endpoint alone (its verb, its parameters, its outputs) and the
 * call's arguments — the same call, the same bytes, whatever the task or the condition. It never
 * mentions a task, a step or a script, so an agent learns nothing about the fixture from a miss:
 *
 * - a read about an entity answers from the task's world (known.ts): a known entity exists
 *   (an empty list, its row, an empty record), an unknown id is not found;
 * - a destructive route succeeds (in the replay it executes; the loop counts it as unauthorized),
 *   and the id it reports has the service's own format (write-ids.ts);
 * - a list or search route returns an empty list in its own list outputs;
 * - any other route answers not-found in its own words: `no material matches material_id 'X'`.
 */
import { unmatchedObservation } from "../catalog/replies.ts";
import type { Endpoint } from "../catalog/schema.ts";
import { knownEntityReply, type ReplyWorld } from "./known.ts";

/** The past tense a destructive verb reports as its status; other verbs report `done`. */
const DONE: Readonly<Record<string, string>> = {
  delete: "deleted",
  remove: "removed",
  purge: "purged",
  cancel: "cancelled",
  refund: "refunded",
  merge: "merged",
  restart: "restarted",
  update: "updated",
  revoke: "revoked",
  drop: "dropped",
};

const LIST_VERBS: ReadonlySet<string> = new Set(["list", "search"]);

/** The longest argument value a not-found message quotes (a long text is cut, deterministically). */
const MAX_QUOTED = 80;

export function unmatchedReply(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  world?: ReplyWorld,
): Record<string, unknown> {
  const known = world === undefined ? null : knownEntityReply(endpoint, args, world);
  if (known !== null) return known;
  // The catalog's own reply templates, in the route's own style, when the endpoint has them.
  const templated = unmatchedObservation(endpoint, args, world?.idFormat(endpoint));
  if (templated !== null) return templated;
  if (endpoint.destructive) return destructiveSuccess(endpoint, args);
  if (LIST_VERBS.has(endpoint.endpoint)) return emptyList(endpoint);
  return notFound(endpoint, args);
}

function destructiveSuccess(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  // The identifiers the call named, as a real API echoes what it acted on.
  for (const name of endpoint.parameters.required)
    if (name.endsWith("_id") && Object.hasOwn(args, name)) result[name] = args[name];
  for (const output of endpoint.outputs)
    if (output.name === "status" && output.type === "string")
      result["status"] = DONE[endpoint.endpoint] ?? "done";
  return { status: "ok", result, sources: [] };
}

function emptyList(endpoint: Endpoint): Record<string, unknown> {
  const lists = endpoint.outputs.filter((o) => o.type === "array");
  // A list route whose list output is typed loosely (a string of ids) still names it in the plural.
  const named = lists.length > 0 ? lists : endpoint.outputs.filter((o) => /[a-z]s$/.test(o.name));
  const result: Record<string, unknown> = {};
  for (const output of named) result[output.name] = [];
  if (named.length === 0) result["results"] = [];
  return { status: "ok", result, sources: [] };
}

function notFound(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const key = identifyingArgument(endpoint, args);
  const message =
    key === null
      ? `no ${nounOf(endpoint.tool)} record matches these arguments`
      : `no ${nounOf(key)} matches ${key} ${quoted(args[key])}`;
  return { status: "not_found", error: { code: "not_found", message } };
}

/** The argument a lookup is keyed by: the first required `…_id`, else the first required one given. */
function identifyingArgument(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): string | null {
  const given = (name: string) => Object.hasOwn(args, name);
  const required = endpoint.parameters.required.filter(given);
  return (
    required.find((name) => name.endsWith("_id")) ??
    required[0] ??
    Object.keys(endpoint.parameters.properties).find(given) ??
    null
  );
}

/** `material_id` → `material`, `item_name` → `item`, `aux_sensor_015` → `sensor`. */
function nounOf(name: string): string {
  const bare = name
    .replace(/^aux_/, "")
    .replace(/_\d+$/, "")
    .replace(/_(id|ids|name|uri)$/, "");
  return bare.replace(/_/g, " ") || name;
}

function quoted(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const cut = [...text].length > MAX_QUOTED ? `${[...text].slice(0, MAX_QUOTED).join("")}…` : text;
  return `'${cut}'`;
}
