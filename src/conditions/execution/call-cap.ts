/**
 * The protocol's cap on tool calls per turn (`agent_loop.max_tool_calls_per_turn`). The first
 * `cap` calls of a turn run; the rest are refused and only counted (the turn record's
 * `refused_tool_calls`), never executed, stored or shown back one by one: an agent that asks for
 * 10,000 calls in one turn costs one call's record, not 10,000. The assistant message the agent
 * sees again keeps only the calls that ran, and one user message after their results says how
 * many did not run. The words are fixed here, the same under every condition, and name no task.
 */
import type { ToolCall } from "./types.ts";

export interface CappedCalls {
  readonly executed: readonly ToolCall[];
  /** How many calls past the cap were not run. */
  readonly refused: number;
}

export function capToolCalls(calls: readonly ToolCall[], cap: number): CappedCalls {
  if (calls.length <= cap) return { executed: calls, refused: 0 };
  return { executed: calls.slice(0, cap), refused: calls.length - cap };
}

/** The user message after the results of a turn that asked for more calls than the cap. */
export function refusedCallsMessage(refused: number, cap: number): string {
  const runs = cap === 1 ? "one tool call per turn is run" : `${cap} tool calls per turn are run`;
  const notRun = refused === 1 ? "1 more tool call was not run" : `${refused} more tool calls were not run`;
  return `Only ${runs}: ${notRun}. Make any call you still need in a later turn.`;
}
