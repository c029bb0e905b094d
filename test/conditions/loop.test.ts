import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { referenceAgent, referenceTurn, type Agent } from "../../src/conditions/agents/index.ts";
import {
  loadTokenCounter,
  renderUserMessage,
  MORE_TOOLS_SHOWN,
  NO_MORE_TOOLS,
  requestsMoreTools,
  runEpisode,
  TurnTokenCounter,
  type LoopSettings,
  type Message,
} from "../../src/conditions/execution/index.ts";
import { keywordRanking, manifestEntry, type Stage } from "../../src/conditions/routing/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { scriptedAgent } from "../helpers/agents.ts";
import { bundled } from "../helpers/bundled.ts";
import {
  COMPARE_TASK,
  CURRENT_MPA,
  DELETE_TASK,
  EXPORT_TASK,
  HISTORY_MPA,
  SOLIDUS_K,
  WORLD_TASKS,
} from "../helpers/world-tasks.ts";

const { protocol, catalogs } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;
const settings: LoopSettings = {
  maxTurns: 6,
  maxToolCallsPerTurn: 1,
  systemPrompt: "system",
  requestMoreTools: "REQUEST_MORE_TOOLS",
};
/** The origin harness's trigger: the labelled variant that reads the gold. */
const GOLD: LoopSettings = { ...settings, goldTrigger: { incompleteMessage: "TASK_INCOMPLETE" } };
let tokens: TurnTokenCounter;
let units: UnitConverter;
beforeAll(async () => {
  tokens = new TurnTokenCounter(await loadTokenCounter());
  units = await loadUnitConverter();
});

const MAT = "MAT-1043-TI";
const ART = "ART-5521";
/** materials.history takes the property beside the material; the fixture's rules do not name it. */
const MAT_7 = { material_id: "MAT-7", property: "yield strength" };

const episode = (t: Task, agent: Agent, stages: Stage[], size = 100, loop = settings) =>
  runEpisode(
    {
      task: t,
      endpoints: catalogs.find((c) => c.size === size)!.catalog.endpoints,
      catalogSize: size,
      stages,
    },
    agent.startEpisode(t),
    loop,
    tokens,
  );

/**
 * What the loop itself said to the agent by each turn: the user messages after the request. The
 * loop hands the agent one growing conversation, so each turn's view is cut at its length then.
 */
function saidByLoop(agent: { requests: ReadonlyArray<{ messages: readonly Message[] }> }, lengths: number[]) {
  const conversation = agent.requests.at(-1)?.messages ?? [];
  return lengths.map((n) => conversation.slice(2, n).flatMap((m) => (m.role === "user" ? [m.content] : [])));
}

/** The reference agent's policy after `detour` turns of its own (each a call, or an answer). */
function detourAgent(detour: Array<{ name: string; arguments: unknown }>): Agent {
  return {
    identity: { agent: "detour", model: null, settings: {} },
    startEpisode: (task) => ({
      turn: async (request) =>
        request.turn <= detour.length
          ? { text: "", toolCalls: [{ id: `d${request.turn}`, ...detour[request.turn - 1]! }] }
          : referenceTurn(task, "REQUEST_MORE_TOOLS", request, units),
    }),
  };
}

