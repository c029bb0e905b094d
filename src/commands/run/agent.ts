/** The agent `fabench run` drives, made from the run's agent settings and what the run has loaded. */
import type { Protocol } from "../../authoring/index.ts";
import { createAgent, type Agent } from "../../conditions/agents/index.ts";
import type { TokenCounter } from "../../conditions/execution/index.ts";
import type { CorpusValues } from "../../conditions/runner/index.ts";
import { realTiming, type Budget } from "../../providers/index.ts";
import type { RunSettings } from "./options.ts";

export interface AgentContext {
  readonly protocol: Protocol;
  readonly budget: Budget;
  readonly corpus: CorpusValues;
  readonly counter: TokenCounter;
  /** The run file: a batch run checkpoints beside it. */
  readonly out: string;
}

/** The agent under test (an estimate replays the reference agent's turns instead). */
export function makeAgent({ agent, output }: RunSettings, c: AgentContext): Promise<Agent> {
  return createAgent({
    spec: output.estimate ? "reference" : agent.spec,
    requestMoreTools: c.protocol.agent_loop.request_more_tools_token,
    ...agent.provider,
    budget: c.budget,
    taskSetSha256: c.corpus.tasksSha256,
    tokens: c.counter,
    timing: realTiming,
    ...(agent.batch.enabled && !output.estimate
      ? {
          batch: {
            checkpointPath: `${c.out}.batches.json`,
            pollMs: agent.batch.pollMs,
            resubmitUnknown: agent.batch.resubmit,
          },
        }
      : {}),
  });
}
