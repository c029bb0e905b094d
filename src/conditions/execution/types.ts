/** What the agent loop and the executor exchange. */
export type { ToolCall } from "../../providers/index.ts";

export const EXECUTOR_ERROR_CODES = [
  "malformed_tool_call",
  "unknown_tool",
  "unexpected_arguments",
  "missing_required_argument",
  "invalid_type",
  "unavailable_tool",
  "destructive_policy_block",
  "parallel_tool_call_requires_observation",
  "invalid_task_arguments",
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
  readonly outcome: "observation" | "neutral" | "error";
  readonly error_code: ExecutorErrorCode | null;
  /** 0-based fixture step this call completed, or null. */
  readonly step: number | null;
  readonly destructive: boolean;
  /** A destructive call that was not the expected step (blocked by policy). */
  readonly unauthorized_destructive: boolean;
  /** What the agent receives as the tool result. */
  readonly observation: Record<string, unknown>;
}

/** The routes shown this turn: a set of route ids, or every route of the catalog. */
export type Visible = ReadonlySet<string> | "all";
