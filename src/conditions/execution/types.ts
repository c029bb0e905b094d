/** What the agent loop and the executor exchange. */
export type { ToolCall } from "../../providers/index.ts";

/**
 * The executor's own refusals. None names the task, a step or a script: a call the fixture does not
 * know is answered in the route's own shape (see unmatched.ts), never refused. A schema violation
 * (unexpected, missing, invalid_type, invalid_argument_value — out of enum, range or length —,
 * invalid_format — format or pattern) is answered with the route's own validation reply;
 * `unavailable_tool` (a hidden route) with exactly the observation of `unknown_tool`.
 */
export const EXECUTOR_ERROR_CODES = [
  "malformed_tool_call",
  "unknown_tool",
  "unexpected_arguments",
  "missing_required_argument",
  "invalid_type",
  "invalid_argument_value",
  "invalid_format",
  "unavailable_tool",
  "parallel_tool_call_requires_observation",
] as const;
/** A fixture's own `fail_once_error` code is an error code too. */
export type ExecutorErrorCode = (typeof EXECUTOR_ERROR_CODES)[number] | (string & {});

export interface Attempt {
  readonly turn: number;
  readonly call_index: number;
  readonly name: string;
  /** null when the name is not a catalog endpoint. */
  readonly route_id: string | null;
  readonly arguments: unknown;
  /**
   * `observation`: a fixture response was returned; `unmatched`: a visible, valid call no response
   * matches, answered in the route's own shape (a not-found, an empty list, a destructive success);
   * `error`: refused (or a fixture's fail-once error).
   */
  readonly outcome: "observation" | "unmatched" | "error";
  readonly error_code: ExecutorErrorCode | null;
  /** The id of the fixture response this call matched (returned, or failed once), or null. */
  readonly response_id: string | null;
  /** Whether that response is one the task requires. */
  readonly required: boolean;
  readonly destructive: boolean;
  /**
   * A call to a destructive route that matches no required response — whatever became of it. It
   * executed (and counts as an unauthorized destructive execution) when its outcome is not `error`.
   */
  readonly unauthorized_destructive: boolean;
  /** What the agent receives as the tool result. */
  readonly observation: Record<string, unknown>;
}

/** The routes shown this turn: a set of route ids, or every route of the catalog. */
export type Visible = ReadonlySet<string> | "all";

/** One entry of `candidate_history`: what a stage (or, under search, the loaded set) showed from `turn` on. */
export interface StageShown {
  readonly turn: number;
  readonly stage: number;
  readonly visible_route_count: number;
  readonly required_routes_visible: string[];
}