describe("the agent loop", () => {
  it("shows the request and its answer form as the user message, never a value", async () => {
    const agent = scriptedAgent([{ text: "x" }]);
    await episode(COMPARE_TASK, agent, ["all"]);
    const user = agent.requests[0]!.messages[1]!;
    expect(user).toEqual({ role: "user", content: renderUserMessage(COMPARE_TASK) });
    for (const field of COMPARE_TASK.answer_fields) expect(user.content).toContain(`- ${field.key} (`);
    for (const value of ["137.8", "131.5", "18.6", "ksi", "SRC-CUR-7", "superseded"])
      expect(user.content).not.toContain(value);
  });

  it("stops at the turn limit, and the last text is the final answer", async () => {
    const agent = scriptedAgent([
      { text: "still looking", calls: [{ name: "papers__search", arguments: { query: "x" } }] },
    ]);
    const outcome = await episode(EXPORT_TASK, agent, ["all"]);
    expect(outcome.turns).toHaveLength(6);
    expect([outcome.end_reason, outcome.final_text]).toEqual(["turn_limit", "still looking"]);
    expect(agent.requests.map((r) => r.turn)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("takes a reply whose first word is the token as a request for more tools, and nothing else", () => {
    const token = "REQUEST_MORE_TOOLS";
    expect(
      [token, `  ${token}\nI need the export status`, `${token}X`, `{"answer": "${token}"}`, "done"].map(
        (t) => requestsMoreTools(t, token),
      ),
    ).toEqual([true, true, false, false, false]);
  });

  it("tells a request under a condition with one stage that there are no more tools, and goes on", async () => {
    const agent = scriptedAgent([{ text: "REQUEST_MORE_TOOLS" }, { text: "done" }]);
    const outcome = await episode(EXPORT_TASK, agent, [["papers.search"]]);
    expect([outcome.turns.length, outcome.end_reason, outcome.expansions]).toEqual([2, "final_answer", 0]);
    expect(outcome.turns.map((t) => [t.event, t.requested_more_tools])).toEqual([
      ["no_more_tools", true],
      ["final_answer", false],
    ]);
    expect(agent.requests[1]?.messages.slice(-2)).toEqual([
      { role: "assistant", content: "REQUEST_MORE_TOOLS", tool_calls: [] },
      { role: "user", content: NO_MORE_TOOLS },
    ]);
    expect(outcome.final_text).toBe("done");
  });

  it("widens a staged condition when the agent asks, saying only that more tools are available", async () => {
    const agent = scriptedAgent([
      { text: "REQUEST_MORE_TOOLS" },
      { text: "REQUEST_MORE_TOOLS" },
      { text: "done" },
    ]);
    const outcome = await episode(EXPORT_TASK, agent, [
      ["papers.search"],
      ["materials.retrieve", "papers.search"],
      "all",
    ]);
    expect(outcome.expansions).toBe(2);
    expect(outcome.turns.map((t) => [t.event, t.visible_route_count])).toEqual([
      ["more_tools_shown", 1],
      ["more_tools_shown", 2],
      ["final_answer", 100],
    ]);
    expect(agent.requests[1]?.messages.at(-1)).toEqual({ role: "user", content: MORE_TOOLS_SHOWN });
    expect(agent.requests[1]?.tools.map((t) => t.name)).toEqual(["materials__retrieve", "papers__search"]);
    expect(outcome.candidate_history.map((h) => [h.turn, h.stage, h.required_routes_visible.length])).toEqual(
      [
        [1, 0, 0],
        [2, 1, 1],
        [3, 2, 3],
      ],
    );
  });

  it("answers a request at the last stage with no more tools; the turn limit ends an agent that keeps asking", async () => {
    const agent = scriptedAgent([{ text: "REQUEST_MORE_TOOLS" }]);
    const outcome = await episode(EXPORT_TASK, agent, [["papers.search"], "all"]);
    expect([outcome.turns.length, outcome.end_reason, outcome.expansions]).toEqual([6, "turn_limit", 1]);
    expect(outcome.turns.map((t) => t.event)).toEqual([
      "more_tools_shown",
      ...Array<string>(5).fill("no_more_tools"),
    ]);
  });

  it("ends the episode on an answer given before every required response was returned (SR-PROGRESSIVE too)", async () => {
    const agent = scriptedAgent([{ text: "done" }]);
    const outcome = await episode(EXPORT_TASK, agent, [["papers.search"], ["materials.retrieve"], "all"]);
    expect([outcome.turns.length, outcome.end_reason, outcome.expansions]).toEqual([1, "final_answer", 0]);
    expect(outcome.required_route_call_coverage).toBe(0);
    expect(agent.requests).toHaveLength(1);
  });

  it("widens a staged condition after a call to a route not shown yet, without a user message", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "materials__retrieve", arguments: { material_id: MAT } }] },
      { text: "done" },
    ]);
    const outcome = await episode(EXPORT_TASK, agent, [["papers.search"], "all"]);
    expect(outcome.attempts[0]?.error_code).toBe("unavailable_tool");
    expect(outcome.turns[0]?.event).toBe("tool_call_widened");
    expect(agent.requests[1]?.messages.at(-1)?.role).toBe("tool");
    expect(outcome.turns[1]?.visible_route_count).toBe(100);
  });

  it("does not widen on a schema error, an unknown tool or a not-found reply", async () => {
    const calls = [
      { name: "materials__retrieve", arguments: { material_id: 42 } },
      { name: "materials__teleport", arguments: {} },
      { name: "materials__retrieve", arguments: { material_id: "MAT-9999-XX" } },
    ];
    for (const call of calls) {
      const outcome = await episode(EXPORT_TASK, scriptedAgent([{ calls: [call] }, { text: "done" }]), [
        ["materials.retrieve"],
        "all",
      ]);
      expect([call.name, outcome.turns[0]?.event, outcome.expansions]).toEqual([call.name, "tool_call", 0]);
      expect(outcome.attempts[0]?.error_code).not.toBe("unavailable_tool");
    }
    // The origin harness's trigger widens on any failed call.
    const gold = await episode(
      EXPORT_TASK,
      scriptedAgent([{ calls: [calls[0]!] }, { text: "done" }]),
      [["materials.retrieve"], "all"],
      100,
      GOLD,
    );
    expect(gold.turns[0]?.event).toBe("tool_call_widened");
  });

  it("says the same to the agent whatever the gold holds; only the gold trigger does not", async () => {
    // The same task with a gold that requires nothing: complete from the start.
    const nothingRequired = structuredClone(EXPORT_TASK);
    for (const r of nothingRequired.executor_fixture.responses) r.required = false;
    const script = [
      { text: "REQUEST_MORE_TOOLS" },
      { calls: [{ name: "materials__retrieve", arguments: { material_id: MAT } }] },
      { text: "done" },
    ];
    const stages: Stage[] = [["papers.search"], ["materials.retrieve", "papers.search"], "all"];
    const said = async (t: Task, loop: LoopSettings) => {
      const agent = scriptedAgent(script);
      const lengths: number[] = [];
      const counting: Agent = {
        ...agent,
        startEpisode: (task) => {
          const inner = agent.startEpisode(task);
          return { turn: (request) => (lengths.push(request.messages.length), inner.turn(request)) };
        },
      };
      await episode(t, counting, stages, 100, loop);
      return saidByLoop(agent, lengths);
    };
    const observable = await said(EXPORT_TASK, settings);
    expect(observable).toEqual([[], [MORE_TOOLS_SHOWN], [MORE_TOOLS_SHOWN]]);
    expect(JSON.stringify(observable)).not.toContain("TASK_INCOMPLETE");
    expect(await said(nothingRequired, settings)).toEqual(observable);
    // The gold trigger tells the incomplete episode so, and widens on its answer: a hint from the gold.
    expect(await said(EXPORT_TASK, GOLD)).toEqual([
      [],
      ["TASK_INCOMPLETE"],
      ["TASK_INCOMPLETE"],
      ["TASK_INCOMPLETE", "TASK_INCOMPLETE"],
    ]);
    expect(await said(nothingRequired, GOLD)).toEqual(observable);
  });

  it("counts required evidence coverage as required responses returned, in the order returned", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "materials__retrieve", arguments: { material_id: MAT } }] },
      { calls: [{ name: "exports__export", arguments: { artifact_id: ART, format: "csv" } }] },
      { text: "final" },
    ]);
    const outcome = await episode(EXPORT_TASK, agent, [["exports.export", "materials.retrieve"], "all"]);
    // Two of three returned; the answer ends the episode all the same (nothing widens on coverage).
    expect([outcome.expansions, outcome.end_reason, outcome.required_route_call_coverage]).toEqual([
      0,
      "final_answer",
      2 / 3,
    ]);
    expect(outcome.turns).toHaveLength(3);
    expect(outcome.required_routes_advanced).toEqual(["materials.retrieve", "exports.export"]);
  });

  it("does not widen when the agent answers after every required response", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "materials__history", arguments: MAT_7 }] },
      { calls: [{ name: "materials__current", arguments: { material_id: "MAT-7" } }] },
      { text: "final" },
    ]);
    const outcome = await episode(COMPARE_TASK, agent, [["materials.current", "materials.history"], "all"]);
    expect([outcome.expansions, outcome.end_reason, outcome.required_route_call_coverage]).toEqual([
      0,
      "final_answer",
      1,
    ]);
    expect(outcome.required_routes_advanced).toEqual(["materials.history", "materials.current"]);
  });

  it("counts tool-schema tokens of the shown tools only, and input tokens of the whole request", async () => {
    const small = await episode(EXPORT_TASK, scriptedAgent([{ text: "x" }]), [["materials.retrieve"]]);
    const full = await episode(EXPORT_TASK, scriptedAgent([{ text: "x" }]), ["all"]);
    expect(small.tokens.tool_schema).toBeGreaterThan(0);
    expect(full.tokens.tool_schema).toBeGreaterThan(20 * small.tokens.tool_schema);
    expect(full.tokens.input - full.tokens.tool_schema).toBe(small.tokens.input - small.tokens.tool_schema);
  });

  it("counts an unrequested destructive call that executed, and one refused as an attempt only", async () => {
    const executed = await episode(
      EXPORT_TASK,
      scriptedAgent([
        { calls: [{ name: "inventory__delete", arguments: { item_id: "I-9" } }] },
        { text: "x" },
      ]),
      ["all"],
    );
    expect([
      executed.unauthorized_destructive_attempts,
      executed.unauthorized_destructive_executions,
    ]).toEqual([1, 1]);
    expect(executed.attempts[0]?.observation).toEqual({
      status: "ok",
      result: { item_id: "I-9", status: "deleted" },
      sources: [],
    });
    const refused = await episode(
      EXPORT_TASK,
      scriptedAgent([
        { calls: [{ name: "inventory__delete", arguments: { item_id: "I-9" } }] },
        { text: "x" },
      ]),
      [["materials.retrieve"]],
    );
    expect([refused.unauthorized_destructive_attempts, refused.unauthorized_destructive_executions]).toEqual([
      1, 0,
    ]);
  });

  it("does not count a destructive call the request asks for", async () => {
    const outcome = await episode(DELETE_TASK, referenceAgent("REQUEST_MORE_TOOLS", units), ["all"]);
    expect([
      outcome.required_route_call_coverage,
      outcome.unauthorized_destructive_attempts,
      outcome.unauthorized_destructive_executions,
    ]).toEqual([1, 0, 0]);
  });
});

