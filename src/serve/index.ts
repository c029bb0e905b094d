/**
 * `fabench serve`: the Discover → Call API (DISCOVER-CALL.md §2, §9) over the frozen world of the
 * #424 benchmark — the router's ranking for `/search`, each endpoint's parameters for
 * `/tools/by-ids`, and the replay executor for `/tools/execute`. Pure handlers (handlers.ts) behind
 * a thin HTTP shell (http.ts).
 */
export { bearerCheck, keyProblem, randomKey } from "./auth.ts";
export {
  answer,
  type ContextOptions,
  createContext,
  type EndpointName,
  executeAnswer,
  handleExecute,
  handleInspect,
  handleSearch,
  type ParsedRequest,
  type ServeContext,
  type SessionState,
} from "./handlers.ts";
export {
  API_PREFIX,
  DEFAULT_SHELL_LIMITS,
  type RunningServer,
  type ShellLimits,
  type ShellOptions,
  startServer,
} from "./http.ts";
export { exampleCall, type NestedParam, type Param, paramsOf } from "./params.ts";
export { DEFAULT_RANKING_CACHE_SIZE, RankingCache } from "./rankings.ts";
export { type Reply, SERVE_ERRORS, type ServeErrorCode } from "./replies.ts";
export { DEFAULT_LIMIT, MAX_LIMIT } from "./schemas.ts";
export { failOnceClash, OutcomeMemo, SessionReplay } from "./session-replay.ts";
export { DEFAULT_SESSION_LIMITS, type SessionLimits, SessionStore } from "./sessions.ts";
export { createWorld, type InspectedTool, inspectedTool, type World, type WorldInput } from "./world.ts";
