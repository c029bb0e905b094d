/**
 * The loop under a search condition (#34): what the agent is shown, what a search loads and from
 * when, how a not-loaded tool is answered, the cap, the tokens, the records — and that the records
 * of every other condition gain nothing. Searches are by exact function name (a regex anchored on
 * it matches that one name field), so nothing here depends on BM25's ranking.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { AgentTurnRequest, AgentTurnResponse } from "../../src/conditions/agents/index.ts";
import {
  renderTool,
  runEpisode,
  TurnTokenCounter,
  type LoopSettings,
} from "../../src/conditions/execution/index.ts";
import { searchTool, type SearchSettings } from "../../src/conditions/search/index.ts";
import { scriptedAgent } from "../helpers/agents.ts";
import { bundled } from "../helpers/bundled.ts";

const { catalogs, corpus } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;
/** v4-single_property_value_unit_provenance-en-01: one required route, materials.current. */
const task = corpus.tasks[0] as Task;
const REGEX: SearchSettings = { engine: "regex", k: 5, executor: "fabench" };
const BM25: SearchSettings = { engine: "bm25", k: 5, executor: "fabench" };
const base: LoopSettings = {
  maxTurns: 6,
  maxToolCallsPerTurn: 1,
  systemPrompt: "system",
  requestMoreTools: "REQUEST_MORE_TOOLS",
};
/** A counter whose count is the text's length: every token figure is computable by hand. */
const lengths = () => new TurnTokenCounter({ name: "length", count: (text) => text.length });
const CURRENT = "materials__current";
const MAT = { material_id: "MAT-1104-PE" };

function run(agent: ReturnType<typeof scriptedAgent>, search?: SearchSettings, counter = lengths()) {
  return runEpisode(
    { task, endpoints, catalogSize: 100, stages: [[]] },
    agent.startEpisode(task),
    search === undefined ? base : { ...base, search },
    counter,
  );
}

function toolReplies(agent: { requests: readonly AgentTurnRequest[] }): string[] {
  return (agent.requests.at(-1)?.messages ?? []).flatMap((m) => (m.role === "tool" ? [m.content] : []));
}

