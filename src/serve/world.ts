/**
 * The frozen world a server answers from: one catalog, the corpus's tasks keyed by their normalised
 * query, a router, and the inspect view of every endpoint computed once. Built and checked before
 * the server listens, so a request never meets a world that cannot answer it.
 */
import type { Task } from "../authoring/index.ts";
import type { Catalog, Endpoint } from "../conditions/catalog/index.ts";
import { renderTool } from "../conditions/execution/index.ts";
import type { Router } from "../conditions/routing/index.ts";
import { normalizeQuery, type Problem, type Result } from "../core/index.ts";
import { exampleCall, type Param, paramsOf } from "./params.ts";
import { failOnceClash } from "./session-replay.ts";

/** One tool as `/tools/by-ids` returns it. */
export interface InspectedTool {
  readonly tool_id: string;
  readonly name: string;
  readonly description: string;
  readonly params: readonly Param[];
  readonly examples: readonly Record<string, unknown>[];
}

/** One result of `/search`: a route and its capability (the endpoint's description). */
export interface SearchResult {
  readonly tool_id: string;
  readonly capability: string;
}

/** A value and its JSON text (`JSON.stringify(value)`), written once when the world is built. */
export interface Written<T> {
  readonly value: T;
  readonly json: string;
}

export interface WorldInput {
  readonly catalog: Catalog;
  readonly tasks: readonly Task[];
  readonly router: Router;
  /** fabench's version, sent as the API revision. */
  readonly version: string;
}

export interface World {
  readonly catalog: Catalog;
  readonly endpoints: ReadonlyMap<string, Endpoint>;
  readonly tools: ReadonlyMap<string, InspectedTool>;
  /**
   * Every route's `/search` result and inspect view with their JSON, so an answer is put together
   * from texts written once instead of serialising the same descriptions and params per request.
   */
  readonly written: {
    readonly results: ReadonlyMap<string, Written<SearchResult>>;
    readonly tools: ReadonlyMap<string, Written<InspectedTool>>;
  };
  /** normalizeQuery(task.query) → task. */
  readonly taskByQuery: ReadonlyMap<string, Task>;
  readonly router: Router;
  /** The `x-qveris-api-version` and `x-qveris-catalog-version` headers of every answer. */
  readonly revisions: { readonly api: string; readonly catalog: string };
}

/** The inspect view: the name and description an agent of `fabench run` is shown, and the params. */
export function inspectedTool(endpoint: Endpoint): InspectedTool {
  const rendered = renderTool(endpoint);
  const params = paramsOf(endpoint.parameters);
  return {
    tool_id: endpoint.route_id,
    name: rendered.name,
    description: rendered.description,
    params,
    examples: [exampleCall(params, endpoint.parameters)],
  };
}

function written<T>(value: T): Written<T> {
  return { value: Object.freeze(value), json: JSON.stringify(value) };
}

/** The world, or every reason it cannot answer: two tasks one query, a fixture route not served. */
export function createWorld(input: WorldInput): Result<World> {
  const endpoints = new Map(input.catalog.endpoints.map((e) => [e.route_id, e]));
  const taskByQuery = new Map<string, Task>();
  const problems: Problem[] = [];
  for (const task of input.tasks) {
    const key = normalizeQuery(task.query);
    const other = taskByQuery.get(key);
    if (other !== undefined)
      problems.push({
        code: "ambiguous_query",
        message: `${task.semantic_task_id} and ${other.semantic_task_id} have the same query after normalisation; a discover cannot say which one a session runs`,
      });
    else taskByQuery.set(key, task);
    const clash = failOnceClash(task);
    if (clash !== null)
      problems.push({
        code: "fail_once_code_clash",
        message: `${task.semantic_task_id} fails once with ${clash}, which is also an executor's own code; a replay could not tell them apart`,
      });
    for (const route of new Set(task.executor_fixture.responses.map((r) => r.route_id)))
      if (!endpoints.has(route))
        problems.push({
          code: "route_not_in_catalog",
          message: `${task.semantic_task_id} answers on ${route}, which catalog ${input.catalog.endpoint_count} does not have`,
        });
  }
  if (problems.length > 0) return { ok: false, problems };
  const tools = new Map(input.catalog.endpoints.map((e) => [e.route_id, inspectedTool(e)]));
  const results = input.catalog.endpoints.map((e) => [
    e.route_id,
    written<SearchResult>({ tool_id: e.route_id, capability: e.description }),
  ]);
  return {
    ok: true,
    value: {
      catalog: input.catalog,
      endpoints,
      tools,
      written: {
        results: new Map(results as [string, Written<SearchResult>][]),
        tools: new Map([...tools].map(([id, tool]) => [id, written(tool)])),
      },
      taskByQuery,
      router: input.router,
      revisions: { api: `fabench-${input.version}`, catalog: input.catalog.sha256 },
    },
  };
}
