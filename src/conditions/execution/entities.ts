/**
 * The task's world: the entities it knows, so that an unscripted call about one of them is
 * answered as the service would answer for something that exists, never "not registered" right
 * after the same service returned it. A function of the task alone (its query and every response
 * of its fixture, returned or not), never of what a run has returned so far: the same call gets
 * the same bytes under every condition.
 *
 * An identifier the task knows is
 * - the value (a string, or an integer) of any field named `id`, `…_id` or `…Id` in any
 *   observation of any response (its result and its sources' payloads, at any depth);
 * - each item of a field named `…_ids` or `…Ids`;
 * - an id-shaped token in the query or in any string of those observations: upper-case letters
 *   and digits in at least two parts joined by `-` or `_`, at least one digit, starting with a
 *   letter (`MAT-1104-PE`, `P-2019-0443`, `EXP-40103`, `INS-5412-RH`; not `2026-03-19`, `TC-CTRL-A`).
 * A call's argument is also known when some observation holds the same value in a field of the
 * argument's own name (a `designation` a standard listed).
 *
 * A row is an object inside an array of an observation whose first id-named field (in the row's
 * own key order: its primary key) holds the identifier: a search hit, a list row. The first such
 * row in fixture order is the one a record route's reply is filled from.
 */
import type { Task } from "../../authoring/index.ts";

const ID_FIELD = /^(id|.+_id|.+[a-z]Id)$/;
const IDS_FIELD = /^(.+_ids|.+[a-z]Ids)$/;
const ID_TOKEN = /(?<![A-Za-z0-9_-])[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+(?![A-Za-z0-9_-])/g;

export type Row = Readonly<Record<string, unknown>>;

export interface TaskWorld {
  /** Every identifier the task knows (see above). */
  readonly identifiers: ReadonlySet<string>;
  /** Whether `value`, given as the argument `name`, names something the task knows. */
  knows(name: string, value: unknown): boolean;
  /** The first row whose primary key is `value`, or null. */
  rowOf(value: unknown): Row | null;
  /** Values of fields named `name` in the task's observations, fixture order: responses of `routeId` first, or (`only`) alone. */
  valuesOf(name: string, routeId: string, only?: boolean): readonly string[];
}

/** Id-shaped tokens of a text (see above). */
export function idTokens(text: string): string[] {
  return [...text.matchAll(ID_TOKEN)].map((m) => m[0]).filter((t) => /\d/.test(t));
}

const key = (value: unknown): string | null =>
  typeof value === "string" && value !== ""
    ? value
    : typeof value === "number" && Number.isInteger(value)
      ? String(value)
      : null;

interface Collected {
  readonly identifiers: Set<string>;
  readonly fields: Map<string, Array<{ value: string; routeId: string }>>;
  readonly rows: Map<string, Row>;
}

function visit(node: unknown, routeId: string, inArray: boolean, into: Collected): void {
  if (typeof node === "string") {
    for (const token of idTokens(node)) into.identifiers.add(token);
    return;
  }
  if (Array.isArray(node)) {
    for (const item of node) visit(item, routeId, true, into);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  let primary: string | null = null;
  for (const [name, value] of Object.entries(node)) {
    const text = key(value);
    if (text !== null) {
      const list = into.fields.get(name) ?? [];
      list.push({ value: text, routeId });
      into.fields.set(name, list);
    }
    if (ID_FIELD.test(name) && text !== null) {
      into.identifiers.add(text);
      primary ??= text;
    }
    if (IDS_FIELD.test(name) && Array.isArray(value))
      for (const item of value) {
        const id = key(item);
        if (id !== null) into.identifiers.add(id);
      }
    visit(value, routeId, false, into);
  }
  if (inArray && primary !== null && !into.rows.has(primary)) into.rows.set(primary, node as Row);
}

export function taskWorld(task: Task): TaskWorld {
  const into: Collected = { identifiers: new Set(idTokens(task.query)), fields: new Map(), rows: new Map() };
  for (const response of task.executor_fixture.responses)
    visit(response.observation, response.route_id, false, into);
  return {
    identifiers: into.identifiers,
    knows(name, value) {
      const text = key(value);
      if (text === null) return false;
      return into.identifiers.has(text) || (into.fields.get(name) ?? []).some((f) => f.value === text);
    },
    rowOf(value) {
      const text = key(value);
      return text === null ? null : (into.rows.get(text) ?? null);
    },
    valuesOf(name, routeId, only = false) {
      const all = into.fields.get(name) ?? [];
      const others = only ? [] : all.filter((f) => f.routeId !== routeId);
      return [...all.filter((f) => f.routeId === routeId), ...others].map((f) => f.value);
    },
  };
}
