/**
 * The report in a real browser: Debian's chromium through playwright-core (never a downloaded
 * browser). Loads the page, checks there are no console errors, the verdict and plots are
 * visible, nothing is wider than a 1280 or 800 px window, and the episode browser's filters show
 * exactly the matching rows (with and without JavaScript); saves a screenshot under test/artifacts/.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodeOutcome } from "../../src/report/episodes.ts";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const CHROMIUM = "/usr/bin/chromium";

describe.skipIf(!existsSync(CHROMIUM))("the HTML report in headless chromium", () => {
  const dir = useSuiteTempDir();
  let browser: Browser;
  let page: string;
  let summary: Summary;

  beforeAll(async () => {
    const run = join(dir(), "run.jsonl");
    expect((await runCli(["run", "--agent", "reference", "--tasks", "v4-*-en-0?", "--out", run])).code).toBe(
      0,
    );
    const out = join(dir(), "run.summary.json");
    expect((await runCli(["score", run, "--out", out, "--allow-incomplete"])).code).toBe(0);
    summary = JSON.parse(readFileSync(out, "utf8"));
    page = join(dir(), "report.html");
    expect((await runCli(["report", out, "--runs", run, "--out", page])).code).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function open(width: number, height: number, javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled });
    const tab = await context.newPage();
    await tab.goto(`file://${resolve(page)}`);
    return tab;
  }

  /** The episode rows the reader can see. */
  const visibleRows = (tab: Page) =>
    tab
      .locator("tr.ep")
      .evaluateAll((rows) =>
        rows.filter((r) => r.checkVisibility()).map((r) => ({ condition: r.getAttribute("data-condition") })),
      );

  it("renders the verdict and the plots without console errors or requests", {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    tab.on("pageerror", (e) => errors.push(String(e)));
    const requests: string[] = [];
    tab.on("request", (r) => requests.push(r.url()));
    await tab.goto(`file://${resolve(page)}`);
    await expect(tab.locator("#verdict .verdict").textContent()).resolves.toBe("BLOCKED");
    expect(await tab.locator("#verdict").isVisible()).toBe(true);
    // Beside BLOCKED, visible in the first screen: what the numbers alone would say.
    const numbers = tab.locator("#verdict #numbers");
    expect(await numbers.isVisible()).toBe(true);
    expect(await numbers.textContent()).toMatch(/^on the numbers: would (PASS|FAIL) \(/);
    expect((await numbers.boundingBox())?.y ?? Infinity).toBeLessThan(800);
    expect(await tab.locator("#not-preregistered").count()).toBe(0);
    expect(await tab.locator("svg.forest circle").count()).toBeGreaterThan(10);
    expect(await tab.locator("svg.bars rect").count()).toBeGreaterThan(10);
    expect(await tab.locator("svg.forest").isVisible()).toBe(true);
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith("file://"))).toBe(true); // no network
    mkdirSync("test/artifacts", { recursive: true });
    await tab.screenshot({ path: "test/artifacts/report.png", fullPage: false });
    await context.close();
  });

  it.each([1280, 800])(
    "is no wider than a %i px window, with every details element closed or open",
    { timeout: 60_000 },
    async (width) => {
      const tab = await open(width, 800);
      const widths = () =>
        tab.evaluate<{ scroll: number; window: number }>(
          "({ scroll: document.documentElement.scrollWidth, window: window.innerWidth })",
        );
      const closed = await widths();
      expect(closed.scroll).toBeLessThanOrEqual(closed.window);
      await tab.locator("details").evaluateAll((all) => {
        for (const d of all) d.setAttribute("open", "");
      });
      const opened = await widths();
      expect(opened.scroll).toBeLessThanOrEqual(opened.window);
      // No table needs its sideways scroll box at these widths either.
      const overflowing = await tab
        .locator(".wide")
        .evaluateAll((boxes) => boxes.filter((b) => b.scrollWidth > b.clientWidth + 1).length);
      expect(overflowing).toBe(0);
      await tab.context().close();
    },
  );

  it("keeps the episode browser closed, and filters its rows by condition, then outcome", {
    timeout: 60_000,
  }, async () => {
    const tab = await open(1280, 800);
    const details = tab.locator("#episode-browser");
    expect(await details.getAttribute("open")).toBeNull();
    expect(await tab.locator("tr.ep").first().isVisible()).toBe(false);
    await tab.locator("#episode-browser > summary").click();
    expect(await details.getAttribute("open")).toBe("");
    expect(await visibleRows(tab)).toHaveLength(summary.episode_scores.length);

    const condition = "SR-5";
    await tab.check(`input[name="ep-condition"][value="${condition}"]`);
    const shown = await visibleRows(tab);
    const expected = summary.episode_scores.filter((e) => e.condition === condition);
    expect(expected.length).toBeGreaterThan(0);
    expect(shown).toHaveLength(expected.length);
    expect(shown.every((r) => r.condition === condition)).toBe(true);

    await tab.check('input[name="ep-outcome"][value="pass"]');
    const passing = expected.filter((e) => episodeOutcome(e) === "pass").length;
    expect(await visibleRows(tab)).toHaveLength(passing);

    await tab.check('input[name="ep-condition"][value=""]');
    await tab.check('input[name="ep-outcome"][value=""]');
    expect(await visibleRows(tab)).toHaveLength(summary.episode_scores.length);
    await tab.context().close();
  });

  it("filters without JavaScript too: the filters are CSS, and every row is in the page", {
    timeout: 60_000,
  }, async () => {
    const tab = await open(1280, 800, false);
    await tab.locator("#episode-browser > summary").click();
    expect(await visibleRows(tab)).toHaveLength(summary.episode_scores.length);
    await tab.check('input[name="ep-condition"][value="ORACLE"]');
    expect(await visibleRows(tab)).toHaveLength(
      summary.episode_scores.filter((e) => e.condition === "ORACLE").length,
    );
    await tab.context().close();
  });
});
