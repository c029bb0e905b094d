/** What the loop takes from an agent's turn beside its text and calls: a throw, and provider content. */
import { FabenchError } from "../../core/index.ts";
import type { AgentTurnResponse } from "../agents/types.ts";

/** What ends an episode when the agent throws: a FabenchError as it is, anything else as agent_failed. */
export function agentError(caught: unknown): FabenchError {
  return caught instanceof FabenchError
    ? caught
    : new FabenchError({
        kind: "internal",
        stage: "agent",
        code: "agent_failed",
        message: caught instanceof Error ? caught.message : String(caught),
      });
}

/** The provider's own assistant content, kept on the message when the agent returned it. */
export function raw(response: AgentTurnResponse): { raw?: unknown } {
  return response.raw === undefined ? {} : { raw: response.raw };
}
