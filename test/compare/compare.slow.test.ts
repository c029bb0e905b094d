/**
 * Issue #35's acceptance for `fabench compare`, through the whole pipeline in a pilot: the keyword
 * router (the pilot's own manifest, from `pilot init`) against the README's word-overlap router
 * (`conditions freeze --router command:./examples/routers/word-overlap.mjs`), the reference agent
 * run under each (restricted to the German tasks with --task: the same pipeline, fewer episodes),
 * each scored, then compared: per condition B − A with intervals for every gated metric, both
 * routers' ranks side by side, a summary of another corpus refused, and the HTML page read in
 * Debian's headless chromium at 1280 and 390 px.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { hasChromium, launchChromium } from "../helpers/browser.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comparison } from "../../src/compare/index.ts";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const TASKS = "v4-*-de-0?";

/** The command router is a node script: it needs PATH, and nothing else of the environment. */
const PATH = process.env["PATH"] ?? "";

async function ok(argv: readonly string[]): Promise<string> {
  const result = await runCli(argv, { env: { PATH } });
  if (result.code !== 0) throw new Error(`fabench ${argv.join(" ")} exited ${result.code}: ${result.err}`);
  return result.out;
}

describe("fabench compare: the word-overlap router against the keyword router, in one pilot", () => {
  const dir = useSuiteTempDir();
  const path = (name: string) => join(dir(), name);
  let gated: string[];

  beforeAll(async () => {
    const pilot = path("pilot");
    await ok(["pilot", "init", pilot]);
    // The docs' commands (docs/scoring.md "Comparing two routers"): a pilot names every file.
    await ok([
      "conditions",
      "freeze",
      "--pilot",
      pilot,
      "--router",
      "command:./examples/routers/word-overlap.mjs",
      "--out",
      join(pilot, "word-overlap.json"),
    ]);
    const run = ["run", "--pilot", pilot, "--agent", "reference", "--task", TASKS];
    await ok([...run, "--out", path("keyword.jsonl")]);
    await ok([...run, "--manifest", join(pilot, "word-overlap.json"), "--out", path("word-overlap.jsonl")]);
    for (const name of ["keyword", "word-overlap"])
      await ok([
        "score",
        "--pilot",
        pilot,
        path(`${name}.jsonl`),
        "--allow-incomplete",
        "--out",
        path(`${name}.summary.json`),
      ]);
    const protocol = JSON.parse(readFileSync(join(pilot, "preregistration.json"), "utf8")) as {
      gate: { checks: Array<{ metric: string }> };
    };
    gated = [...new Set(protocol.gate.checks.map((c) => c.metric))];
  }, 900_000);

  // No --pilot: the summaries name the pilot's protocol; both manifests given by hand.
  const compareArgs = () => [
    "compare",
    path("keyword.summary.json"),
    path("word-overlap.summary.json"),
    "--manifest",
    path("pilot/condition-manifest.json"),
    "--manifest",
    path("pilot/word-overlap.json"),
  ];

  it("prints, per condition, B − A with intervals for every gated metric, labelled a pilot", async () => {
    const text = await ok(compareArgs());
    expect(text).toMatch(/^compare — B − A: a paired comparison of two runs on the same tasks, not a gate/);
    expect(text).toContain("NOT PREREGISTERED");
    expect(text).toMatch(/A: .*keyword\.summary\.json — router keyword /);
    expect(text).toMatch(
      /B: .*word-overlap\.summary\.json — router command:\.\/examples\/routers\/word-overlap\.mjs /,
    );
    expect(text).toContain("A and B differ in: condition manifest, router");
    const interval = String.raw`\[-?[\d.]+, -?[\d.]+\][*†]?`;
    for (const condition of ["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"]) {
      const block =
        text.split(`\n${condition} — pooled over catalog sizes 100, 250\n`)[1]?.split("\n\n")[0] ?? "";
      for (const metric of gated)
        expect(block, `${condition} ${metric}`).toMatch(
          new RegExp(`\\n  ${metric} \\(gated\\) +\\S+ +\\S+ +-?[\\d.]+  ${interval} +${interval} +(yes|no)`),
        );
    }
    // Both routers' ranks, side by side, summed up per catalog size.
    expect(text).toMatch(
      /catalog 100: \d+ required routes; mean rank A [\d.]+, B [\d.]+; B ranks \d+ higher than A/,
    );
  });

  it("agrees with the two summaries: A and B are their levels, B − A their difference", async () => {
    const c = JSON.parse(await ok([...compareArgs(), "--json"])) as Comparison;
    const a = JSON.parse(readFileSync(path("keyword.summary.json"), "utf8")) as Summary;
    const b = JSON.parse(readFileSync(path("word-overlap.summary.json"), "utf8")) as Summary;
    expect(c.pairing).toMatchObject({ paired: a.episodes, only_in_a: 0, only_in_b: 0 });
    for (const t of c.tables)
      for (const r of t.rows.filter((x) => a.bootstrap.metrics.includes(x.metric))) {
        const key = `${t.selection}|${t.condition}|${r.metric}|level`;
        const [pa, pb] = [
          a.bootstrap.intervals[key]?.point ?? null,
          b.bootstrap.intervals[key]?.point ?? null,
        ];
        expect(r.a.point).toBeCloseTo(pa as number, 9);
        expect(r.b.point).toBeCloseTo(pb as number, 9);
        expect(r.delta.point).toBeCloseTo((pb as number) - (pa as number), 9);
      }
    expect(c.ranks.rows.length).toBeGreaterThan(0);
    expect(c.ranks.rows.every((r) => r.a !== null && r.b !== null)).toBe(true);
  });

  it("finds the protocol with --pilot, and says how to get the ranks the pilot's manifest does not give", async () => {
    const text = await ok([
      "compare",
      "--pilot",
      path("pilot"),
      path("keyword.summary.json"),
      path("word-overlap.summary.json"),
    ]);
    expect(text).toMatch(
      /ranks of the required routes: B's condition manifest not given — pass each run's manifest with --manifest FILE/,
    );
    expect(text).toMatch(/mean rank A [\d.]+, B –/);
  });

  it("refuses a summary of another corpus with compare_corpus_differs (exit 2)", async () => {
    const b = JSON.parse(readFileSync(path("word-overlap.summary.json"), "utf8")) as Summary;
    const other = path("other-corpus.summary.json");
    writeFileSync(other, JSON.stringify({ ...b, run: { ...b.run, corpus_file_sha256: "0".repeat(64) } }));
    const result = await runCli(["compare", "--pilot", path("pilot"), path("keyword.summary.json"), other]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      new RegExp(`^${other}: compare_corpus_differs: corpus file \\(sha256\\) differs`),
    );
  });

  describe.skipIf(!hasChromium)("the HTML page in headless chromium", () => {
    let browser: Browser;
    beforeAll(async () => {
      await ok([...compareArgs(), "--out", path("compare.html")]);
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    it.each([1280, 390])(
      "reads at %i px: the tables, the ranks, no sideways scroll, no request",
      {
        timeout: 120_000,
      },
      async (width) => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const tab = await context.newPage();
        const requests: string[] = [];
        tab.on("request", (r) => requests.push(r.url()));
        await tab.goto(`file://${resolve(path("compare.html"))}`);
        await expect(tab.locator("h1").textContent()).resolves.toContain("B − A");
        await expect(tab.locator("#not-preregistered").isVisible()).resolves.toBe(true);
        await expect(tab.locator("#what").textContent()).resolves.toContain("not a gate");
        // The SR-5 pooled table: every gated metric with its B − A.
        const sr5 = tab.locator("#condition-SR-5 table").first();
        await expect(sr5.isVisible()).resolves.toBe(true);
        for (const metric of gated) await expect(sr5.textContent()).resolves.toContain(metric);
        // Open everything folded: the per-size tables and every task's ranks.
        await tab.locator("details").evaluateAll((all) => {
          for (const d of all) d.setAttribute("open", "");
        });
        const ranks = tab.locator("#ranks table").first();
        await ranks.scrollIntoViewIfNeeded();
        await expect(ranks.isVisible()).resolves.toBe(true);
        await expect(ranks.textContent()).resolves.toMatch(/v4-[a-z_]+-de-0\d/);
        const widths = await tab.evaluate<{ scroll: number; window: number }>(
          "({ scroll: document.documentElement.scrollWidth, window: window.innerWidth })",
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.window);
        expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
        await context.close();
      },
    );
  });
});
