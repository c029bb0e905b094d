/**
 * The HTML report as a file: the same inputs give the same bytes, the episode browser is closed
 * and complete, the forest plot's arrowheads are explained under it, and long values can wrap.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { copyFixture } from "../helpers/shared-fixtures.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

describe("the HTML report", () => {
  const suite = useSuiteTempDir();
  const temp = useTempDir();
  const run = () => join(suite(), "run.jsonl");
  const scored = () => join(suite(), "run.summary.json");
  const summary = (): Summary => JSON.parse(readFileSync(scored(), "utf8"));

  // The reference run of every English task and its summary, built once per test run.
  beforeAll(async () => {
    await copyFixture("en", suite());
  }, 120_000);

  let reports = 0;
  async function report(input: string, ...extra: string[]): Promise<string> {
    const out = join(temp(), `r${++reports}.html`);
    expect((await runCli(["report", input, ...extra, "--out", out])).code).toBe(0);
    return readFileSync(out, "utf8");
  }

  it("is byte-identical for the same inputs", async () => {
    const a = await report(scored(), "--runs", run());
    const b = await report(scored(), "--runs", run());
    expect(a).toBe(b);
  });

  it("opens with the decision, and stays self-contained: no script, no external resource", async () => {
    const page = await report(scored(), "--runs", run());
    expect(page).toMatch(
      /<body><header id="decision"><h1>[^]*<p id="verdict">Verdict: <span class="verdict BLOCKED">/,
    );
    expect(page).not.toMatch(/<script|(src|href)="https?:|url\(/);
  });

  it("has one row per episode in a closed details element, with a filter rule per condition", async () => {
    const page = await report(scored(), "--runs", run());
    const s = summary();
    expect(page).toContain('<details id="episode-browser"><summary>');
    expect(page.match(/<tr class="ep"/g)).toHaveLength(s.episode_scores.length);
    const conditions = [...new Set(s.episode_scores.map((e) => e.condition))];
    expect(conditions.length).toBeGreaterThan(1);
    for (const c of conditions) {
      const rows = s.episode_scores.filter((e) => e.condition === c).length;
      expect(page.split(`<tr class="ep" data-condition="${c}"`).length - 1).toBe(rows);
      expect(page).toContain(`<input type="radio" name="ep-condition" value="${c}">`);
      expect(page).toContain(
        `#episode-browser:has(input[name="ep-condition"][value="${c}"]:checked) tr.ep:not([data-condition="${c}"]){display:none}`,
      );
    }
    // The episode browser comes after the decision's sections and before the provenance.
    expect(page.indexOf('id="episodes"')).toBeGreaterThan(page.indexOf('id="failures"'));
    expect(page.indexOf('id="episodes"')).toBeLessThan(page.indexOf('id="provenance"'));
  });

  it("lets long values wrap: answers, hashes and JSON", async () => {
    const page = await report(scored(), "--runs", run());
    expect(page).toContain("pre{white-space:pre-wrap");
    expect(page).toContain("code,pre{font-size:12px;overflow-wrap:anywhere}");
    expect(page).toContain('<table class="provenance">');
    // JSON in the provenance (here the metric versions) breaks between entries.
    expect(page).toMatch(/<code>\{ &quot;required_fact_recall&quot;: 3, &quot;/);
  });

  it("explains an arrowhead under the forest plot: bootstrap-t unbounded on a side", async () => {
    const s = summary();
    const key = "pooled|SR-5|required_fact_recall|delta";
    const interval = s.bootstrap.intervals[key];
    expect(interval?.calibrated).toBeDefined();
    // Every bound finite: no arrowhead, no note. (A summary scored under a protocol whose gate
    // reads bootstrap-t, the method that can be unbounded on a side.)
    const finite = structuredClone(s);
    finite.bootstrap.gate_interval = "bootstrap_t";
    finite.gate.interval_method = "bootstrap_t";
    for (const i of Object.values(finite.bootstrap.intervals)) {
      const t = i.calibrated?.bootstrap_t as { low: number | null; high: number | null } | undefined;
      if (t && i.point !== null) {
        t.low ??= i.point - 0.01;
        t.high ??= i.point + 0.01;
      }
    }
    const closed = join(temp(), "finite.json");
    writeFileSync(closed, JSON.stringify(finite));
    const plain = await report(closed);
    expect(plain).not.toContain('id="forest-arrows"');
    expect(plain).not.toMatch(/<path d="M[^"]*Z" fill="#999"/);
    // One bound unbounded (bootstrap-t landed on an infinite replicate): an arrowhead and the note.
    const open = structuredClone(finite);
    const t = open.bootstrap.intervals[key]?.calibrated?.bootstrap_t as {
      low: number | null;
      infinite: number;
    };
    t.low = null;
    t.infinite = Math.max(1, t.infinite);
    const edited = join(temp(), "open.json");
    writeFileSync(edited, JSON.stringify(open));
    const page = await report(edited);
    // The plot is drawn in two layouts (the phone's shows its labels above the bars): one arrowhead in each.
    const plots = page.match(/<svg [^>]*class="plot (?:narrow )?forest[^"]*"[^]*?<\/svg>/g) ?? [];
    expect(plots).toHaveLength(2);
    for (const svg of plots) expect(svg.match(/<path d="M[^"]*Z" fill="#999"/g)).toHaveLength(1);
    expect(page).toContain(
      `<p class="muted" id="forest-arrows">→ / ← : the interval is unbounded on that side: bootstrap-t's studentised interval is unbounded when a resample's standard error is 0`,
    );
  });
});
