/** The line a `discover-call run` that stopped before its last trial ends with: why, and how to go on. */
import type { RunOutcome } from "./run.ts";

/** `left`: planned trials without a record; `baseUrl`: the API the breaker gave up on. */
export function stopMessage(outcome: RunOutcome, left: number, baseUrl: string): string | null {
  const { calls, stopped, tripped } = outcome;
  if (stopped === null) return null;
  const why =
    stopped === "max_calls"
      ? `stopped before the next trial: ${calls} billed call(s) made, the --max-calls limit`
      : stopped === "api_unavailable" && tripped !== null
        ? `stopped: ${tripped.trials} consecutive trials failed at the API at ${baseUrl} with ${tripped.code} (--breaker); they measured the API, not the adapter, so none of them is recorded`
        : "interrupted";
  const resume =
    stopped === "api_unavailable"
      ? "once the API answers again, continue with the same command and --resume"
      : "continue with the same command and --resume";
  return `${why}; ${left} trial(s) left; ${resume}`;
}
