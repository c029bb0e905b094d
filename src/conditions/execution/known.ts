/**
 * An unscripted read about an entity: answered from what the task's world knows (entities.ts).
 *
 * - The entity is known: a list, search, history or readings route answers its empty result (in
 *   its own list outputs); a record route answers its `exists` reply — the row a response of the
 *   task showed for the entity (a search hit, a list row) in the route's shape, else the route's
 *   shape with nothing recorded. Never not-found.
 * - The entity is unknown, and the route is keyed by an id (`…_id`): the route's not-found, even
 *   for a list route (a history of a material that does not exist is a 404, not an empty list).
 * - Anything else (no identifying argument, a write): null, and unmatched.ts answers as before.
 */
import { type IdFormat, unmatchedObservation } from "../catalog/replies.ts";
import type { Endpoint } from "../catalog/schema.ts";
import { type Row, type TaskWorld, taskWorld } from "./entities.ts";
import type { Task } from "../../authoring/index.ts";
import { catalogIdExamples, writeIdFormat } from "./write-ids.ts";

const ID_PARAM = /^(id|.+_id|.+[a-z]Id)$/;

/** What the replay knows about its task for unscripted calls: the entities and each route's id shape. */
export interface ReplyWorld {
  readonly entities: TaskWorld;
  idFormat(endpoint: Endpoint): IdFormat;
}

/** One world per task and catalog (a session's executor is rebuilt for every call). */
const worlds = new WeakMap<Task, WeakMap<readonly Endpoint[], ReplyWorld>>();

export function replyWorld(task: Task, endpoints: readonly Endpoint[]): ReplyWorld {
  const byCatalog = worlds.get(task) ?? new WeakMap<readonly Endpoint[], ReplyWorld>();
  worlds.set(task, byCatalog);
  let world = byCatalog.get(endpoints);
  if (world === undefined) {
    world = buildWorld(task, endpoints);
    byCatalog.set(endpoints, world);
  }
  return world;
}

function buildWorld(task: Task, endpoints: readonly Endpoint[]): ReplyWorld {
  const entities = taskWorld(task);
  let examples: string[] | undefined;
  const formats = new Map<string, IdFormat>();
  return {
    entities,
    idFormat(endpoint) {
      let format = formats.get(endpoint.route_id);
      if (format === undefined) {
        examples ??= catalogIdExamples(endpoints);
        // An id part some known identifier ends with is taken (`6308` while BK-6308 exists).
        const taken = (part: string) => [...entities.identifiers].some((known) => known.endsWith(part));
        format = { ...writeIdFormat(endpoint, entities, examples), taken };
        formats.set(endpoint.route_id, format);
      }
      return format;
    },
  };
}

/** The argument an unscripted read is about: a required id parameter given, else (a record route) the first required one given. */
function entityArgument(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): string | null {
  const given = endpoint.parameters.required.filter((name) => Object.hasOwn(args, name));
  const id = given.find((name) => ID_PARAM.test(name));
  if (id !== undefined) return id;
  return endpoint.replies?.unmatched === "not_found" ? (given[0] ?? null) : null;
}

/** The reply for a read about an entity, or null when this is not one (see above). */
export function knownEntityReply(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  world: ReplyWorld,
): Record<string, unknown> | null {
  const replies = endpoint.replies;
  if (!endpoint.read_only || replies === undefined) return null;
  const name = entityArgument(endpoint, args);
  if (name === null) return null;
  if (!world.entities.knows(name, args[name]))
    return ID_PARAM.test(name) && replies.not_found !== undefined
      ? unmatchedObservation(endpoint, args, undefined, "not_found")
      : null;
  if (replies.unmatched === "empty") return unmatchedObservation(endpoint, args, undefined, "empty");
  if (replies.exists === undefined) return null;
  const reply = unmatchedObservation(endpoint, args, undefined, "exists");
  // The row a response showed for the entity; else the record holds only the id it was asked by.
  const row = world.entities.rowOf(args[name]) ?? { [name]: args[name] };
  if (reply === null) return reply;
  const objects = new Set(endpoint.outputs.filter((o) => o.type === "object").map((o) => o.name));
  return { ...reply, result: withRow(reply["result"], row, objects) };
}

/** The exists body with the row put in: an empty object output becomes the row, a null field the row's own. */
function withRow(body: unknown, row: Row, objects: ReadonlySet<string>): unknown {
  if (Array.isArray(body) || typeof body !== "object" || body === null) return body;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const empty =
      typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
    if (empty && objects.has(name)) out[name] = { ...row };
    else if (value === null && Object.hasOwn(row, name)) out[name] = row[name];
    else out[name] = withRow(value, row, objects);
  }
  return out;
}
