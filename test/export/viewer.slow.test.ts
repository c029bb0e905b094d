/**
 * The Inspect export opened in Inspect's own log viewer: the npm build of its React app
 * (@metrevals/inspect-log-viewer, published from Inspect's repository), bundled here by rolldown
 * into a page that reads the exported log over HTTP from a 127.0.0.1 server, in Debian's chromium
 * through playwright-core. The viewer must show the task, every sample, a sample's messages with
 * its tool call and the tool's reply, and its scores.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { extname, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchChromium } from "../helpers/browser.ts";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectLogSchema, type InspectLog } from "../../src/export/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const TASKS = "v4-corrective_expansion_required-*-02";
/** The episode the test opens: a failing SR-5 episode with a tool call. */
const SAMPLE = "v4-corrective_expansion_required-de-02-c100-SR-5";

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
};

/** Bundles the viewer page (test/export/viewer-entry.mjs) into `site`, reading the log at `logPath`. */
async function buildViewer(site: string, logPath: string): Promise<void> {
  await build({
    input: resolve("test/export/viewer-entry.mjs"),
    output: { dir: site, format: "esm", entryFileNames: "viewer.js" },
    transform: {
      define: { LOG_FILE: JSON.stringify(logPath), "process.env.NODE_ENV": JSON.stringify("production") },
    },
    logLevel: "silent",
  });
  const require = createRequire(import.meta.url);
  copyFileSync(require.resolve("@metrevals/inspect-log-viewer/styles/index.css"), join(site, "viewer.css"));
  writeFileSync(
    join(site, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="viewer.css"></head><body><div id="app"></div><script type="module" src="viewer.js"></script></body></html>',
  );
}

/** A static server of `site` on 127.0.0.1; it records every path asked for. */
async function serve(site: string, asked: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    asked.push(path);
    const file = join(site, path === "/" ? "index.html" : path);
    if (!file.startsWith(site) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return server;
}

describe.skipIf(!hasChromium)("the Inspect export in Inspect's log viewer", () => {
  const dir = useSuiteTempDir();
  let browser: Browser;
  let server: Server;
  let log: InspectLog;
  const asked: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const run = join(dir(), "run.jsonl");
    const summary = join(dir(), "run.summary.json");
    const site = join(dir(), "site");
    mkdirSync(join(site, "logs"), { recursive: true });
    const exported = join(site, "logs", "run.json");
    expect((await runCli(["run", "--agent", "reference", "--task", TASKS, "--out", run])).code).toBe(0);
    expect((await runCli(["score", run, "--out", summary, "--allow-incomplete"])).code).toBe(0);
    const result = await runCli(["export", "inspect", run, "--summary", summary, "--out", exported]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    log = inspectLogSchema.parse(JSON.parse(readFileSync(exported, "utf8")));
    await buildViewer(site, "logs/run.json");
    server = await serve(site, asked);
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  /** Waits until the page's visible text holds `text` (the viewer renders after loading the log). */
  const shows = (tab: Page, text: string) =>
    tab.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, undefined, {
      timeout: 60_000,
    });

  async function open(hash: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    tab.on("pageerror", (e) => errors.push(String(e)));
    // Only the origin the test serves: nothing leaves the machine.
    await context.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort());
    const { port } = server.address() as AddressInfo;
    await tab.goto(`http://127.0.0.1:${port}/#${hash}`);
    return tab;
  }

  it("lists the log's samples under its task and model, with their scores", {
    timeout: 120_000,
  }, async () => {
    const tab = await open("/logs/logs/run.json");
    const samples = log.samples.length;
    // 6 languages × 2 catalogs × 5 conditions: every episode of the selected tasks.
    expect(samples).toBe(60);
    await shows(tab, `${samples} Samples`);
    const body = await tab.locator("body").innerText();
    expect(body).toContain(log.eval.task);
    expect(body).toContain("fabench/reference");
    expect(body).toContain("REQUIRED_FACT_RECALL");
    // The page heads the log with the gated accuracy metrics per condition × catalog size, not
    // with a metric defined in fewer cells (`recovered`, which used to stand as the headline).
    const rows = body.split("\n").map((line) => line.split(/[\t ]/)[0]);
    expect(rows.indexOf("required_fact_recall")).toBeGreaterThan(-1);
    expect(rows).not.toContain("recovered");
    expect(asked).toContain("/logs/run.json");
    expect(errors).toEqual([]);
  });

  it("opens an episode to its request, its tool call, the tool's reply and its scores", {
    timeout: 120_000,
  }, async () => {
    const sample = log.samples.find((s) => s.id === SAMPLE);
    const call = sample?.messages.find((m) => m.role === "assistant" && m.tool_calls !== null);
    const reply = sample?.messages.find((m) => m.role === "tool");
    if (sample === undefined || call?.role !== "assistant" || reply?.role !== "tool")
      throw new Error(`${SAMPLE}: no tool call in the export`);
    const tab = await open(`/logs/logs/run.json/samples/sample/${SAMPLE}/1/messages`);
    const firstCall = call.tool_calls?.[0]?.function ?? "";
    await shows(tab, firstCall);
    const messages = await tab.locator("body").innerText();
    expect(messages).toContain(`Sample ${SAMPLE} (Epoch 1)`);
    expect(messages).toContain("Der Export EXP-5521"); // the request, in German
    expect(messages).toContain(firstCall);
    // The tool's reply: a source id the observation holds.
    const source = /"source_id":"([^"]+)"/.exec(reply.content)?.[1] ?? "";
    expect(source).not.toBe("");
    expect(messages).toContain(source);
    // The scoring tab: one row per metric, each with the episode's value.
    await tab.getByRole("tab", { name: /scoring/i }).click();
    await shows(tab, "required_fact_recall");
    const scores = await tab.locator("body").innerText();
    const recall = sample.scores["required_fact_recall"]?.value;
    expect(recall).toBeLessThan(1);
    expect(scores).toContain(String(recall));
    expect(errors).toEqual([]);
  });
});
