/**
 * Issue #35's acceptance for the episode view, in Debian's chromium: the README's worked example
 * (a pilot, its manifest frozen with examples/routers/word-overlap.mjs, the reference agent) — the
 * failing episode v4-corrective_expansion_required-de-02 under SR-5 at catalog 100 opens to its
 * request, its missed facts with their gold values, its trajectory and its routes' ranks, at 1280 px
 * and at 390 px, and the page never scrolls sideways. The run is restricted to the German
 * corrective-expansion tasks: each episode replays on its own, so the one checked is the same
 * episode the full run holds (the manifest is frozen for every task, as in the README).
 */
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium } from "../helpers/browser.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const TASK = "v4-corrective_expansion_required-de-02";

describe.skipIf(!hasChromium)("the episode view of the worked example, in headless chromium", () => {
  const dir = useSuiteTempDir();
  let browser: Browser;
  let page: string;

  async function fabench(...argv: string[]): Promise<void> {
    // The command router is a program: it needs PATH (the CLI's environment is otherwise empty).
    const result = await runCli(argv, { env: { PATH: process.env["PATH"] } });
    expect(result.code, `fabench ${argv.join(" ")}: ${result.err}`).toBe(0);
  }

  beforeAll(async () => {
    const pilot = join(dir(), "pilot");
    await fabench("pilot", "init", pilot);
    const router = `command:${resolve("examples/routers/word-overlap.mjs")}`;
    await fabench(
      "conditions",
      "freeze",
      "--router",
      router,
      "--protocol",
      join(pilot, "preregistration.json"),
      "--plan",
      join(pilot, "authoring-plan.json"),
      "--corpus",
      join(pilot, "final-answer-corpus.json"),
      "--out",
      join(pilot, "condition-manifest.json"),
    );
    const run = join(dir(), "my-router.jsonl");
    await fabench(
      "run",
      "--pilot",
      pilot,
      "--agent",
      "reference",
      "--task",
      "v4-corrective_expansion_required-de-*",
      "--out",
      run,
    );
    const summary = join(dir(), "my-router.summary.json");
    await fabench("score", "--pilot", pilot, run, "--out", summary, "--allow-incomplete");
    page = join(dir(), "my-router.report.html");
    await fabench("report", "--pilot", pilot, summary, "--runs", run, "--out", page);
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The page at `width`, with the episode opened (no script: clicks on `<summary>`). */
  async function openEpisode(width: number): Promise<{ tab: Page; text: string }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const tab = await context.newPage();
    await tab.goto(`file://${resolve(page)}`);
    await tab.locator("#episode-browser > summary").click();
    const row = tab.locator('tr.ep[data-condition="SR-5"][data-catalog="100"]', { hasText: TASK });
    await expect(row.count()).resolves.toBe(1);
    await row.locator("td:last-child > details > summary").click();
    await row.locator("details.reply > summary").first().click();
    return { tab, text: await row.innerText() };
  }

  for (const width of [1280, 390]) {
    it(`shows the request, the missed facts with gold values, the trajectory and the ranks at ${width} px`, {
      timeout: 60_000,
    }, async () => {
      const { tab, text } = await openEpisode(width);
      const flat = text.replace(/\s+/g, " ");
      expect(flat).toContain("fail (missed 2 of 3 required facts)");
      expect(flat).toContain("Request");
      expect(flat).toContain("Der Export EXP-5521 des Spannungs-Dehnungs-Datensatzes");
      expect(flat).toContain("Required facts: 1 of 3 recalled");
      expect(flat).toContain("✗ missed: missing new_analysis_job gold JOB-5524; sources COMPUTEHUB-JOB-5524");
      expect(flat).toContain("✗ missed: missing new_export_job gold EXP-5526; sources EXPORTS-EXP-5526");
      expect(flat).toContain("✓ hit export_error gold ARTIFACT_INCOMPLETE");
      expect(flat).toContain("runtime.rerun: rank 28 not shown");
      expect(flat).toContain("exports.export: rank 1 shown");
      expect(flat).toContain("required, not shown: runtime.rerun, runtime.job");
      expect(flat).toContain("Trajectory");
      expect(flat).toContain('exports__status {"job_id":"EXP-5521"} → exports.status observation (required)');
      expect(flat).toContain('"code":"ARTIFACT_INCOMPLETE"');
      // The opened episode is on screen, and nothing makes the page scroll sideways.
      const scroll = await tab.evaluate<{ scroll: number; window: number }>(
        "({ scroll: document.documentElement.scrollWidth, window: window.innerWidth })",
      );
      expect(scroll.scroll).toBeLessThanOrEqual(scroll.window);
      await expect(tab.getByText("gold JOB-5524", { exact: false }).first().isVisible()).resolves.toBe(true);
      // The header names the router and the checks beside the FAIL.
      const header = (await tab.locator("#decision").innerText()).replace(/\s+/g, " ");
      expect(header).toContain("PILOT");
      expect(header).toContain("router command:");
      expect(header).toContain("word-overlap.mjs");
      expect(header).toContain("Checks that failed");
      expect(header).toContain("SR-5: required_fact_recall");
      await tab.context().close();
    });
  }
});
