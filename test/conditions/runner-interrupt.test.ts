/**
 * Issue #33 item 4: the runner under an interrupt and under an episode whose own code throws. An
 * interrupt gives up the turns in flight (the episode is never appended, so `--resume` reruns it),
 * in-process agents that never wait on I/O still let the interrupt through (a yield per episode),
 * and an unexpected throw is an `episode_failed` record, not a crash of the run.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentTurnRequest } from "../../src/conditions/agents/index.ts";
import { loadTokenCounter, TurnTokenCounter } from "../../src/conditions/execution/index.ts";
import {
  runMatrix,
  type MatrixInput,
  type PlannedEpisode,
  type RunMetadata,
  type RunRecord,
} from "../../src/conditions/runner/index.ts";
import type { ConditionManifest } from "../../src/conditions/routing/manifest-schema.ts";
import { FabenchError } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol, catalogs, corpus } = bundled();
const task = corpus.tasks[0]!;
let tokens: TurnTokenCounter;
beforeAll(async () => {
  tokens = new TurnTokenCounter(await loadTokenCounter());
});

/** `count` trials of one task under FULL at catalog size 100, run by `agent`. */
function matrix(agent: Agent, count: number, concurrency = 1): MatrixInput {
  const episodes: PlannedEpisode[] = Array.from({ length: count }, (_, i) => ({
    semantic_task_id: task.semantic_task_id,
    catalog_size: 100,
    condition: "FULL",
    trial: i + 1,
    task,
  }));
  const manifest = {
    entries: [
      {
        semantic_task_id: task.semantic_task_id,
        catalog_size: 100,
        conditions: { FULL: { stages: ["all"] } },
      },
    ],
  } as unknown as ConditionManifest;
  return {
    episodes,
    agent,
    catalogs: new Map(catalogs.map((c) => [c.size, c.catalog])),
    manifest,
    settings: {
      maxTurns: protocol.agent_loop.max_turns,
      systemPrompt: "system",
      requestMoreTools: protocol.agent_loop.request_more_tools_token,
      maxToolCallsPerTurn: protocol.agent_loop.max_tool_calls_per_turn,
    },
    tokens,
    metadata: {} as RunMetadata,
    shard: null,
    concurrency,
    maxErrors: null,
  };
}

function deps(signal?: AbortSignal) {
  const records: RunRecord[] = [];
  const warnings: string[] = [];
  let clock = 0;
  return {
    records,
    warnings,
    deps: {
      now: () => new Date(0),
      clock: () => (clock += 1),
      append: (r: RunRecord) => void records.push(r),
      progress: () => undefined,
      shouldStop: () => false,
      warn: (line: string) => void warnings.push(line),
      ...(signal ? { signal } : {}),
    },
  };
}

const answer = { text: JSON.stringify({ answer: "a", facts: [], sources: [] }), toolCalls: [] };

/** An agent whose turns, from episode `from` on, wait until they are aborted (or forever, if `deaf`). */
function hangingAgent(from: number, deaf: boolean) {
  const seen: AgentTurnRequest[] = [];
  let episodes = 0;
  const agent: Agent = {
    identity: { agent: "hanging", model: null, settings: {} },
    startEpisode: () => {
      episodes += 1;
      const hangs = episodes >= from;
      return {
        turn: (request) => {
          seen.push(request);
          if (!hangs) return Promise.resolve(answer);
          return new Promise((_, reject) => {
            if (!deaf)
              request.signal?.addEventListener("abort", () =>
                reject(
                  new FabenchError({ kind: "input", stage: "agent", code: "interrupted", message: "stop" }),
                ),
              );
          });
        },
      };
    },
  };
  return { agent, seen, started: () => episodes };
}

describe("an interrupted run", () => {
  for (const deaf of [false, true])
    it(`gives up the turns in flight${deaf ? " even of an agent that ignores the signal" : ""}, and records none of them`, async () => {
      const controller = new AbortController();
      const hanging = hangingAgent(3, deaf);
      const run = deps(controller.signal);
      const done = runMatrix(matrix(hanging.agent, 8, 2), run.deps);
      // Both workers are waiting on a turn that will not answer: episodes 3 and 4.
      while (hanging.started() < 4) await new Promise((r) => setImmediate(r));
      controller.abort();
      const result = await done;
      expect(result).toMatchObject({ finished: 2, errors: 0, stopped: true, stopReason: "interrupted" });
      expect(run.records.map((r) => r.trial)).toEqual([1, 2]);
      expect(run.records.every((r) => r.status === "completed")).toBe(true);
      // Every turn request carried the run's signal, and nothing started after the interrupt.
      expect(hanging.seen.every((r) => r.signal === controller.signal)).toBe(true);
      expect(hanging.started()).toBe(4);
    });

  it("lets an interrupt through between episodes of an agent that never waits on I/O", async () => {
    const controller = new AbortController();
    let episodes = 0;
    const agent: Agent = {
      identity: { agent: "in-process", model: null, settings: {} },
      startEpisode: () => {
        episodes += 1;
        // The signal handler of a real interrupt runs as a macrotask; so does this abort.
        if (episodes === 3) setImmediate(() => controller.abort());
        return { turn: async () => answer };
      },
    };
    const run = deps(controller.signal);
    const result = await runMatrix(matrix(agent, 50), run.deps);
    expect(result).toMatchObject({ finished: 3, stopped: true, stopReason: "interrupted" });
    expect(run.records).toHaveLength(3);
  });
});

describe("an episode whose own code throws", () => {
  it("is recorded as an episode error coded episode_failed, and the run goes on", async () => {
    let episodes = 0;
    const agent: Agent = {
      identity: { agent: "buggy", model: null, settings: {} },
      startEpisode: () => {
        episodes += 1;
        if (episodes === 2) throw new RangeError("Maximum call stack size exceeded");
        // Episode 3: a reply the loop's own code trips over (no list of tool calls).
        if (episodes === 3) return { turn: async () => ({ text: "x", toolCalls: null as never }) };
        return { turn: async () => answer };
      },
    };
    const run = deps();
    const result = await runMatrix(matrix(agent, 4), run.deps);
    expect(result).toMatchObject({ finished: 4, errors: 2, stopped: false, stopReason: null });
    expect(run.records.map((r) => [r.trial, r.status, r.error_code])).toEqual([
      [1, "completed", null],
      [2, "error", "episode_failed"],
      [3, "error", "episode_failed"],
      [4, "completed", null],
    ]);
    expect(run.records[1]?.end_reason).toBe("infrastructure_error");
    expect(run.warnings[0]).toContain("Maximum call stack size exceeded");
    expect(run.warnings).toHaveLength(2);
  });
});
