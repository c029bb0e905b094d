/** What `run` and `judge run` print when the circuit breaker stops them. */
import type { Tripped } from "../../core/index.ts";

/** Why the run stopped and how to go on, in one line (without its newline). */
export function breakerLine(tripped: Tripped, limit: number): string {
  return `stopped after ${tripped.count} infrastructure errors in a row, all ${tripped.code} (the circuit breaker, --breaker ${limit}; 0 turns it off); fix the cause, then continue with the same command and --resume --retry-errors`;
}
