/**
 * The episode view on a hand-made task and record: a missed fact shows its gold value, unit and
 * accepted sources beside what the agent gave and why it failed; a long reply is folded and cut
 * with the bytes left out counted; a required route the condition did not show is named with its
 * rank; hostile text from the task, the record or the manifest cannot become markup.
 */
import { describe, expect, it } from "vitest";
import { failedDetail, passedDetail } from "../../src/report/episode-detail.ts";
import { failSummary } from "../../src/report/episode-facts.ts";
import type { EpisodeRecord, EpisodeSources } from "../../src/report/episode-sources.ts";
import { cutText } from "../../src/report/episode-trajectory.ts";
import { episodeBrowser } from "../../src/report/episodes.ts";
import type { Summary } from "../../src/summary/index.ts";
import { envelopeText, makeTask } from "../helpers/task.ts";

type Episode = Summary["episode_scores"][number];

const task = makeTask({
  semantic_task_id: "t-1",
  answer_fields: [
    { key: "youngs_modulus", kind: "number", description: "the modulus", unit: "GPa" },
    { key: "heat_number", kind: "identifier", description: "the heat", unit: null },
  ],
  required_facts: [
    {
      key: "youngs_modulus",
      value: 144,
      unit: "GPa",
      source_id: "SRC-A",
      evidence: { source_id: "SRC-A", pointer: "/modulus" },
      also_in: [{ source_id: "SRC-B", pointer: "/e" }],
    },
    {
      key: "heat_number",
      value: "H-1",
      unit: null,
      source_id: "SRC-A",
      evidence: { source_id: "SRC-A", pointer: "/heat" },
    },
  ],
  forbidden_facts: [
    { key: "youngs_modulus", value: 150, unit: "GPa", evidence: { source_id: "SRC-C", pointer: "/old" } },
  ],
  required_routes: ["materials.current"],
});

/** The scorer's verdicts for the answer below: a forbidden value and a fact of no required key. */
const episode: Episode = {
  semantic_task_id: "t-1",
  answer_task_stratum: "single_property_value_unit_provenance",
  language: "en",
  catalog_size: 100,
  condition: "SR-5",
  trial: 1,
  status: "completed",
  error_code: null,
  malformed_reason: null,
  metrics: { required_fact_recall: 0, unsupported_fact_count: 2, contradiction_count: 1 },
  facts: [
    {
      index: 0,
      key: "youngs_modulus",
      licensed: false,
      value_ok: false,
      unit_ok: true,
      source_ok: true,
      duplicate: false,
      contradicts: true,
      reason: "value does not match; matches a forbidden fact",
    },
    {
      index: 1,
      key: "colour",
      licensed: false,
      value_ok: null,
      unit_ok: null,
      source_ok: null,
      duplicate: false,
      contradicts: false,
      reason: "not a required fact key",
    },
  ],
};

const observation = { status: "ok", sources: [{ source_id: "SRC-A", payload: { text: "x".repeat(2000) } }] };
const finalText = envelopeText([
  { key: "youngs_modulus", value: 150, unit: "GPa", source_id: "SRC-A" },
  { key: "colour", value: "grey", unit: null, source_id: "SRC-B" },
]);
const record: EpisodeRecord = {
  final_text: finalText,
  end_reason: "final_answer",
  turns: [
    {
      turn: 1,
      stage: 0,
      visible_route_count: 2,
      text: "",
      tool_calls: [{ name: "materials__current", arguments: { material_id: "M-1" } }],
      event: "tool_call",
    },
    { turn: 2, stage: 0, visible_route_count: 2, text: finalText, tool_calls: [], event: "final_answer" },
  ],
  attempts: [
    {
      turn: 1,
      call_index: 0,
      route_id: "materials.current",
      outcome: "observation",
      required: true,
      observation,
    },
  ],
  candidate_history: [{ turn: 1, stage: 0 }],
};
const sources: EpisodeSources = {
  tasks: new Map([["t-1", task]]),
  routes: new Map([
    [
      "t-1|100",
      {
        required_route_ranks: { "materials.current": 7 },
        conditions: { "SR-5": { stages: [["a.one", "b.two"]] } },
      },
    ],
  ]),
  records: new Map([["t-1|100|SR-5|1", record]]),
};

