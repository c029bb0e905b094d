/**
 * The judge's request is condition-blinded: only the frozen prompt, the query and the answer, with
 * tool and condition names replaced. Unit cases, then a fuzz over every episode of a full reference
 * run (generated once here) — as recorded, and with the episode's own condition and routes written
 * into its answer — that no request holds a condition, a catalog size field, a route id or a
 * function name.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadJudgePrompt } from "../../src/judge/prompt.ts";
import {
  buildJudgeRequest,
  CONDITION_MARK,
  forbiddenTerms,
  makeBlinder,
  RESPONSE_FORMAT_NAME,
  TOOL_MARK,
} from "../../src/judge/request.ts";
import { episodeAnswer } from "../../src/judge/run.ts";
import type { RunRecord } from "../../src/conditions/runner/index.ts";
import { anthropicRequest, openaiRequest } from "../../src/providers/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BUNDLED_PROTOCOL_PATH } from "../helpers/protocol.ts";
import { sharedFixture } from "../helpers/shared-fixtures.ts";

const { protocol, catalogs, corpus } = bundled();
const prompt = loadJudgePrompt(BUNDLED_PROTOCOL_PATH, protocol);
const CONDITIONS = protocol.conditions.map((c) => c.id);
const terms = forbiddenTerms(
  catalogs.map((c) => c.catalog),
  CONDITIONS,
);
const blind = makeBlinder(terms);
const settings = { temperature: 0, max_output_tokens: 512, seed: null, prompt_cache: false };
const request = (query: string, answer: string) =>
  buildJudgeRequest({ prompt, query, answer, settings }, blind);

describe("blinding", () => {
  it("lists every route id and function name of the catalogs, and the protocol's conditions", () => {
    const endpoints = catalogs.flatMap((c) => c.catalog.endpoints);
    expect(new Set(terms.tools)).toEqual(new Set(endpoints.flatMap((e) => [e.route_id, e.function_name])));
    expect(terms.conditions).toEqual(CONDITIONS);
    expect(CONDITIONS).toEqual(["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"]);
  });

  it("replaces tool names in any case and condition ids as written, as whole words, and counts them", () => {
    const t = makeBlinder({
      tools: ["papers.summarize", "papers__summarize", "a__b", "a__b_c"],
      conditions: CONDITIONS,
    });
    const cases: Array<[string, string, number]> = [
      ["Called papers__summarize, then PAPERS.Summarize.", `Called ${TOOL_MARK}, then ${TOOL_MARK}.`, 2],
      ["사내 위키에 papers.summarize로 뽑은 요약문", `사내 위키에 ${TOOL_MARK}로 뽑은 요약문`, 1],
      ["a__b_c and a__b and a__bc", `${TOOL_MARK} and ${TOOL_MARK} and a__bc`, 2],
      ["xpapers.summarize is not it", "xpapers.summarize is not it", 0],
      [
        "Under FULL (not SR-5, SR-10 or SR-PROGRESSIVE; ORACLE).",
        `Under ${CONDITION_MARK} (not ${CONDITION_MARK}, ${CONDITION_MARK} or ${CONDITION_MARK}; ${CONDITION_MARK}).`,
        5,
      ],
      ["a full answer from an oracle", "a full answer from an oracle", 0],
      ["SR-50 and SR-5x and FULLY and XFULL", "SR-50 and SR-5x and FULLY and XFULL", 0],
      ["FULL로 실행", `${CONDITION_MARK}로 실행`, 1],
    ];
    expect(cases.map(([text]) => t(text))).toEqual(
      cases.map(([, text, redactions]) => ({ text, redactions })),
    );
  });
});

describe("buildJudgeRequest", () => {
  it("holds the frozen system prompt and the filled template, no tools, the reply schema as structured output", () => {
    const r = request("What is X?", "X is 4.");
    expect(r.system).toBe(prompt.system);
    expect(r.user).toBe("Request:\nWhat is X?\n\nAnswer:\nX is 4.");
    expect(r.redactions).toBe(0);
    expect(r.provider).toEqual({
      system: prompt.system,
      messages: [{ role: "user", content: r.user }],
      tools: [],
      settings,
      responseFormat: { name: RESPONSE_FORMAT_NAME, schema: protocol.judge.output_schema },
    });
  });

  it("fills placeholders in one pass: braces and $ patterns in the texts stay text", () => {
    const r = request("Q {{answer}} $& $1", "A {{query}} $'");
    expect(r.user).toBe("Request:\nQ {{answer}} $& $1\n\nAnswer:\nA {{query}} $'");
  });

  it("blinds the query too, but counts only the answer's replacements", () => {
    const r = request("Use papers_assist.summarize please", "papers_assist__summarize says 4 under SR-5");
    expect(r.user).toBe(
      `Request:\nUse ${TOOL_MARK} please\n\nAnswer:\n${TOOL_MARK} says 4 under ${CONDITION_MARK}`,
    );
    expect(r.redactions).toBe(2);
  });
});

describe("fuzz: every episode of a full reference run", () => {
  let records: RunRecord[] = [];
  beforeAll(async () => {
    const { run } = await sharedFixture("full");
    records = readFileSync(run, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RunRecord);
  }, 300_000);

  const FORBIDDEN = [...CONDITIONS, "catalog_size", ...terms.tools];
  const leaks = (body: string) => FORBIDDEN.filter((term) => body.includes(term));
  const queries = new Map(corpus.tasks.map((t) => [t.semantic_task_id, t.query]));
  const byId = new Map(catalogs.flatMap((c) => c.catalog.endpoints).map((e) => [e.route_id, e]));

  it("covers the whole matrix", () => {
    expect(records.length).toBe(corpus.tasks.length * protocol.catalog_sizes.length * CONDITIONS.length);
    expect(leaks(prompt.system)).toEqual([]);
  });

  it("sends no condition, catalog size field, route id or function name — as recorded, and when the answer names them", () => {
    const found: string[] = [];
    let requests = 0;
    for (const r of records) {
      const answer = episodeAnswer({ status: r.status, finalText: r.final_text });
      if (!("answer" in answer)) continue;
      const task = corpus.tasks.find((t) => t.semantic_task_id === r.semantic_task_id);
      const routes = (task?.required_routes ?? []).flatMap((id) => [id, byId.get(id)?.function_name ?? id]);
      // What a model might write: its condition, its catalog, and the tools it called, by name.
      const loud = `${answer.answer} (${r.condition}, catalog ${r.catalog_size}; via ${routes.join(", ")}; ${routes.map((s) => s.toUpperCase()).join(" ")})`;
      for (const text of [answer.answer, loud]) {
        const built = request(queries.get(r.semantic_task_id) ?? "", text);
        requests += 1;
        // The neutral request, and the wire bodies the Chat Completions and Messages clients send.
        const body = [
          JSON.stringify(built.provider),
          JSON.stringify(openaiRequest("judge-model", built.provider, true)),
          JSON.stringify(anthropicRequest("judge-model", built.provider)),
        ].join("\n");
        for (const term of leaks(body))
          found.push(`${r.semantic_task_id}|${r.catalog_size}|${r.condition}: ${term}`);
        if (text === loud) expect(built.redactions).toBe(1 + 2 * routes.length);
      }
    }
    expect(found.slice(0, 20)).toEqual([]);
    expect(requests).toBe(2 * records.length);
  });

  it("builds the same request for an answer under every condition: nothing else varies", () => {
    const bodies = new Map<string, Set<string>>();
    for (const r of records) {
      const answer = episodeAnswer({ status: r.status, finalText: r.final_text });
      if (!("answer" in answer)) continue;
      const key = `${r.semantic_task_id}\u0000${answer.answer}`;
      const body = JSON.stringify(request(queries.get(r.semantic_task_id) ?? "", answer.answer).provider);
      bodies.set(key, (bodies.get(key) ?? new Set()).add(body));
    }
    expect([...bodies.values()].filter((s) => s.size > 1)).toEqual([]);
  });
});