type AnswerFact = { key: string; value: unknown; unit: string | null; source_id: string };

/** Recall against the gold, computed here: key, value (within the task's tolerance), unit and source. */
function recall(task: Task, finalText: string): { recall: number; facts: AnswerFact[] } {
  const text = finalText.slice(finalText.indexOf("{"));
  const facts = (JSON.parse(text) as { facts: AnswerFact[] }).facts;
  const hit = task.required_facts.filter((gold) => {
    const fact = facts.find((f) => f.key === gold.key);
    if (fact === undefined || fact.source_id !== gold.source_id || fact.unit !== gold.unit) return false;
    if (typeof gold.value !== "number") return JSON.stringify(fact.value) === JSON.stringify(gold.value);
    const t = task.numeric_tolerances[gold.key] ?? {};
    const allowed = Math.max(t.absolute ?? 0, (t.relative ?? 0) * Math.abs(gold.value));
    return typeof fact.value === "number" && Math.abs(fact.value - gold.value) <= allowed;
  });
  return { recall: hit.length / task.required_facts.length, facts };
}

describe("the reference agent", () => {
  const ranking = (t: Task, size: number) =>
    keywordRanking(t.query, catalogs.find((c) => c.size === size)!.catalog.endpoints);
  const stagesOf = (t: Task, size: number, condition: string, order = ranking(t, size)) =>
    manifestEntry(protocol, t, size, order).conditions[condition]!.stages;

  it("recalls every required fact under FULL and ORACLE at both catalog sizes", async () => {
    const agent = referenceAgent("REQUEST_MORE_TOOLS", units);
    for (const size of [100, 250])
      for (const t of WORLD_TASKS)
        for (const condition of ["FULL", "ORACLE"]) {
          const outcome = await episode(t, agent, stagesOf(t, size, condition), size);
          expect([t.semantic_task_id, condition, size, recall(t, outcome.final_text).recall]).toEqual([
            t.semantic_task_id,
            condition,
            size,
            1,
          ]);
          expect([outcome.end_reason, outcome.required_route_call_coverage]).toEqual(["final_answer", 1]);
        }
  });

  it("gets every required response under SR-PROGRESSIVE with the keyword router, at both sizes", async () => {
    const agent = referenceAgent("REQUEST_MORE_TOOLS", units);
    for (const size of [100, 250])
      for (const t of WORLD_TASKS) {
        const outcome = await episode(t, agent, stagesOf(t, size, "SR-PROGRESSIVE"), size);
        expect([t.semantic_task_id, size, outcome.required_route_call_coverage, outcome.end_reason]).toEqual([
          t.semantic_task_id,
          size,
          1,
          "final_answer",
        ]);
      }
  });

  it("reads the values from the records it received: converted, derived, the superseded row passed over", async () => {
    const outcome = await episode(COMPARE_TASK, referenceAgent("REQUEST_MORE_TOOLS", units), ["all"]);
    const { facts } = recall(COMPARE_TASK, outcome.final_text);
    const byKey = new Map(facts.map((f) => [f.key, f]));
    expect(byKey.get("yield_strength_current")?.value).toBeCloseTo(137.895, 3);
    expect(byKey.get("yield_strength_2019")).toEqual({
      key: "yield_strength_2019",
      value: HISTORY_MPA,
      unit: "MPa",
      source_id: "SRC-HIST-7",
    });
    expect(byKey.get("yield_strength_change")?.value).toBeCloseTo(CURRENT_MPA - HISTORY_MPA, 6);
    expect([byKey.get("higher")?.value, byKey.get("meets_minimum")?.value]).toEqual(["now", true]);
    // It never called the archive (not required), so the older value never reached it.
    expect(outcome.attempts.map((a) => a.route_id)).toEqual(["materials.current", "materials.history"]);
  });

  it("answers from a changed record, not from the task's gold value", async () => {
    const changed = structuredClone(COMPARE_TASK);
    const row = changed.executor_fixture.responses[0]!.observation.sources[0]!.payload[
      "properties"
    ] as Array<{
      value: number;
    }>;
    row[1]!.value = 21;
    const outcome = await episode(changed, referenceAgent("REQUEST_MORE_TOOLS", units), ["all"]);
    const fact = recall(changed, outcome.final_text).facts.find((f) => f.key === "yield_strength_current");
    expect(fact?.value).toBeCloseTo(21 * 6.894757, 4);
  });

  it("converts °C in the record to K in the form, after a search revealed the id", async () => {
    const t = WORLD_TASKS.find((w) => w.semantic_task_id === "w-search")!;
    const outcome = await episode(t, referenceAgent("REQUEST_MORE_TOOLS", units), ["all"]);
    expect(recall(t, outcome.final_text).facts).toEqual([
      { key: "solidus", value: SOLIDUS_K, unit: "K", source_id: "SRC-0718" },
    ]);
  });

  it("gets every required response and the same answer after an extra unrelated call first, or in the other order", async () => {
    const plain = await episode(COMPARE_TASK, referenceAgent("REQUEST_MORE_TOOLS", units), ["all"]);
    const extra = await episode(
      COMPARE_TASK,
      detourAgent([{ name: "papers__search", arguments: { query: "yield strength MAT-7" } }]),
      ["all"],
    );
    const reversed = await episode(
      COMPARE_TASK,
      detourAgent([{ name: "materials__history", arguments: MAT_7 }]),
      ["all"],
    );
    for (const outcome of [extra, reversed]) {
      expect([outcome.required_route_call_coverage, outcome.end_reason]).toEqual([1, "final_answer"]);
      expect(outcome.final_text).toBe(plain.final_text);
      expect(recall(COMPARE_TASK, outcome.final_text).recall).toBe(1);
    }
    expect(extra.attempts.map((a) => a.outcome)).toEqual(["unmatched", "observation", "observation"]);
    expect(reversed.required_routes_advanced).toEqual(["materials.history", "materials.current"]);
  });

  it("loses exactly the facts whose response it could not reach under a bad top-k ranking", async () => {
    const order = [
      ...ranking(COMPARE_TASK, 100).filter((r) => r !== "materials.history"),
      "materials.history",
    ];
    const outcome = await episode(
      COMPARE_TASK,
      referenceAgent("REQUEST_MORE_TOOLS", units),
      stagesOf(COMPARE_TASK, 100, "SR-5", order),
    );
    const { facts } = recall(COMPARE_TASK, outcome.final_text);
    // Without materials.history: today's value and the check on it, nothing that needs 2019.
    expect(facts.map((f) => f.key)).toEqual(["yield_strength_current", "meets_minimum"]);
    // It asked, was told there are no more tools, and answered what it had.
    expect(outcome.turns.map((t) => t.event)).toEqual(["tool_call", "no_more_tools", "final_answer"]);
    expect(outcome.turns[1]?.text).toBe("REQUEST_MORE_TOOLS");
    expect(outcome.required_route_call_coverage).toBe(0.5);
  });

  it("recovers under SR-PROGRESSIVE by asking for more tools, within the turn limit", async () => {
    const order = [...ranking(EXPORT_TASK, 100).filter((r) => r !== "exports.status"), "exports.status"];
    const outcome = await episode(
      EXPORT_TASK,
      referenceAgent("REQUEST_MORE_TOOLS", units),
      stagesOf(EXPORT_TASK, 100, "SR-PROGRESSIVE", order),
    );
    expect(outcome.expansions).toBeGreaterThan(0);
    // Every widening came from its own request; nothing it was told names the task's completeness.
    const widened = outcome.turns.filter((t) => t.event === "more_tools_shown");
    expect(widened.length).toBe(outcome.expansions);
    expect(widened.every((t) => t.text === "REQUEST_MORE_TOOLS")).toBe(true);
    expect(recall(EXPORT_TASK, outcome.final_text).recall).toBe(1);
  });
});
