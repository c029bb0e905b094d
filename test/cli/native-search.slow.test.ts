/**
 * The acceptance of #34 for the providers' own tool search, through `fabench run`: a model agent
 * under NATIVE-SEARCH-BM25 / NATIVE-SEARCH-REGEX against the loopback fake that speaks the real
 * wire formats (test/helpers/fake-tool-search.ts) — Anthropic bm25, Anthropic regex, OpenAI
 * hosted and OpenAI client-executed. The request carries `defer_loading` on every catalog tool and
 * the provider's search tool; no deferred tool's schema is counted until a search returned it; the
 * run records each search and what it loaded; `score` scores the episode like any other, labelled
 * not preregistered.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Endpoint } from "../../src/conditions/catalog/schema.ts";
import { loadTokenCounter, renderTools, type TokenCounter } from "../../src/conditions/execution/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { startFakeToolSearch, type FakeToolSearch } from "../helpers/fake-tool-search.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const KEY = "sk-test-SECRET-0123456789";
const ENV = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
/** One task with one required route, which the fake model searches for and calls with its gold arguments. */
const TASK = "v4-single_property_value_unit_provenance-en-01";
const ROUTE = "materials.current";
const FUNCTION = "materials__current";
const { catalogs } = bundled();
const endpoints = catalogs.find((c) => c.size === 100)?.catalog.endpoints as readonly Endpoint[];

type Json = Record<string, unknown>;
type Turn = Json & {
  tokens: { input: number; output: number; tool_schema: number };
  searches: Array<{ engine: string; executor: string; query: string; results: string[]; error_code: null }>;
  loaded_route_count: number;
};
type Rec = Json & { turns: Turn[]; routes_loaded: string[]; search_count: number };

const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

const VARIANTS = [
  ["anthropic bm25", "NATIVE-SEARCH-BM25", ["--agent", "anthropic:claude-test"]],
  ["anthropic regex", "NATIVE-SEARCH-REGEX", ["--agent", "anthropic:claude-test"]],
  ["openai hosted", "NATIVE-SEARCH-BM25", ["--agent", "openai:gpt-test", "--openai-api", "responses"]],
  [
    "openai client-executed",
    "NATIVE-SEARCH-BM25",
    ["--agent", "openai:gpt-test", "--openai-api", "responses", "--openai-tool-search", "client"],
  ],
] as const;

/** The provider's search tool and the deferred catalog tools, as one request carried them. */
function requestTools(body: Json): { search: Json; deferred: Json[]; other: Json[] } {
  const tools = body.tools as Json[];
  const isSearch = (t: Json) => String(t.type).startsWith("tool_search");
  const search = tools.filter(isSearch);
  expect(search).toHaveLength(1);
  return {
    search: search[0] as Json,
    deferred: tools.filter((t) => t.defer_loading === true),
    other: tools.filter((t) => !isSearch(t) && t.defer_loading !== true),
  };
}

