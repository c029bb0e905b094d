/** What the content rules need besides the task: plain values the shell loads for them. */
import type { UnitConverter } from "../../core/index.ts";
import type { Task } from "../task.ts";

export interface CheckContext {
  /** Route ids of the smallest catalog (every task must run in every catalog; they nest). Null: no catalogs given. */
  readonly routeIds: ReadonlySet<string> | null;
  /**
   * Route ids of the largest catalog. A response that is not required (a hard-negative twin's wrong
   * data) may sit on a route only the larger catalogs hold: where the route is absent it is never called.
   */
  readonly anyRouteIds: ReadonlySet<string> | null;
  /** Parameter names each route of the largest catalog accepts, for argument rules. */
  readonly routeParameters: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each route's parameter schemas (largest catalog), by parameter name: what a rule's literal must satisfy. */
  readonly parameterSchemas: ReadonlyMap<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>;
  readonly correctiveStrata: ReadonlySet<string>;
  /** How many routes SR-PROGRESSIVE's first stage shows (null when the protocol has no such stage). */
  readonly firstStageSize: number | null;
  readonly units: UnitConverter;
}

export interface RuleProblem {
  readonly code: string;
  readonly message: string;
}

/** A content rule: reads one schema-valid task, returns every problem it finds. */
export type TaskRule = (task: Task, context: CheckContext) => RuleProblem[];

export function sameSet(a: Iterable<string>, b: Iterable<string>): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

export function list(values: Iterable<string>): string {
  const items = [...values];
  return items.length === 0 ? "none" : items.join(", ");
}
