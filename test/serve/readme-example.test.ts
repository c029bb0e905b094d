/**
 * docs/discover-call.md's offline worked example, as figures: fabench's example reference-lane adapter over
 * the exported task set against `fabench serve` (catalog 250, keyword router), one trial per task.
 * Every failure must be the router's (the first route outside the top 10), and the figures are the
 * page's.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";
import { KEY, startTestServer, testWorld, type TestServer } from "./helpers.ts";

const TASKS = "tasks/discover-call/final-answer-v4.jsonl";

describe("the discover-call example of docs/discover-call.md against fabench serve", () => {
  const temp = useSuiteTempDir();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ world: testWorld(250) });
  });
  afterAll(async () => {
    await server.server.close();
  });

  it("fails only where the keyword router misses the first route: workflow success 0.8182", {
    timeout: 300_000,
  }, async () => {
    const runs = join(temp(), "reference-keyword.jsonl");
    const env = { QVERIS_API_KEY: KEY, PATH: process.env["PATH"] ?? "" };
    const run = await runCli(
      [
        "discover-call",
        "run",
        "--model",
        "reference-route",
        "--lane",
        "reference",
        "--model-revision",
        "reference-route-v1",
        "--tasks",
        TASKS,
        "--adapter",
        "./examples/adapters/reference-route.mjs",
        "--adapter-arg",
        TASKS,
        "--adapter-revision",
        "reference-route-v1",
        "--toolkit-revision",
        "a".repeat(40),
        "--base-url",
        server.url,
        "--trials",
        "1",
        "--execute",
        "--concurrency",
        "4",
        "--out",
        runs,
      ],
      { env },
    );
    expect(run.code).toBe(0);
    expect(run.out).toContain("99 of 99 trial(s) recorded (99 new, 0 already finished); 81 billed call(s)");
    const summary = join(temp(), "reference-keyword.summary.json");
    const score = await runCli([
      "discover-call",
      "score",
      "--tasks",
      TASKS,
      "--runs",
      runs,
      "--out",
      summary,
    ]);
    expect(score.code).toBe(0);
    // The lines docs/discover-call.md shows under its score command.
    expect(score.out.split("\n")).toEqual([
      "reference-route (reference, 99 tasks × 1 trial): workflow success 0.8182 (task-cluster bootstrap 95% [0.7374, 0.8889])",
      "  failures by stage: select 18 (ungrounded_tool_id 18)",
      `wrote ${summary}: discover-call-v2, 99 records, 1 model(s)`,
      "",
    ]);
    const model = JSON.parse(readFileSync(summary, "utf8")).models[0];
    expect(model).toMatchObject({
      // 81 of 99 = 0.81818…: the 18 tasks whose first route the router ranks below 10th fail at select.
      tasks: 99,
      selection_grounded_rate: 0.8182,
      call_success_rate: 1,
      workflow_success_rate: 0.8182,
      workflow_success_task_cluster_bootstrap_95: [0.7374, 0.8889],
      failures_by_reason: { ungrounded_tool_id: 18 },
    });
    expect(readFileSync(runs, "utf8")).not.toContain(KEY);
  });
});
