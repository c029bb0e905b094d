/**
 * The three endpoints as functions from a parsed request and the frozen world to a reply: no
 * socket, no clock, no file. Ids come from the injected `newId`; the session store holds the
 * injected clock. The shell (http.ts) authenticates, limits and parses before anything here runs.
 *
 * A session is bound to a task by its discover query: the first discover whose query equals a
 * task's query after fabench's query normalisation fixes the task, and from then on execute answers
 * from that task's fixture with the replay executor of `fabench run` (see session-replay.ts) — its
 * responses in any order the data allows, the same argument rules, the same failure codes, the
 * same route-shaped replies to calls the fixture does not know.
 * The routes a session's searches returned are what it may call, as the routes shown are in a run
 * (else `unavailable_tool`).
 */
import type { Task } from "../authoring/index.ts";
import type { Attempt } from "../conditions/execution/index.ts";
import { FabenchError, normalizeQuery } from "../core/index.ts";
import { QueryMemo, queryKey } from "./memo.ts";
import { DEFAULT_RANKING_CACHE_SIZE, RankingCache } from "./rankings.ts";
import { ok, type Reply, refuse } from "./replies.ts";
import { OutcomeMemo, SessionReplay } from "./session-replay.ts";
import {
  executeBodySchema,
  inspectBodySchema,
  quickExecuteBody,
  quickInspectBody,
  quickSearchBody,
  searchBodySchema,
  toolIdQuerySchema,
} from "./schemas.ts";
import { DEFAULT_SESSION_LIMITS, type SessionLimits, SessionStore } from "./sessions.ts";
import type { InspectedTool, SearchResult, World, Written } from "./world.ts";

export interface SessionState {
  /** The task of the session's first discover that named one, and its place in it; null until then. */
  replay: SessionReplay | null;
  /** Search ids issued to this session, newest last (the last MAX_SEARCH_IDS). */
  readonly searchIds: string[];
  /** Route ids its searches returned, each once (a list: a few hundred bytes less than a Set). */
  readonly discovered: string[];
  /** Execute calls so far: the executor's turn number. */
  turns: number;
}

/** Enough for any agent that searches again before it calls; older ids stop being accepted. */
const MAX_SEARCH_IDS = 32;

export interface ServeContext {
  readonly world: World;
  readonly sessions: SessionStore<SessionState>;
  readonly rankings: RankingCache;
  /** A discover query → the task it names (null: none), remembered as the rankings are. */
  readonly tasks: QueryMemo<Task | null>;
  /** Execute outcomes by task, state and call, shared by every session (session-replay.ts). */
  readonly outcomes: OutcomeMemo;
  readonly newId: () => string;
}

export interface ContextOptions {
  /** Milliseconds since the epoch; sessions expire by it. */
  readonly now: () => number;
  /** A fresh unique id: search ids and execution ids. */
  readonly newId: () => string;
  /** The session limits; the per-client cap defaults to the whole store's (the fair share still holds). */
  readonly sessions?: Omit<SessionLimits, "maxSessionsPerClient"> & Partial<SessionLimits>;
  readonly rankingCacheSize?: number;
}

export function createContext(world: World, options: ContextOptions): ServeContext {
  const cacheSize = options.rankingCacheSize ?? DEFAULT_RANKING_CACHE_SIZE;
  return {
    world,
    sessions: new SessionStore(options.sessions ?? DEFAULT_SESSION_LIMITS, options.now),
    rankings: new RankingCache(world.router, world.catalog, cacheSize),
    tasks: new QueryMemo(cacheSize),
    outcomes: new OutcomeMemo(world.catalog.endpoints, cacheSize),
    newId: options.newId,
  };
}

export type EndpointName = "search" | "inspect" | "execute";

/** What the shell hands a handler: the parsed JSON body, the query's `tool_id` values, who asks. */
export interface ParsedRequest {
  readonly body: unknown;
  readonly toolIds: readonly string[];
  /** The remote address: sessions are shared out fairly between clients (sessions.ts). */
  readonly client?: string;
}

export function answer(endpoint: EndpointName, request: ParsedRequest, ctx: ServeContext): Promise<Reply> {
  if (endpoint === "search") return handleSearch(request.body, ctx, request.client);
  if (endpoint === "inspect") return Promise.resolve(handleInspect(request.body, ctx));
  return Promise.resolve(handleExecute(request.toolIds, request.body, ctx));
}

/** A 400 listing where the request does not fit (paths and zod's messages, never the values). */
function invalid(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): Reply {
  const issues = error.issues
    .slice(0, 10)
    .map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  return refuse("invalid_request", "the request does not fit this endpoint's schema", { issues });
}

/** The task whose query `query` is after normalisation (NFKC and case folding: worth remembering). */
function taskOf(query: string, ctx: ServeContext): Task | undefined {
  const key = queryKey(query);
  const known = ctx.tasks.get(key);
  if (known !== undefined) return known ?? undefined;
  const task = ctx.world.taskByQuery.get(normalizeQuery(query)) ?? null;
  ctx.tasks.set(key, task);
  return task ?? undefined;
}

const newSession = (): SessionState => ({
  replay: null,
  searchIds: [],
  discovered: [],
  turns: 0,
});

