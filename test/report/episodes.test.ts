/** The episode browser on hand-made episodes: outcomes, filter choices, and values that could break out. */
import { describe, expect, it } from "vitest";
import { episodeBrowser, episodeOutcome } from "../../src/report/episodes.ts";
import type { Summary } from "../../src/summary/index.ts";

type Episode = Summary["episode_scores"][number];

const episode = (over: Partial<Episode> = {}, metrics: Record<string, number | null> = {}): Episode => ({
  semantic_task_id: "v4-multi_source_comparison-en-01",
  answer_task_stratum: "multi_source_comparison",
  language: "en",
  catalog_size: 100,
  condition: "SR-5",
  trial: 1,
  status: "completed",
  error_code: null,
  malformed_reason: null,
  metrics: { required_fact_recall: 1, unsupported_fact_count: 0, contradiction_count: 0, ...metrics },
  facts: [],
  ...over,
});

/** Only the episodes are read. */
const summaryOf = (episodes: Episode[]) => ({ episode_scores: episodes }) as unknown as Summary;

describe("the episode browser", () => {
  it("classifies an episode as error, malformed, pass or fail", () => {
    expect(episodeOutcome(episode())).toBe("pass");
    expect(episodeOutcome(episode({}, { required_fact_recall: null }))).toBe("pass");
    expect(episodeOutcome(episode({}, { required_fact_recall: 0.5 }))).toBe("fail");
    expect(episodeOutcome(episode({}, { unsupported_fact_count: 1 }))).toBe("fail");
    expect(episodeOutcome(episode({}, { contradiction_count: 2 }))).toBe("fail");
    expect(episodeOutcome(episode({ malformed_reason: "not_json" }, { required_fact_recall: 0 }))).toBe(
      "malformed",
    );
    expect(episodeOutcome(episode({ status: "error", error_code: "provider_timeout" }))).toBe("error");
  });

  it("offers each value once, in the summary's order (outcomes in a fixed order), and marks each row", () => {
    const { html } = episodeBrowser(
      summaryOf([
        episode({ condition: "FULL" }, { required_fact_recall: 0 }),
        episode({ condition: "SR-5", catalog_size: 250 }),
        episode({ condition: "FULL", status: "error", error_code: "provider_timeout" }),
      ]),
    );
    const offered = (name: string) =>
      [...html.matchAll(new RegExp(`name="ep-${name}" value="([^"]*)"`, "g"))].map((m) => m[1]);
    expect(offered("condition")).toEqual(["", "FULL", "SR-5"]);
    expect(offered("catalog")).toEqual(["", "100", "250"]);
    expect(offered("outcome")).toEqual(["", "pass", "fail", "error"]);
    expect(html).toContain(
      '<tr class="ep" data-condition="FULL" data-catalog="100" data-stratum="multi_source_comparison" data-language="en" data-outcome="error">',
    );
    expect(html).toContain('<td class="no">error <span class="why">(provider_timeout)</span></td>');
    expect(html).toContain('<details id="episode-browser"><summary>Browse the 3 episodes</summary>');
    expect(html).toContain(" of 3 episodes shown</p>");
  });

  it("escapes values in the page and in the filter rules, so none can end an attribute or the style", () => {
    const odd = 'a"b</style><b>x';
    const { html, css } = episodeBrowser(summaryOf([episode({ condition: odd })]));
    expect(html).toContain('data-condition="a&quot;b&lt;/style&gt;&lt;b&gt;x"');
    expect(html).not.toContain("<b>x");
    expect(css).not.toMatch(/<|\/style/i);
    expect(css).toContain(
      '[value="a\\22 b\\3c \\2f style\\3e \\3c b\\3e x"]:checked) tr.ep:not([data-condition="a\\22 b\\3c \\2f style\\3e \\3c b\\3e x"]){display:none}',
    );
  });

  it("folds a pass's facts and, when given, its final answer into the row", () => {
    const e = episode({
      facts: [
        {
          index: 0,
          key: "heat_number",
          licensed: false,
          value_ok: false,
          unit_ok: null,
          source_ok: true,
          duplicate: false,
          contradicts: false,
          reason: "value_mismatch",
        },
      ],
    });
    const record = {
      final_text: "line one\n<two>",
      end_reason: "final_answer",
      turns: [],
      attempts: [],
      candidate_history: [],
    };
    const records = new Map([["v4-multi_source_comparison-en-01|100|SR-5|1", record]]);
    const { html } = episodeBrowser(summaryOf([e]), { records });
    expect(html).toContain("<summary>1 fact and the answer</summary>");
    expect(html).toContain('<li><code>heat_number</code> <span class="no">✗</span> value_mismatch</li>');
    expect(html).toContain("<pre>line one\n&lt;two&gt;</pre>");
    expect(episodeBrowser(summaryOf([e])).html).toContain(
      "give --runs to include the trajectories and the final answers",
    );
  });
});
