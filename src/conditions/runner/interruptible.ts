/**
 * What an interrupt and an unexpected throw do to one episode. The run's interrupt signal goes into
 * every turn request, and a turn still running when it fires is given up at once, whether or not
 * the agent listens: the episode ends `interrupted`, which the runner never appends, so a plain
 * `--resume` runs it again. An episode whose own code throws (a RangeError, a bug) becomes an error
 * record coded `episode_failed`, so the run goes on and `--resume` never meets the same crash twice.
 */
import { FabenchError, interruptedError } from "../../core/index.ts";
import type { AgentEpisode, AgentTurnResponse } from "../agents/types.ts";
import type { EpisodeOutcome } from "../execution/loop.ts";

export { INTERRUPTED } from "../../core/index.ts";

/** The rejection of an agent turn that an interrupt stopped. */
const turnInterrupted = () =>
  interruptedError("the run was interrupted while this turn was running; --resume runs the episode again");

/**
 * The episode with the signal in each turn request, and each turn raced against it: an aborted
 * turn rejects with `interrupted` now, and whatever the agent's own promise does later is ignored.
 */
export function interruptibleEpisode(episode: AgentEpisode, signal: AbortSignal | undefined): AgentEpisode {
  if (signal === undefined) return episode;
  return {
    turn: (request) => {
      if (signal.aborted) return Promise.reject(turnInterrupted());
      const running = episode.turn({ ...request, signal });
      // The agent's answer may come after the turn was given up: it must not be an unhandled rejection.
      running.catch(() => undefined);
      return new Promise<AgentTurnResponse>((resolve, reject) => {
        const abort = () => reject(turnInterrupted());
        signal.addEventListener("abort", abort, { once: true });
        running.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
      });
    },
    ...(episode.finish ? { finish: () => episode.finish?.() } : {}),
  };
}

/** The outcome of an episode whose code threw: an error record with the throw's code and nothing else. */
export function failedOutcome(caught: unknown): EpisodeOutcome {
  const code = caught instanceof FabenchError ? caught.code : "episode_failed";
  return {
    status: "error",
    error_code: code,
    final_text: "",
    end_reason: "infrastructure_error",
    turns: [],
    attempts: [],
    candidate_history: [],
    expansions: 0,
    required_routes_advanced: [],
    required_route_call_coverage: 0,
    unauthorized_destructive_attempts: 0,
    unauthorized_destructive_executions: 0,
    tokens: { input: 0, output: 0, tool_schema: 0 },
  };
}