describe("a portable search condition", () => {
  it("shows the search tool alone, loads a search's hits from the next turn on, and records it", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "tool_search", arguments: { pattern: `^${CURRENT}$` } }] },
      { calls: [{ name: CURRENT, arguments: MAT }] },
      { text: "done" },
    ]);
    const outcome = await run(agent, REGEX);
    expect(agent.requests[0]!.tools.map((t) => t.name)).toEqual(["tool_search"]);
    expect(agent.requests[1]!.tools.map((t) => t.name)).toEqual(["tool_search", CURRENT]);
    // The loop hands the agent one growing conversation: the replies are read in order.
    const reply = toolReplies(agent)[0]!;
    const current = endpoints.find((e) => e.function_name === CURRENT)!;
    expect(JSON.parse(reply)).toEqual({
      tools: [{ name: CURRENT, description: renderTool(current).description }],
    });
    expect(outcome.required_route_call_coverage).toBe(1);
    expect(outcome.search_count).toBe(1);
    expect(outcome.routes_loaded).toEqual(["materials.current"]);
    expect(
      outcome.turns.map((t) => [t.turn, (t as { loaded_route_count?: number }).loaded_route_count]),
    ).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
    expect((outcome.turns[0] as { searches?: unknown }).searches).toEqual([
      {
        engine: "regex",
        executor: "fabench",
        query: `^${CURRENT}$`,
        results: ["materials.current"],
        error_code: null,
      },
    ]);
    expect((outcome.turns[1] as { searches?: unknown }).searches).toEqual([]);
    expect(outcome.candidate_history).toEqual([
      { turn: 1, stage: 0, visible_route_count: 0, required_routes_visible: [] },
      { turn: 2, stage: 0, visible_route_count: 1, required_routes_visible: ["materials.current"] },
    ]);
    // The search is no executor call: only the catalog call is an attempt.
    expect(outcome.attempts.map((a) => a.name)).toEqual([CURRENT]);
  });

  it("answers a call to a tool not loaded exactly as an unknown tool, and never widens", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: CURRENT, arguments: MAT }] },
      { calls: [{ name: "no_such__tool", arguments: MAT }] },
      { text: "done" },
    ]);
    const outcome = await run(agent, REGEX);
    const [hidden, unknown] = outcome.attempts;
    expect(hidden!.error_code).toBe("unavailable_tool");
    expect(unknown!.error_code).toBe("unknown_tool");
    expect(hidden!.observation).toEqual({
      status: "error",
      error_code: "unknown_tool",
      message: `there is no tool named ${CURRENT}`,
    });
    expect(outcome.turns.map((t) => t.event)).toEqual(["tool_call", "tool_call", "final_answer"]);
    expect(outcome.candidate_history).toHaveLength(1);
    expect(outcome.required_route_call_coverage).toBe(0);
  });

  it("counts a search against the per-turn cap: a second call in the turn is refused", async () => {
    const agent = scriptedAgent([
      {
        calls: [
          { name: "tool_search", arguments: { pattern: `^${CURRENT}$` } },
          { name: CURRENT, arguments: MAT },
        ],
      },
      { text: "done" },
    ]);
    const outcome = await run(agent, REGEX);
    expect(outcome.turns[0]!.refused_tool_calls).toBe(1);
    expect(outcome.attempts).toEqual([]);
    expect(outcome.search_count).toBe(1);
  });

  it("answers a refused query with its code and records it; an empty query too", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "tool_search", arguments: { pattern: "a".repeat(201) } }] },
      { calls: [{ name: "tool_search", arguments: {} }] },
      { text: "done" },
    ]);
    const outcome = await run(agent, REGEX);
    const first = JSON.parse(toolReplies(agent)[0]!);
    expect(first.error.code).toBe("pattern_too_long");
    const records = outcome.turns.flatMap(
      (t) => (t as { searches?: Array<{ error_code: string | null; results: string[] }> }).searches ?? [],
    );
    expect(records.map((r) => [r.error_code, r.results])).toEqual([
      ["pattern_too_long", []],
      ["empty_query", []],
    ]);
    expect(outcome.search_count).toBe(2);
    expect(outcome.routes_loaded).toEqual([]);
  });

  it("loads BM25 hits the same way: a search by a tool's name words returns it", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "tool_search", arguments: { query: "materials current" } }] },
      { calls: [{ name: CURRENT, arguments: MAT }] },
      { text: "done" },
    ]);
    const outcome = await run(agent, BM25);
    expect(outcome.routes_loaded).toContain("materials.current");
    expect(outcome.routes_loaded!.length).toBeLessThanOrEqual(5);
    expect(agent.requests[0]!.tools[0]!.parameters.required).toEqual(["query"]);
    expect(outcome.required_route_call_coverage).toBe(1);
  });

  it("counts the search tool's schema plus the loaded tools' schemas, per turn", async () => {
    const agent = scriptedAgent([
      { calls: [{ name: "tool_search", arguments: { pattern: `^${CURRENT}$` } }] },
      { text: "done" },
    ]);
    const outcome = await run(agent, REGEX);
    const current = endpoints.find((e) => e.function_name === CURRENT)!;
    const search = searchTool("regex", 5);
    expect(outcome.turns.map((t) => t.tokens.tool_schema)).toEqual([
      JSON.stringify([search]).length,
      JSON.stringify([search, renderTool(current)]).length,
    ]);
  });
});