describe("the episode view", () => {
  const html = failedDetail(episode, sources);

  it("shows the request, the answer form and each missed fact's gold beside what the agent gave", () => {
    expect(html).toContain('<pre class="request">What is the modulus?</pre>');
    expect(html).toContain('<code>heat_number</code> <span class="muted">identifier</span> — the heat');
    expect(html).toContain("<h4>Required facts: 0 of 2 recalled</h4>");
    // The modulus: a wrong value, its gold 144 GPa (MPa also accepted), both accepted sources, and what was given.
    expect(html).toContain(
      '<span class="no">✗ missed: wrong value</span> <code>youngs_modulus</code><br>gold <strong>144</strong> GPa <span class="muted">(also MPa)</span>; sources <code>SRC-A</code>, <code>SRC-B</code><br>gave 150 GPa from <code>SRC-A</code>',
    );
    expect(html).toContain(
      '<span class="no">✗ missed: missing</span> <code>heat_number</code><br>gold <strong>H-1</strong>; sources <code>SRC-A</code><br>gave no fact with this key',
    );
  });

  it("lists the forbidden fact emitted and the unsupported facts with the scorer's reasons", () => {
    expect(html).toContain("Forbidden facts emitted: 1");
    expect(html).toContain(
      "fact 0 <code>youngs_modulus</code> = 150 GPa from <code>SRC-A</code> — matches the forbidden 150 GPa",
    );
    expect(html).toContain("Unsupported facts (licensed for no required fact): 2");
    expect(html).toContain(
      "fact 1 <code>colour</code> = grey from <code>SRC-B</code> — not a required fact key",
    );
    expect(failSummary(episode, 2)).toBe("missed 2 of 2 required facts; 2 unsupported; 1 contradicting");
    expect(failSummary(episode)).toBe("recalled 0 % of required facts; 2 unsupported; 1 contradicting");
  });

  it("names the required route the condition did not show, with the router's rank", () => {
    expect(html).toContain(
      '<li><code>materials.current</code>: rank 7 <span class="no">not shown</span></li>',
    );
    expect(html).toContain(
      'stage 0: 2 routes: <code>a.one</code>, <code>b.two</code> <span class="no">— required, not shown: <code>materials.current</code></span>',
    );
  });

  it("folds a long reply and cuts it, counting the bytes left in the run file", () => {
    // The reply's JSON is 2,071 bytes (2,000 x's in 71 bytes of JSON); 800 are shown.
    expect(JSON.stringify(observation).length).toBe(2071);
    expect(html).toContain(
      '<code>materials__current</code> <code class="args">{"material_id":"M-1"}</code> → <code>materials.current</code> observation (required)<details class="reply"><summary>reply: ok, source SRC-A</summary><pre>{"status":"ok","sources":[{"source_id":"SRC-A","payload":{"text":"xxx',
    );
    expect(html).toContain('<span class="more">… 1271 more bytes in the run file</span></pre>');
    // The final turn's text is the answer, shown once, under its own heading.
    expect(html.split('"youngs_modulus","value":150').length - 1).toBe(1);
  });

  it("cuts on a character boundary and counts UTF-8 bytes", () => {
    expect(cutText("é".repeat(10), 5)).toEqual({ text: "éé", more: 16 });
    expect(cutText("short", 800)).toEqual({ text: "short", more: 0 });
    expect(cutText("😀😀", 5)).toEqual({ text: "😀", more: 4 });
  });

  it("says what needs --runs, and what a pass opens to", () => {
    const bare = failedDetail(episode, { tasks: sources.tasks ?? new Map() });
    expect(bare).toContain("The trajectory and the final answer need the run file: give --runs.");
    expect(bare).toContain("gave fact 0 (give --runs to see its value)");
    const pass = passedDetail({ ...episode, metrics: { required_fact_recall: 1 } }, sources);
    expect(pass).toContain("1 tool call over 2 turns.");
    expect(pass).not.toContain("Trajectory");
  });

  it("turns hostile text from the task, the record and the manifest into text, never markup", () => {
    const evil = "</pre></code><script>alert(1)</script><img src=x>";
    const hostile: EpisodeSources = {
      tasks: new Map([["t-1", { ...task, query: evil, required_routes: [evil] }]]),
      routes: new Map([
        ["t-1|100", { required_route_ranks: { [evil]: 1 }, conditions: { "SR-5": { stages: [[evil]] } } }],
      ]),
      records: new Map([
        [
          "t-1|100|SR-5|1",
          {
            ...record,
            final_text: evil,
            turns: [
              {
                turn: 1,
                tool_calls: [{ name: evil, arguments: { q: evil } }],
                text: evil,
                searches: [{ query: evil, results: [evil] }],
              },
            ],
            attempts: [
              { turn: 1, call_index: 0, route_id: evil, error_code: evil, observation: { status: evil } },
            ],
          },
        ],
      ]),
    };
    const page = episodeBrowser(
      { episode_scores: [{ ...episode, semantic_task_id: "t-1" }] } as unknown as Summary,
      hostile,
    ).html;
    expect(page).not.toMatch(/<script|<img|<\/pre><\/code>/);
    expect(page).toContain("&lt;/pre&gt;&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x&gt;");
    // Under a search condition each search is a line of the turn: its query and the routes it returned.
    expect(page).toContain('<li>search <code class="args">&lt;/pre&gt;&lt;/code&gt;&lt;script&gt;');
  });
});
