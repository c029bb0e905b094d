/**
 * Issue #33 item 4: the protocol's `max_tool_calls_per_turn` is enforced. The first N calls of a
 * turn run; the rest are refused and counted (`refused_tool_calls`), never executed or stored one
 * by one, and the agent is told so in one user message after the results.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  loadTokenCounter,
  runEpisode,
  TurnTokenCounter,
  type LoopSettings,
} from "../../src/conditions/execution/index.ts";
import { refusedCallsMessage } from "../../src/conditions/execution/call-cap.ts";
import { scriptedAgent, type Scripted } from "../helpers/agents.ts";
import { bundled } from "../helpers/bundled.ts";
import { EXPORT_TASK } from "../helpers/world-tasks.ts";

const { protocol, catalogs } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;
const settings: LoopSettings = {
  maxTurns: 3,
  maxToolCallsPerTurn: protocol.agent_loop.max_tool_calls_per_turn,
  systemPrompt: "system",
  requestMoreTools: "REQUEST_MORE_TOOLS",
};
let tokens: TurnTokenCounter;
beforeAll(async () => {
  tokens = new TurnTokenCounter(await loadTokenCounter());
});

const call = (i: number) => ({ name: "papers__search", arguments: { query: `x${i}` } });
const play = (script: Scripted[], loop = settings) => {
  const agent = scriptedAgent(script);
  return runEpisode(
    { task: EXPORT_TASK, endpoints, catalogSize: 100, stages: ["all"] },
    agent.startEpisode(EXPORT_TASK),
    loop,
    tokens,
  ).then((outcome) => ({ outcome, agent }));
};

describe("the tool-call cap", () => {
  it("is the protocol's: one call per turn", () => {
    expect(protocol.agent_loop.max_tool_calls_per_turn).toBe(1);
  });

  it("runs the first call of 10,000, stores only it and counts the rest", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => call(i));
    const { outcome, agent } = await play([{ calls: many }, { text: "done" }]);
    const first = outcome.turns[0]!;
    expect(first.tool_calls).toEqual([call(0)]);
    expect(first.refused_tool_calls).toBe(9_999);
    expect(first.observations).toHaveLength(1);
    expect(outcome.attempts.map((a) => a.call_index)).toEqual([0]);
    expect(outcome.turns[1]!.refused_tool_calls).toBe(0);
    // What the agent sees next: its reply with the call that ran, the result, then one user message.
    const seen = agent.requests[1]!.messages.slice(2);
    expect(seen.map((m) => m.role)).toEqual(["assistant", "tool", "user"]);
    expect((seen[0] as unknown as { tool_calls: unknown[] }).tool_calls).toHaveLength(1);
    expect(seen[2]).toEqual({
      role: "user",
      content:
        "Only one tool call per turn is run: 9999 more tool calls were not run. Make any call you still need in a later turn.",
    });
    // Output tokens count every call the agent wrote, not only the one that ran.
    const { outcome: single } = await play([{ calls: [call(0)] }, { text: "done" }]);
    expect(first.tokens.output).toBeGreaterThan(100 * single.turns[0]!.tokens.output);
  });

  it("says nothing and records 0 when a turn stays within the cap", async () => {
    const { outcome, agent } = await play([{ calls: [call(0)] }, { text: "done" }]);
    expect(outcome.turns.map((t) => t.refused_tool_calls)).toEqual([0, 0]);
    expect(agent.requests[1]!.messages.slice(2).map((m) => m.role)).toEqual(["assistant", "tool"]);
  });

  it("takes its value from the settings, and words the message for it", async () => {
    const { outcome } = await play([{ calls: [call(0), call(1), call(2)] }, { text: "done" }], {
      ...settings,
      maxToolCallsPerTurn: 2,
    });
    expect([outcome.turns[0]!.tool_calls.length, outcome.turns[0]!.refused_tool_calls]).toEqual([2, 1]);
    expect(refusedCallsMessage(1, 2)).toBe(
      "Only 2 tool calls per turn are run: 1 more tool call was not run. Make any call you still need in a later turn.",
    );
  });
});