describe("native tool search through fabench run", () => {
  const temp = useSuiteTempDir();
  let pilot = "";
  let fake: FakeToolSearch;
  let counter: TokenCounter;

  beforeAll(async () => {
    pilot = join(temp(), "pilot");
    expect((await runCli(["pilot", "init", pilot, "--with-search"])).code).toBe(0);
    fake = await startFakeToolSearch({
      // BM25: words of the route's function name; regex: the name, anchored (the fake matches `name description`).
      queries: { bm25: "materials current", regex: `^${FUNCTION} ` },
      callArguments: { [FUNCTION]: { material_id: "MAT-1104-PE" } },
    });
    counter = await loadTokenCounter();
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
  });

  it.each(VARIANTS)(
    "%s: searches, loads, calls the required route, is recorded and scored",
    async (label, condition, agent) => {
      const dir = join(temp(), label.replace(/ /g, "-"));
      const out = join(dir, "run.jsonl");
      const from = fake.bodies.length;
      const baseUrl = agent[1].startsWith("anthropic") ? fake.url : `${fake.url}/v1`;
      const args = ["run", "--pilot", pilot, ...agent, "--base-url", baseUrl, "--condition", condition];
      const run = await runCli([...args, "--task", TASK, "--catalog-size", "100", "--out", out], {
        env: ENV,
      });
      expect(run.err).toContain("1/1 episodes");
      expect(run.err).toContain("0 infrastructure error(s)");
      expect(run.code).toBe(0);

      // Every request carried the provider's search tool and every catalog tool deferred, nothing else.
      // The model requests (a body-less probe of the server, a GET, is kept as `{}`: left out).
      const bodies = fake.bodies.slice(from).filter((b) => "messages" in b || "input" in b);
      expect(bodies.length).toBeGreaterThanOrEqual(2);
      for (const body of bodies) {
        const { deferred, other } = requestTools(body);
        expect(other).toEqual([]);
        expect(deferred.map((t) => t.name).sort()).toEqual(endpoints.map((e) => e.function_name).sort());
      }
      // As sent, less the prompt-cache breakpoint Anthropic's search tool carries (a request
      // directive, not schema: no tool is counted with it under any condition).
      const { cache_control: _, ...searchTool } = requestTools(bodies[0] as Json).search;

      const [record, ...rest] = read(out);
      expect(rest).toEqual([]);
      if (!record) throw new Error("no record");
      expect(record).toMatchObject({
        condition,
        status: "completed",
        end_reason: "final_answer",
        final_text: "done",
      });
      const [first, second] = record.turns;
      if (!first || !second) throw new Error("two turns expected");
      expect(record.turns).toHaveLength(2);

      // The search is recorded as the provider's, with what it loaded as route ids; the required
      // route is among them, was called and returned its evidence.
      expect(first.searches).toHaveLength(1);
      const [search] = first.searches;
      expect(search).toMatchObject({
        engine: condition.endsWith("REGEX") ? "regex" : "bm25",
        executor: "provider",
        query: condition.endsWith("REGEX") ? `^${FUNCTION} ` : "materials current",
        error_code: null,
      });
      expect(search?.results).toContain(ROUTE);
      expect(search?.results.length).toBeLessThanOrEqual(5);
      if (condition.endsWith("REGEX")) expect(search?.results).toEqual([ROUTE]);
      expect(second.searches).toEqual([]);
      expect(record.search_count).toBe(1);
      expect(record.routes_loaded).toEqual(search?.results);
      expect([first.loaded_route_count, second.loaded_route_count]).toEqual([0, record.routes_loaded.length]);
      expect(record["required_routes_advanced"]).toEqual([ROUTE]);
      expect(record["required_route_call_coverage"]).toBe(1);
      expect(record["candidate_history"]).toEqual([
        { turn: 1, stage: 0, visible_route_count: 0, required_routes_visible: [] },
        {
          turn: 2,
          stage: 0,
          visible_route_count: record.routes_loaded.length,
          required_routes_visible: [ROUTE],
        },
      ]);

      // Tool-schema tokens: the provider's search tool as sent, then with the loaded tools only —
      // far below the whole catalog's schema, which a FULL turn counts.
      const loaded = endpoints.filter((e) => record.routes_loaded.includes(e.route_id));
      const count = (tools: readonly unknown[]) => counter.count(JSON.stringify(tools));
      expect(first.tokens.tool_schema).toBe(count([searchTool]));
      expect(second.tokens.tool_schema).toBe(count([searchTool, ...renderTools(loaded)]));
      expect(second.tokens.tool_schema * 4).toBeLessThan(count(renderTools(endpoints)));

      // Input tokens: turn 2's messages are turn 1's plus the neutral assistant message and the
      // tool result — the provider's raw content the assistant message keeps is not counted again.
      const id = agent[1].startsWith("anthropic") ? "toolu_1" : "call_1";
      const call = { id, name: FUNCTION, arguments: { material_id: "MAT-1104-PE" } };
      const observation = (record["attempts"] as Json[])[0]?.observation;
      const added =
        counter.count(JSON.stringify({ role: "assistant", content: first["text"], tool_calls: [call] })) +
        counter.count(
          JSON.stringify({
            role: "tool",
            tool_call_id: id,
            name: FUNCTION,
            content: JSON.stringify(observation),
          }),
        );
      expect(second.tokens.input - second.tokens.tool_schema).toBe(
        first.tokens.input - first.tokens.tool_schema + added,
      );

      // The episode scores like any other, its condition labelled not preregistered.
      const summary = join(dir, "summary.json");
      const scored = await runCli(["score", "--pilot", pilot, out, "--out", summary, "--allow-incomplete"]);
      expect(scored.code).toBe(0);
      expect(scored.out).toContain(`${condition} *`);
      expect(scored.out).toMatch(/\* not preregistered/);
      expect(scored.out).toMatch(/NOT PREREGISTERED conditions: .*NATIVE-SEARCH-BM25, NATIVE-SEARCH-REGEX/);
      const written = JSON.parse(readFileSync(summary, "utf8")) as {
        preregistered: boolean;
        gate: { preregistered: boolean; conditions_not_preregistered: string[] };
        aggregates: Record<string, Record<string, { episodes: number; means: Record<string, number> }>>;
      };
      expect([written.preregistered, written.gate.preregistered]).toEqual([false, false]);
      expect(written.gate.conditions_not_preregistered).toContain(condition);
      expect(written.aggregates["pooled"]?.[condition]?.episodes).toBe(1);
      expect(written.aggregates["pooled"]?.[condition]?.means).toMatchObject({
        required_evidence_coverage: 1,
        search_count: 1,
        searched: 1,
        tool_schema_tokens: first.tokens.tool_schema + second.tokens.tool_schema,
      });

      // The provider's search content went back as it came: the request after the call holds the
      // query and exactly the tools loaded, in the order the record has them.
      const byRoute = new Map(endpoints.map((e) => [e.route_id, e.function_name]));
      expect(searchContentSent(bodies.at(-1) as Json)).toEqual({
        queries: [search?.query],
        loaded: record.routes_loaded.map((r) => byRoute.get(r)),
      });
    },
    120_000,
  );
});

/**
 * The search content a request sent back (Anthropic's `server_tool_use` and
 * `tool_search_tool_result` blocks; Responses' `tool_search_call` and `tool_search_output` items):
 * the queries asked and the tool names loaded, in order.
 */
function searchContentSent(body: Json): { queries: unknown[]; loaded: string[] } {
  if (Array.isArray(body.messages)) {
    const blocks = (body.messages as Json[]).flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Json[]) : [],
    );
    return {
      queries: blocks.filter((b) => b.type === "server_tool_use").map((b) => (b.input as Json).query),
      loaded: blocks
        .filter((b) => b.type === "tool_search_tool_result")
        .flatMap((b) => ((b.content as Json).tool_references as Json[]).map((r) => String(r.tool_name))),
    };
  }
  const items = body.input as Json[];
  return {
    queries: items.filter((i) => i.type === "tool_search_call").map((i) => (i.arguments as Json).query),
    loaded: items
      .filter((i) => i.type === "tool_search_output")
      .flatMap((i) => (i.tools as Json[]).map((t) => String(t.name))),
  };
}
