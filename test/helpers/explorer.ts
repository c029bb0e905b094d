/**
 * The explorer (issue #32's acceptance: "an explorer that calls every visible route with every
 * identifier it has seen meets 0 replies that deny a known entity and 0 identifiers in a foreign
 * format"). It drives the replay executor directly, every route visible: for each identifier it
 * has seen (the request's, then each reply's, in the order seen), each route with an id-taking
 * parameter gets one call with that id there and schema-valid placeholders for the other required
 * parameters. It counts
 *
 * - denials: a reply to a call that matched no fixture response which says not-found about an id
 *   the task knows (in its request or any response's observation) and of the kind the parameter
 *   takes (the prefix of the example id its description shows); `anyDenials` counts every kind;
 * - foreign ids: an identifier in a write route's reply, not known to the task and not sent in the
 *   call, whose family (leading letter segments) the task shows but in no id of the same shape
 *   (letters → A, digits → 9: `BK-1D537790` against the task's `BK-6308`).
 */
import type { Task } from "../../src/authoring/index.ts";
import type { Endpoint } from "../../src/conditions/catalog/index.ts";
import { ReplayExecutor, type Attempt } from "../../src/conditions/execution/index.ts";

export interface ExplorerCase {
  readonly task: string;
  readonly route: string;
  readonly id: string;
}

export interface ExplorerCounts {
  readonly calls: number;
  /** Not-found replies about a known id of the kind the parameter takes (its example's prefix). */
  readonly denials: readonly ExplorerCase[];
  /** Not-found replies about any known id, of whatever kind (a material id sent to a paper route too). */
  readonly anyDenials: readonly ExplorerCase[];
  readonly foreign: readonly ExplorerCase[];
}

/** Identifier-shaped tokens: capitals and digits in hyphenated parts, with a digit (MAT-4471-TI, BK-6308). */
export function idsIn(text: string): string[] {
  const found = text.match(/\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b/g) ?? [];
  return [...new Set(found.filter((t) => /\d/.test(t)))];
}

export const prefixOf = (id: string): string => id.split("-")[0] ?? id;

/**
 * An id's family: its leading all-letter segments (`BK` of BK-6308, `BK-LIST` of the record id
 * BK-LIST-3333, `SBX-ART` of SBX-ART-6701-3), so a record id or another entity that shares the
 * first segment is not the format a write's new id is compared with.
 */
export function familyOf(id: string): string {
  const letters: string[] = [];
  for (const part of id.split("-")) {
    if (!/^[A-Z]+$/.test(part)) break;
    letters.push(part);
  }
  return letters.join("-");
}

/** `BK-6308` → `AA-9999`: each letter A, each digit 9 (so the prefix and every digit count). */
export function idShape(id: string): string {
  return id.replace(/[A-Z]/g, "A").replace(/[0-9]/g, "9");
}

/** Every identifier the task knows: its request's and every fixture observation's. */
export function knownIds(task: Task): Set<string> {
  const texts = [task.query, ...task.executor_fixture.responses.map((r) => JSON.stringify(r.observation))];
  return new Set(texts.flatMap(idsIn));
}

// A bare 404 only: the digits inside ART-6404 are not a status.
const DENIAL =
  /not[ _-]?found|not registered|no such|does not exist|unknown|cannot be|\b404\b|no [a-z ]+ matches/i;

