/**
 * The report in a real browser: Debian's chromium through playwright-core (never a downloaded
 * browser). Loads the page, checks there are no console errors and the verdict and plots are
 * visible, and saves a screenshot under test/artifacts/.
 */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const CHROMIUM = "/usr/bin/chromium";

describe("the HTML report in headless chromium", () => {
  const temp = useTempDir();

  it.skipIf(!existsSync(CHROMIUM))(
    "renders the verdict and the plots without console errors",
    { timeout: 120_000 },
    async () => {
      const dir = temp();
      const run = join(dir, "run.jsonl");
      expect(
        (await runCli(["run", "--agent", "reference", "--tasks", "v4-*-en-0?", "--out", run])).code,
      ).toBe(0);
      const summary = join(dir, "run.summary.json");
      expect((await runCli(["score", run, "--out", summary, "--allow-incomplete"])).code).toBe(0);
      const page = join(dir, "report.html");
      expect((await runCli(["report", summary, "--runs", run, "--out", page])).code).toBe(0);

      const browser = await chromium.launch({
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
      try {
        const tab = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
        const errors: string[] = [];
        tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
        tab.on("pageerror", (e) => errors.push(String(e)));
        const requests: string[] = [];
        tab.on("request", (r) => requests.push(r.url()));
        await tab.goto(`file://${resolve(page)}`);
        await expect(tab.locator("#verdict .verdict").textContent()).resolves.toBe("BLOCKED");
        expect(await tab.locator("#verdict").isVisible()).toBe(true);
        expect(await tab.locator("svg.forest circle").count()).toBeGreaterThan(10);
        expect(await tab.locator("svg.bars rect").count()).toBeGreaterThan(10);
        expect(await tab.locator("svg.forest").isVisible()).toBe(true);
        expect(errors).toEqual([]);
        expect(requests.every((u) => u.startsWith("file://"))).toBe(true); // no network
        mkdirSync("test/artifacts", { recursive: true });
        await tab.screenshot({ path: "test/artifacts/report.png", fullPage: false });
      } finally {
        await browser.close();
      }
    },
  );
});