describe("records of the other conditions", () => {
  it("gain no search field", async () => {
    const agent = scriptedAgent([{ calls: [{ name: CURRENT, arguments: MAT }] }, { text: "done" }]);
    const outcome = await runEpisode(
      { task, endpoints, catalogSize: 100, stages: ["all"] },
      agent.startEpisode(task),
      base,
      lengths(),
    );
    expect(Object.keys(outcome)).not.toContain("search_count");
    expect(Object.keys(outcome)).not.toContain("routes_loaded");
    for (const turn of outcome.turns) {
      expect(Object.keys(turn)).not.toContain("searches");
      expect(Object.keys(turn)).not.toContain("loaded_route_count");
    }
    expect(agent.requests[0]!.toolSearch).toBeUndefined();
  });
});

describe("a native search condition", () => {
  const NATIVE: SearchSettings = { engine: "bm25", k: 5, executor: "provider" };

  /** A provider agent's stand-in: turn 1 reports a provider search and calls what it loaded. */
  function providerAgent(loaded: string[]) {
    const requests: AgentTurnRequest[] = [];
    return {
      requests,
      identity: { agent: "fake-provider", model: "m", settings: {} },
      startEpisode: () => ({
        turn: async (request: AgentTurnRequest): Promise<AgentTurnResponse> => {
          requests.push(request);
          if (requests.length > 1) return { text: "done", toolCalls: [] };
          return {
            text: "",
            toolCalls: [{ id: "c1", name: CURRENT, arguments: MAT }],
            searches: [{ query: "heat deflection", loaded }],
            raw: [{ type: "server_tool_use", id: "s1" }],
          };
        },
      }),
    };
  }

  it("counts the provider's search tool as the agent sends it, when the runner gives it", async () => {
    const sent = { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
    const outcome = await runEpisode(
      { task, endpoints, catalogSize: 100, stages: [[]] },
      providerAgent([CURRENT]).startEpisode(),
      { ...base, search: NATIVE, nativeSearchTool: sent },
      lengths(),
    );
    const current = endpoints.find((e) => e.function_name === CURRENT)!;
    expect(outcome.turns.map((t) => t.tokens.tool_schema)).toEqual([
      JSON.stringify([sent]).length,
      JSON.stringify([sent, renderTool(current)]).length,
    ]);
  });

  it("hands over the whole catalog and toolSearch, records the provider's searches, keeps raw", async () => {
    const agent = providerAgent([CURRENT, "not_in__catalog"]);
    const outcome = await runEpisode(
      { task, endpoints, catalogSize: 100, stages: [[]] },
      agent.startEpisode(),
      { ...base, search: NATIVE },
      lengths(),
    );
    const first = agent.requests[0]!;
    expect(first.tools).toHaveLength(endpoints.length);
    expect(first.toolSearch?.settings).toEqual(NATIVE);
    expect(first.toolSearch?.clientSearch("materials current")).toContain(CURRENT);
    // Loaded by the provider within the turn: the call in the same response runs.
    expect(outcome.attempts.map((a) => a.outcome)).toEqual(["observation"]);
    expect(outcome.required_route_call_coverage).toBe(1);
    expect(outcome.turns[0]).toMatchObject({
      searches: [
        {
          engine: "bm25",
          executor: "provider",
          query: "heat deflection",
          results: ["materials.current"],
          error_code: null,
        },
      ],
      loaded_route_count: 0,
      unknown_search_results: 1,
    });
    expect(outcome.search_count).toBe(1);
    const assistant = agent.requests[1]!.messages.find((m) => m.role === "assistant");
    expect(assistant).toMatchObject({ raw: [{ type: "server_tool_use", id: "s1" }] });
    // Tokens: the search tool's schema alone on turn 1 (no deferred schema), then with the loaded one.
    const current = endpoints.find((e) => e.function_name === CURRENT)!;
    const search = searchTool("bm25", 5);
    expect(outcome.turns.map((t) => t.tokens.tool_schema)).toEqual([
      JSON.stringify([search]).length,
      JSON.stringify([search, renderTool(current)]).length,
    ]);
  });
});
