import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { referenceAgent, type Agent } from "../../src/conditions/agents/index.ts";
import {
  loadTokenCounter,
  runEpisode,
  TurnTokenCounter,
  type LoopSettings,
} from "../../src/conditions/execution/index.ts";
import { keywordRanking, manifestEntry, type Stage } from "../../src/conditions/routing/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { scriptedAgent } from "../helpers/agents.ts";
import { bundled } from "../helpers/bundled.ts";
import { twoStepExportTask } from "../helpers/task.ts";

const { protocol, corpus, catalogs } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;
const settings: LoopSettings = {
  maxTurns: 6,
  systemPrompt: "system",
  incompleteMessage: "TASK_INCOMPLETE",
  requestMoreTools: "REQUEST_MORE_TOOLS",
};
let tokens: TurnTokenCounter;
let units: UnitConverter;
beforeAll(async () => {
  tokens = new TurnTokenCounter(await loadTokenCounter());
  units = await loadUnitConverter();
});

const task = (stratum: string, n = 0) =>
  corpus.tasks.filter((t) => t.answer_task_stratum === stratum)[n] as Task;
const { task: exportTask, material: MAT, artifact: ART } = twoStepExportTask(corpus.tasks as Task[]);

const episode = (t: Task, agent: Agent, stages: Stage[]) =>
  runEpisode({ task: t, endpoints, catalogSize: 100, stages }, agent.startEpisode(t), settings, tokens);

describe("the agent loop", () => {
  it("stops at the turn limit, and the last text is the final answer", async () => {
    const agent = scriptedAgent([
      { text: "still looking", calls: [{ name: "papers__search", arguments: { query: "x" } }] },
    ]);
    const outcome = await episode(exportTask, agent, ["all"]);
    expect(outcome.turns).toHaveLength(6);
    expect([outcome.end_reason, outcome.final_text]).toEqual(["turn_limit", "still looking"]);
    expect(agent.requests.map((r) => r.turn)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("ends on a turn without a tool call when the condition cannot widen", async () => {
    const outcome = await episode(exportTask, scriptedAgent([{ text: "REQUEST_MORE_TOOLS" }]), [
      ["papers.search"],
    ]);
    expect([outcome.turns.length, outcome.end_reason, outcome.expansions]).toEqual([1, "final_answer", 0]);
    expect(outcome.turns[0]?.requested_more_tools).toBe(true);
  });

  it("widens a progressive condition on a missing capability, adding TASK_INCOMPLETE", async () => {
    const agent = scriptedAgent([{ text: "REQUEST_MORE_TOOLS" }, { text: "done" }]);
    const outcome = await episode(exportTask, agent, [
      ["papers.search"],
      ["materials.retrieve", "papers.search"],
      "all",
    ]);
    expect(outcome.expansions).toBe(2);
    expect(outcome.turns.map((t) => t.visible_route_count)).toEqual([1, 2, 100]);
    expect(agent.requests[1]?.messages.at(-1)).toEqual({ role: "user", content: "TASK_INCOMPLETE" });
    expect(agent.requests[1]?.tools.map((t) => t.name)).toEqual(["materials__retrieve", "papers__search"]);
    expect(outcome.candidate_history.map((h) => [h.turn, h.stage, h.required_routes_visible.length])).toEqual(
      [
        [1, 0, 0],
        [2, 1, 1],
        [3, 2, 2],
      ],
    );
  });

  it("widens a progressive condition after a failed call, without a user message", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "materials__retrieve", arguments: { material_id: "wrong" } }] },
      { text: "done" },
    ]);
    const outcome = await episode(exportTask, agent, [["materials.retrieve"], "all"]);
    expect(outcome.turns[0]?.event).toBe("tool_call_widened");
    expect(agent.requests[1]?.messages.at(-1)?.role).toBe("tool");
    expect(outcome.turns[1]?.visible_route_count).toBe(100);
  });

  it("does not widen when the agent answers after finishing the task", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "materials__retrieve", arguments: { material_id: MAT } }] },
      { calls: [{ name: "exports__export", arguments: { artifact_id: ART } }] },
      { text: "final" },
    ]);
    const outcome = await episode(exportTask, agent, [["exports.export", "materials.retrieve"], "all"]);
    expect([outcome.expansions, outcome.end_reason, outcome.required_route_call_coverage]).toEqual([
      0,
      "final_answer",
      1,
    ]);
    expect(outcome.required_routes_advanced).toEqual(["materials.retrieve", "exports.export"]);
  });

  it("counts tool-schema tokens of the shown tools only, and input tokens of the whole request", async () => {
    const small = await episode(exportTask, scriptedAgent([{ text: "x" }]), [["materials.retrieve"]]);
    const full = await episode(exportTask, scriptedAgent([{ text: "x" }]), ["all"]);
    expect(small.tokens.tool_schema).toBeGreaterThan(0);
    expect(full.tokens.tool_schema).toBeGreaterThan(20 * small.tokens.tool_schema);
    expect(full.tokens.input - full.tokens.tool_schema).toBe(small.tokens.input - small.tokens.tool_schema);
  });

  it("records an unauthorized destructive attempt", async () => {
    const outcome = await episode(
      exportTask,
      scriptedAgent([
        { calls: [{ name: "inventory__delete", arguments: { item_id: "I-9" } }] },
        { text: "x" },
      ]),
      ["all"],
    );
    expect([outcome.unauthorized_destructive_attempts, outcome.unauthorized_destructive_executions]).toEqual([
      1, 0,
    ]);
  });
});

describe("the reference agent", () => {
  const agent = referenceAgent("REQUEST_MORE_TOOLS");
  const recallOf = async (t: Task, stages: Stage[]) => {
    const outcome = await episode(t, agent, stages);
    return { outcome, score: scoreEpisode(t, parseEnvelope(outcome.final_text), units) };
  };

  it("recalls every required fact when it sees every route, for every stratum", async () => {
    for (const stratum of protocol.answer_task_strata) {
      const { score } = await recallOf(task(stratum), ["all"]);
      expect(score.metrics.required_fact_recall).toBe(1);
      expect(score.metrics.unsupported_fact_count).toBe(0);
    }
  });

  it("loses exactly the facts that need a step it could not reach under a bad top-k ranking", async () => {
    const t = task("multi_source_comparison");
    // A ranking that puts materials.history last: top-5 shows current but never history.
    const ranking = [
      ...keywordRanking(t.query, endpoints).filter((r) => r !== "materials.history"),
      "materials.history",
    ];
    const stages = manifestEntry(protocol, t, 100, ranking).conditions["SR-5"]!.stages;
    const { outcome, score } = await recallOf(t, stages);
    expect(score.facts.map((f) => f.key)).toEqual(["yield_strength_current"]);
    expect(score.metrics.required_fact_recall).toBe(0.5);
    expect(outcome.final_text.startsWith("REQUEST_MORE_TOOLS")).toBe(true);
  });

  it("recovers under SR-PROGRESSIVE by asking for more tools, within the turn limit", async () => {
    const t = task("corrective_expansion_required");
    const ranking = [
      ...keywordRanking(t.query, endpoints).filter((r) => r !== "messaging.send"),
      "messaging.send",
    ];
    const { outcome, score } = await recallOf(
      t,
      manifestEntry(protocol, t, 100, ranking).conditions["SR-PROGRESSIVE"]!.stages,
    );
    expect(outcome.expansions).toBeGreaterThan(0);
    expect(score.metrics.required_fact_recall).toBe(1);
  });
});
