/**
 * The report in a real browser: Debian's chromium through playwright-core (never a downloaded
 * browser). Loads the page, checks there are no console errors, the verdict and plots are
 * visible, nothing is wider than a 1280, 800 or 390 px window, the report reads on a 390 px phone
 * (every condition's verdict on screen, no plot text under 10 px, the open episode browser within
 * the window), and the episode browser's filters show exactly the matching rows (with and without
 * JavaScript); saves a screenshot under test/artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium } from "../helpers/browser.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodeOutcome } from "../../src/report/episodes.ts";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

describe.skipIf(!hasChromium)("the HTML report in headless chromium", () => {
  const dir = useSuiteTempDir();
  let browser: Browser;
  let page: string;
  let summary: Summary;

  beforeAll(async () => {
    const run = join(dir(), "run.jsonl");
    expect((await runCli(["run", "--agent", "reference", "--task", "v4-*-en-0?", "--out", run])).code).toBe(
      0,
    );
    const out = join(dir(), "run.summary.json");
    expect((await runCli(["score", run, "--out", out, "--allow-incomplete"])).code).toBe(0);
    summary = JSON.parse(readFileSync(out, "utf8"));
    page = join(dir(), "report.html");
    expect((await runCli(["report", out, "--runs", run, "--out", page])).code).toBe(0);
    browser = await launchChromium();
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

  it.each([1280, 800, 390])(
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

  describe("on a 390 px phone", () => {
    const PHONE = { width: 390, height: 800 };

    it("shows every condition's verdict on screen, in the window and not clipped by a scroll box", {
      timeout: 60_000,
    }, async () => {
      const tab = await open(PHONE.width, PHONE.height);
      const conditions = Object.keys(summary.gate.conditions);
      expect(conditions.length).toBeGreaterThan(1);
      for (const condition of conditions) {
        const cells = tab.locator(`#gate-pooled .cond-verdict[data-condition="${condition}"]`);
        expect(await cells.count()).toBe(2); // the point-estimate and the interval verdict
        for (const cell of await cells.all()) {
          await cell.scrollIntoViewIfNeeded();
          const box = await cell.boundingBox();
          expect(box).not.toBeNull();
          const { x, y, width, height } = box as NonNullable<typeof box>;
          expect([x >= 0, x + width <= PHONE.width, y >= 0, y + height <= PHONE.height]).toEqual([
            true,
            true,
            true,
            true,
          ]);
          // What is painted at the cell's centre is the cell: no overflow box hides it.
          const painted = await cell.evaluate((el) => {
            const r = el.getBoundingClientRect();
            const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit !== null && el.contains(hit);
          });
          expect(painted).toBe(true);
          expect(await cell.textContent()).toMatch(/^(⚠ )?(pass|fail)$/);
        }
      }
      expect(await tab.evaluate("window.scrollX")).toBe(0);
      await tab.context().close();
    });

    it("draws every plot's text at 10 px or more on screen (font size × the SVG's scale)", {
      timeout: 60_000,
    }, async () => {
      const tab = await open(PHONE.width, PHONE.height);
      // The phone's layouts are the ones shown; the wide ones are hidden.
      expect(await tab.locator("svg.forest-narrow").isVisible()).toBe(true);
      expect(await tab.locator("svg.bars-narrow").isVisible()).toBe(true);
      expect(await tab.locator("svg.forest").isVisible()).toBe(false);
      const sizes = await tab.locator("svg text").evaluateAll((texts) =>
        texts
          .filter((t) => t.checkVisibility())
          .map((t) => {
            // This project's types have no DOM: the two browser calls used, as the browser gives them.
            const svg = t as unknown as { getScreenCTM(): { c: number; d: number } };
            const view = t.ownerDocument.defaultView as unknown as {
              getComputedStyle(e: unknown): { fontSize: string };
            };
            const m = svg.getScreenCTM();
            // The vertical scale from the SVG's units to screen pixels, times the computed size in units.
            const rendered = Number.parseFloat(view.getComputedStyle(t).fontSize) * Math.hypot(m.c, m.d);
            return { text: t.textContent, rendered, box: t.getBoundingClientRect().height };
          }),
      );
      expect(sizes.length).toBeGreaterThan(20);
      const small = sizes.filter((s) => s.rendered < 10);
      expect(small).toEqual([]);
      // The glyphs' boxes agree: a line of text is at least as tall as its font size.
      expect(sizes.filter((s) => s.box < 10)).toEqual([]);
      await tab.context().close();
    });

    it("keeps the open episode browser, its filters and its rows within the window", {
      timeout: 60_000,
    }, async () => {
      const tab = await open(PHONE.width, PHONE.height);
      await tab.locator("#episode-browser > summary").click();
      await tab.locator("#episode-browser details").evaluateAll((all) => {
        for (const d of all) d.setAttribute("open", "");
      });
      const extent = await tab.locator("#episode-browser").evaluate((browser) => {
        const inside = [...browser.querySelectorAll("*")].filter((e) => e.checkVisibility());
        return {
          width: browser.getBoundingClientRect().width,
          scroll: browser.scrollWidth,
          right: Math.max(...inside.map((e) => e.getBoundingClientRect().right)),
          shown: inside.filter((e) => e.matches("tr.ep")).length,
        };
      });
      expect(extent.width).toBeLessThanOrEqual(PHONE.width);
      expect(extent.scroll).toBeLessThanOrEqual(PHONE.width);
      expect(extent.right).toBeLessThanOrEqual(PHONE.width);
      expect(extent.shown).toBe(summary.episode_scores.length);
      expect(await tab.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      mkdirSync("test/artifacts", { recursive: true });
      await tab.screenshot({ path: "test/artifacts/report-390.png", fullPage: false });
      await tab.context().close();
    });
  });

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