/** Whether a reply says not-found about this id (it names the id and speaks of absence). */
export function denies(observation: unknown, id: string): boolean {
  const text = JSON.stringify(observation);
  return text.includes(id) && DENIAL.test(text) && !/"sources":\[\{/.test(text);
}

/** The ids of a write reply in a format the task never uses for their prefix. */
export function foreignIds(observation: unknown, known: ReadonlySet<string>, sent: unknown): string[] {
  const echoed = new Set(idsIn(JSON.stringify(sent ?? {})));
  return idsIn(JSON.stringify(observation)).filter((id) => {
    if (known.has(id) || echoed.has(id)) return false;
    const same = [...known].filter((k) => familyOf(k) === familyOf(id));
    return same.length > 0 && !same.some((k) => idShape(k) === idShape(id));
  });
}

interface Schema {
  readonly properties?: Record<
    string,
    { type?: string; enum?: unknown[]; format?: string; minimum?: number; description?: string }
  >;
  readonly required?: readonly string[];
}

/** The id-taking parameter of a route: the first required `…_id`, else any `…_id`, else one described as an identifier. */
export function idParameter(endpoint: Endpoint): string | null {
  const schema = endpoint.parameters as Schema;
  const names = Object.keys(schema.properties ?? {});
  const ids = names.filter((n) => n.endsWith("_id"));
  const required = new Set(schema.required ?? []);
  return (
    ids.find((n) => required.has(n)) ??
    ids[0] ??
    names.find((n) => /\bidentifier\b/i.test(schema.properties?.[n]?.description ?? "")) ??
    null
  );
}

/** The prefixes of the example ids a parameter's description shows (`e.g. MAT-4471-TI` → MAT). */
export function examplePrefixes(endpoint: Endpoint, param: string): Set<string> {
  const schema = endpoint.parameters as Schema;
  return new Set(idsIn(schema.properties?.[param]?.description ?? "").map(prefixOf));
}

/** A schema-valid placeholder for a parameter the explorer has no value for. */
function placeholder(p: NonNullable<Schema["properties"]>[string]): unknown {
  if (p.enum !== undefined) return p.enum[0];
  if (p.type === "integer" || p.type === "number") return p.minimum ?? 1;
  if (p.type === "boolean") return false;
  if (p.type === "array") return [];
  if (p.type === "object") return {};
  if (p.format === "date-time") return "2026-03-10T10:00:00Z";
  if (p.format === "date") return "2026-03-10";
  return "x";
}

function argumentsFor(endpoint: Endpoint, param: string, id: string): Record<string, unknown> {
  const schema = endpoint.parameters as Schema;
  const args: Record<string, unknown> = { [param]: id };
  for (const name of schema.required ?? [])
    if (!(name in args)) args[name] = placeholder(schema.properties?.[name] ?? {});
  return args;
}

/** What the explorer calls: the replay executor, or a fake in the counter's own test. */
export type Executor = Pick<ReplayExecutor, "call">;

/** One task explored under full visibility; the cases found, each (route, id) once. */
export function exploreTask(
  task: Task,
  endpoints: readonly Endpoint[],
  executor: Executor = new ReplayExecutor(task, endpoints),
): ExplorerCounts {
  const known = knownIds(task);
  const routes = endpoints.flatMap((e) => {
    const param = idParameter(e);
    return param === null ? [] : [{ endpoint: e, param }];
  });
  const seen: string[] = idsIn(task.query);
  const denials = new Map<string, ExplorerCase>();
  const anyDenials = new Map<string, ExplorerCase>();
  const foreign = new Map<string, ExplorerCase>();
  let calls = 0;
  for (let i = 0; i < seen.length; i++) {
    const id = seen[i] as string;
    for (const { endpoint, param } of routes) {
      const args = argumentsFor(endpoint, param, id);
      calls += 1;
      const attempt: Attempt = executor.call(
        { id: `e${calls}`, name: endpoint.function_name, arguments: args },
        "all",
        calls,
        0,
      );
      // A fixture reply's ids are explored; an unscripted reply's only when the task knows them (an
      // invented id is counted below, not followed: following it would never end).
      for (const next of idsIn(JSON.stringify(attempt.observation)))
        if (!seen.includes(next) && (attempt.outcome === "observation" || known.has(next))) seen.push(next);
      const at = { task: task.semantic_task_id, route: endpoint.route_id, id };
      if (attempt.outcome === "unmatched" && known.has(id) && denies(attempt.observation, id)) {
        anyDenials.set(`${at.route} ${id}`, at);
        if (examplePrefixes(endpoint, param).has(prefixOf(id))) denials.set(`${at.route} ${id}`, at);
      }
      if (!endpoint.read_only && attempt.outcome !== "error")
        for (const bad of foreignIds(attempt.observation, known, args))
          foreign.set(`${at.route} ${bad}`, { ...at, id: bad });
    }
  }
  return {
    calls,
    denials: [...denials.values()],
    anyDenials: [...anyDenials.values()],
    foreign: [...foreign.values()],
  };
}

/** Every task explored at one catalog (the acceptance: FULL at 100 over the bundled corpus). */
export function exploreCorpus(tasks: readonly Task[], endpoints: readonly Endpoint[]): ExplorerCounts {
  const each = tasks.map((task) => exploreTask(task, endpoints));
  return {
    calls: each.reduce((n, c) => n + c.calls, 0),
    denials: each.flatMap((c) => c.denials),
    anyDenials: each.flatMap((c) => c.anyDenials),
    foreign: each.flatMap((c) => c.foreign),
  };
}
