/**
 * What the conversation shows a fixture-following agent (the reference agent and the probes): the
 * fixture responses among the tool results, their records, the state they revealed and the calls
 * already made. Read from the conversation alone, so a fake model server can play the same turn.
 */
import type { FixtureResponse, Task } from "../../authoring/index.ts";
import { jsonEqual, resolvePointer } from "../../core/index.ts";
import type { AgentTurnRequest } from "./types.ts";

export interface Observed {
  /** Ids of the fixture responses whose observation came back as a tool result. */
  readonly returned: ReadonlySet<string>;
  /** source_id → payload; a required response's record wins over another with the same id. */
  readonly sources: ReadonlyMap<string, unknown>;
  readonly state: ReadonlyMap<string, unknown>;
  /** source_id → the route of the tool result its kept record came in (`materials.current`). */
  readonly routes: ReadonlyMap<string, string>;
  /** The source ids some required response showed (a record no twin of it can displace). */
  readonly required: ReadonlySet<string>;
  /** Every tool result that parsed as JSON, in the order received. */
  readonly results: readonly unknown[];
}

/** `materials__current` → `materials.current` (a function name is `{tool}__{endpoint}`). */
export function routeOfFunction(name: string): string {
  return name.replace("__", ".");
}

/** `materials.current` → `materials__current`. */
export function functionOfRoute(routeId: string): string {
  return routeId.replace(".", "__");
}

/** The fixture responses among the tool results, their records and what they revealed. */
export function readResults(task: Task, request: AgentTurnRequest): Observed {
  const returned = new Set<string>();
  const sources = new Map<string, unknown>();
  const others = new Map<string, unknown>();
  const routes = new Map<string, string>();
  const otherRoutes = new Map<string, string>();
  const state = new Map<string, unknown>();
  const results: unknown[] = [];
  for (const message of request.messages) {
    if (message.role !== "tool") continue;
    let result: unknown;
    try {
      result = JSON.parse(message.content) as unknown;
    } catch {
      continue;
    }
    results.push(result);
    const response = fixtureResponseOf(task, routeOfFunction(message.name), result);
    const records = (result as { sources?: unknown } | null)?.sources;
    for (const record of Array.isArray(records) ? records : []) {
      const { source_id, payload } = (record ?? {}) as { source_id?: unknown; payload?: unknown };
      if (typeof source_id !== "string") continue;
      const required = response?.required === true;
      const into = required ? sources : others;
      if (!into.has(source_id)) {
        into.set(source_id, payload);
        (required ? routes : otherRoutes).set(source_id, routeOfFunction(message.name));
      }
    }
    if (response === undefined) continue;
    returned.add(response.id);
    for (const [name, pointer] of Object.entries(response.reveals ?? {})) {
      const found = resolvePointer(result, pointer);
      if (found.found) state.set(name, found.value);
    }
  }
  const required = new Set(sources.keys());
  for (const [id, payload] of others)
    if (!sources.has(id)) {
      sources.set(id, payload);
      routes.set(id, otherRoutes.get(id) as string);
    }
  return { returned, sources, state, routes, required, results };
}

/**
 * The fixture response a tool result is: the one with these very bytes, else the one of this route
 * that returned the same records (the replay returns a response as the call asked for it — values
 * in the unit the call named, a search's echo of the query sent — so the bytes may differ).
 */
function fixtureResponseOf(task: Task, route: string, result: unknown): FixtureResponse | undefined {
  const responses = task.executor_fixture.responses;
  const exact = responses.find((r) => jsonEqual(r.observation, result));
  if (exact !== undefined) return exact;
  const ids = (value: unknown) => {
    const records = (value as { sources?: unknown } | null)?.sources;
    return Array.isArray(records) ? records.map((s) => (s as { source_id?: unknown } | null)?.source_id) : [];
  };
  const got = ids(result);
  if (got.length === 0) return undefined;
  return responses.find((r) => r.route_id === route && jsonEqual(ids(r.observation), got));
}

/** Whether every piece of state a response's rules name was revealed. */
export function stateAvailable(response: FixtureResponse, state: ReadonlyMap<string, unknown>): boolean {
  return Object.values(response.argument_rules).every((rule) =>
    "state" in rule
      ? state.has(rule.state)
      : "contains_state" in rule
        ? state.has(rule.contains_state)
        : "fits_slot" in rule
          ? state.has(rule.fits_slot.slots)
          : true,
  );
}

/** Whether an earlier assistant turn already made this call (same function, same arguments). */
export function alreadyCalled(request: AgentTurnRequest, name: string, args: unknown): boolean {
  return request.messages.some(
    (m) =>
      m.role === "assistant" && m.tool_calls.some((c) => c.name === name && jsonEqual(c.arguments, args)),
  );
}
