/** Deterministic fake agents for loop tests: they play a fixed script of turns. */
import type { Agent, AgentTurnRequest, AgentTurnResponse } from "../../src/conditions/agents/index.ts";
import type { ToolCall } from "../../src/providers/index.ts";

export type Scripted = { text?: string; calls?: Array<{ name: string; arguments: unknown }> };

/** Plays `script` turn by turn (repeating the last entry) and keeps every request it saw. */
export function scriptedAgent(script: Scripted[]): Agent & { requests: AgentTurnRequest[] } {
  const requests: AgentTurnRequest[] = [];
  return {
    requests,
    identity: { agent: "scripted", model: null, settings: {} },
    startEpisode: () => ({
      turn: async (request): Promise<AgentTurnResponse> => {
        requests.push(request);
        const step = script[Math.min(requests.length - 1, script.length - 1)] ?? {};
        const toolCalls: ToolCall[] = (step.calls ?? []).map((c, i) => ({
          id: `c${requests.length}_${i}`,
          ...c,
        }));
        return { text: step.text ?? "", toolCalls };
      },
    }),
  };
}