export async function handleSearch(raw: unknown, ctx: ServeContext, client = ""): Promise<Reply> {
  let body = quickSearchBody(raw);
  if (body === undefined) {
    const parsed = searchBodySchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    body = parsed.data;
  }
  const { query, limit, session_id } = body;
  let ranking: readonly string[];
  try {
    ranking = await ctx.rankings.rank(query);
  } catch (error) {
    const cause = error instanceof FabenchError ? error.code : "router_error";
    return {
      ...refuse("router_failed", "the router could not rank the catalog; see the server's log"),
      cause,
    };
  }
  const { world } = ctx;
  const session = ctx.sessions.getOrCreate(session_id, newSession, client);
  const task = session.replay === null ? taskOf(query, ctx) : undefined;
  if (task !== undefined) session.replay = new SessionReplay(task, world.catalog.endpoints, ctx.outcomes);
  const shown = ranking.slice(0, limit);
  for (const id of shown) if (!session.discovered.includes(id)) session.discovered.push(id);
  const searchId = ctx.newId();
  session.searchIds.push(searchId);
  if (session.searchIds.length > MAX_SEARCH_IDS) session.searchIds.shift();
  // Every ranked id is a catalog route (rankings.ts checks), so each has its result written.
  const results = shown.map((id) => world.written.results.get(id) as Written<SearchResult>);
  const text = `{"search_id":${JSON.stringify(searchId)},"results":[${results.map((r) => r.json).join(",")}]}`;
  return ok({ search_id: searchId, results: results.map((r) => r.value) }, text);
}

/** A search id, when given, must be one this server issued to this session. */
function unknownSearchId(searchId: string | null | undefined, session: SessionState | undefined): boolean {
  if (typeof searchId !== "string") return false;
  return session === undefined || !session.searchIds.includes(searchId);
}

const UNKNOWN_SEARCH_ID = "search_id was not issued to this session (or the session expired)";

export function handleInspect(raw: unknown, ctx: ServeContext): Reply {
  let body = quickInspectBody(raw);
  if (body === undefined) {
    const parsed = inspectBodySchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    body = parsed.data;
  }
  const { tool_ids, search_id, session_id } = body;
  if (typeof search_id === "string" && unknownSearchId(search_id, ctx.sessions.get(session_id)))
    return refuse("unknown_search_id", UNKNOWN_SEARCH_ID);
  const unknown = tool_ids.filter((id) => !ctx.world.tools.has(id));
  if (unknown.length > 0)
    return refuse("unknown_tool", "no tool with this id in the served catalog", {
      unknown_tool_ids: unknown.slice(0, 10),
    });
  // Every id is known (checked above), so each has its inspect view written.
  const results = [...new Set(tool_ids)].map(
    (id) => ctx.world.written.tools.get(id) as Written<InspectedTool>,
  );
  return ok(
    { results: results.map((r) => r.value) },
    `{"results":[${results.map((r) => r.json).join(",")}]}`,
  );
}

export function handleExecute(toolIds: readonly string[], raw: unknown, ctx: ServeContext): Reply {
  let body = quickExecuteBody(raw);
  if (body === undefined) {
    const parsed = executeBodySchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    body = parsed.data;
  }
  const toolId = toolIds.length === 1 ? toolIdQuerySchema.safeParse(toolIds[0]) : null;
  if (toolId === null || !toolId.success)
    return refuse(
      "invalid_request",
      "give exactly one tool_id in the query string: /tools/execute?tool_id=…",
    );
  const endpoint = ctx.world.endpoints.get(toolId.data);
  if (endpoint === undefined) return refuse("unknown_tool", "no tool with this id in the served catalog");
  const { parameters, search_id, session_id } = body;
  const session = ctx.sessions.get(session_id);
  if (session === undefined)
    return refuse(
      "unknown_session",
      "this session has not discovered anything here, or it expired: POST /search with this session_id first",
    );
  if (unknownSearchId(search_id, session)) return refuse("unknown_search_id", UNKNOWN_SEARCH_ID);
  if (session.replay === null)
    return refuse(
      "no_task_for_query",
      "this session's discover queries are no task's query, so there is nothing to replay; discover with a task's query (a discover-call task's discover_query)",
    );
  session.turns += 1;
  const attempt = session.replay.call(
    endpoint.function_name,
    parameters,
    new Set(session.discovered),
    session.turns,
  );
  return ok(executeAnswer(attempt, toolId.data, ctx.newId()));
}

/**
 * The executor's attempt as an execute answer, shaped as the route answered: a fixture's
 * observation, an empty list or a destructive route's success is `success: true` with the reply as
 * `result.data`; a not-found (the route's own reply to a call it knows nothing of) and every
 * refusal are `success: false` with the code and message. Whether a reply came from the fixture is
 * never said: that would tell an agent where the task's path is.
 */
export function executeAnswer(
  attempt: Attempt,
  toolId: string,
  executionId: string,
): Record<string, unknown> {
  const head = { execution_id: executionId, tool_id: toolId };
  const reply = attempt.observation;
  const failed = attempt.outcome === "error" || reply["status"] === "not_found";
  if (!failed) return { ...head, success: true, outcome: "observation", result: { data: reply } };
  // A refusal carries the executor's code; a not-found is the route's own reply, whose body each
  // API shapes its own way ({error: {code, message}}, {error: {error: {…}}}, RFC 9457's detail…):
  // the code is the stable `not_found`, and the message the first one the body holds.
  const code = attempt.error_code ?? "not_found";
  const message = firstMessage(reply["message"]) ?? firstMessage(reply["error"]);
  return { ...head, success: false, outcome: "error", error_code: code, error_message: message };
}

/**
 * The first `message` (or `detail`, `title`, `error_message`, `faultstring`, `text`: the keys the
 * catalog's reply styles put it under, or a plain string) in a reply body, depth first; null when none.
 */
function firstMessage(body: unknown, depth = 0): string | null {
  if (typeof body === "string") return body;
  if (typeof body !== "object" || body === null || depth > 4) return null;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "detail", "title", "error_message", "faultstring", "text"])
    if (typeof record[key] === "string") return record[key] as string;
  for (const value of Object.values(record)) {
    if (typeof value !== "object" || value === null) continue;
    const found = firstMessage(value, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
