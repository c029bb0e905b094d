/**
 * `fabench export inspect` and `fabench export csv` on a reference run: what they write, that the
 * same inputs give the same bytes, and the inputs they refuse (exit 2, one line naming the file).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectLogSchema } from "../../src/export/index.ts";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { copyFixture, type Fixture } from "../helpers/shared-fixtures.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

describe("fabench export", () => {
  const suite = useSuiteTempDir();
  const dir = useTempDir();
  let fixture: Fixture;
  let summary: Summary;

  beforeAll(async () => {
    fixture = await copyFixture("en", suite());
    summary = JSON.parse(readFileSync(fixture.summary, "utf8"));
  });

  it("writes one Inspect sample per scored episode, the same bytes each time", async () => {
    const out = [join(dir(), "a.json"), join(dir(), "b.json")];
    for (const file of out) {
      const result = await runCli([
        "export",
        "inspect",
        fixture.run,
        "--summary",
        fixture.summary,
        "--out",
        file,
      ]);
      expect(result.err).toBe("");
      expect(result.code).toBe(0);
      expect(result.out).toContain(`${summary.episode_scores.length} sample(s)`);
    }
    const bytes = readFileSync(out[0] as string, "utf8");
    expect(readFileSync(out[1] as string, "utf8")).toBe(bytes);
    const log = inspectLogSchema.parse(JSON.parse(bytes));
    expect(log.samples).toHaveLength(summary.episode_scores.length);
    expect(log.eval.task).toBe(summary.protocol_id);
    // The run's system prompt is the bundled protocol's: its hash matches, so it opens every sample.
    expect(log.samples.every((s) => s.messages[0]?.role === "system")).toBe(true);
    const first = summary.episode_scores[0];
    const sample = log.samples.find((s) => s.metadata["semantic_task_id"] === first?.semantic_task_id);
    expect(sample?.scores["required_fact_recall"]?.value).toBe(first?.metrics["required_fact_recall"]);
  });

  it("takes run files from --runs as well as positionally", async () => {
    const out = join(dir(), "log.json");
    const result = await runCli([
      "export",
      "inspect",
      "--runs",
      fixture.run,
      "--summary",
      fixture.summary,
      "--out",
      out,
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ out, samples: summary.episode_scores.length });
  });

  it("writes one CSV row per episode and a header", async () => {
    const out = join(dir(), "episodes.csv");
    const result = await runCli(["export", "csv", fixture.run, "--summary", fixture.summary, "--out", out]);
    expect(result.code).toBe(0);
    const lines = readFileSync(out, "utf8").split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(summary.episode_scores.length + 1);
  });

  it("refuses a run file the summary was not scored from", async () => {
    const other = join(dir(), "other.jsonl");
    writeFileSync(other, `${readFileSync(fixture.run, "utf8")}\n`);
    const out = join(dir(), "log.json");
    const result = await runCli(["export", "inspect", other, "--summary", fixture.summary, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^.*other\.jsonl: runs_not_scored_in_summary: /);
  });

  it("refuses a corpus other than the one the run was made from", async () => {
    const corpus = join(dir(), "corpus.json");
    writeFileSync(corpus, `${readFileSync("tasks/final-answer-corpus.json", "utf8")}\n`);
    const out = join(dir(), "log.csv");
    const args = [
      "export",
      "csv",
      fixture.run,
      "--summary",
      fixture.summary,
      "--corpus",
      corpus,
      "--out",
      out,
    ];
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/corpus\.json: corpus_not_scored_in_summary: /);
  });

  it("refuses run files that leave out episodes the summary scored, naming the files it was scored from", async () => {
    // A summary scored from two halves of the run; the export is given only the first half.
    const lines = readFileSync(fixture.run, "utf8").trimEnd().split("\n");
    const half = Math.floor(lines.length / 2);
    const [first, second] = [join(dir(), "first.jsonl"), join(dir(), "second.jsonl")];
    writeFileSync(first, `${lines.slice(0, half).join("\n")}\n`);
    writeFileSync(second, `${lines.slice(half).join("\n")}\n`);
    const both = join(dir(), "both.summary.json");
    expect((await runCli(["score", first, second, "--out", both, "--allow-incomplete"])).code).toBe(0);
    const result = await runCli(["export", "csv", first, "--summary", both, "--out", join(dir(), "x.csv")]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/both\.summary\.json: episodes_not_in_runs: \d+ scored episode/);
    expect(result.err).toContain("second.jsonl");
  });

  it("refuses an output that is one of its inputs, and a command line without run files", async () => {
    const overwrite = await runCli([
      "export",
      "csv",
      fixture.run,
      "--summary",
      fixture.summary,
      "--out",
      fixture.summary,
    ]);
    expect(overwrite.code).toBe(2);
    const none = await runCli(["export", "csv", "--summary", fixture.summary, "--out", join(dir(), "x.csv")]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("no_runs");
  });
});
