import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** The reference agent over the four English tasks of one stratum, scored: a small real summary. */
async function scoredRun(dir: string): Promise<{ run: string; summary: string }> {
  const run = join(dir, "r.jsonl");
  const summary = join(dir, "s.json");
  const tasks = "v4-single_property_value_unit_provenance-en-0*";
  expect((await runCli(["run", "--agent", "reference", "--tasks", tasks, "--out", run])).code).toBe(0);
  expect((await runCli(["score", run, "--out", summary, "--allow-incomplete"])).code).toBe(0);
  return { run, summary };
}

describe("errors that name the real cause", () => {
  const temp = useTempDir();

  it("treats an unknown --tokenizer as a usage error (exit 2), writing nothing", async () => {
    const out = join(temp(), "r.jsonl");
    const result = await runCli(["run", "--agent", "reference", "--tokenizer", "bogus", "--out", out]);
    expect(result.code).toBe(2);
    expect(result.err).toBe("unknown_tokenizer: unknown tokenizer bogus; known: o200k_base, cl100k_base\n");
    expect(() => readFileSync(out)).toThrow();
  });

  it("refuses to report a summary against a protocol it was not scored under", async () => {
    const { run, summary } = await scoredRun(temp());
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));
    protocol.gate.checks[0].threshold = -0.05;
    const other = join(temp(), "protocol.json");
    writeFileSync(other, JSON.stringify(protocol));
    const html = join(temp(), "r.html");
    const refused = await runCli(["report", summary, "--protocol", other, "--out", html]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("protocol_mismatch");
    expect(() => readFileSync(html)).toThrow();
    // Under its own protocol, the plot's dashed margins are the protocol's thresholds.
    expect((await runCli(["report", summary, "--out", html])).code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain(
      "dashed: the margin (−2 pp for required_fact_recall, numeric_value_accuracy, unit_accuracy, provenance_accuracy; +1 pp for unsupported_fact_rate)",
    );
  });
});

describe("what a user types wrong, named as such", () => {
  const temp = useTempDir();

  it.each([["referenc"], ["bogus:x"], ["anthropic:"]])(
    "refuses --agent %s as an unknown agent (exit 2), not as the prerequisite lock",
    async (agent) => {
      for (const extra of [["--out", join(temp(), "r.jsonl")], ["--estimate"]]) {
        const result = await runCli(["run", "--agent", agent, ...extra]);
        expect(result.code).toBe(2);
        expect(result.err).toBe(
          `unknown_agent: --agent takes reference, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH, not ${agent}\n`,
        );
        expect(result.out).toBe("");
      }
    },
  );

  it("reads report --runs FILE before the summary without swallowing the summary, and takes --runs more than once", async () => {
    const { run, summary } = await scoredRun(temp());
    const html = join(temp(), "r.html");
    const report = await runCli(["report", "--runs", run, summary, "--out", html]);
    expect(report.code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain("<pre>");
    expect((await runCli(["report", summary, "--runs", run, "--runs", run, "--out", html])).code).toBe(0);
  });

  it("refuses to show a run's answers beside a summary scored from another run, naming both hashes", async () => {
    const { summary } = await scoredRun(temp());
    const other = join(temp(), "other.jsonl");
    const tasks = "v4-multi_source_comparison-en-0*";
    expect((await runCli(["run", "--agent", "reference", "--tasks", tasks, "--out", other])).code).toBe(0);
    const html = join(temp(), "r.html");
    const refused = await runCli(["report", summary, "--runs", other, "--out", html]);
    expect(refused.code).toBe(2);
    const scoredFrom = JSON.parse(readFileSync(summary, "utf8")).run_files[0].sha256.slice(0, 12);
    const given = createHash("sha256").update(readFileSync(other)).digest("hex").slice(0, 12);
    expect(refused.err).toMatch(/other\.jsonl: runs_not_scored_in_summary: its hash /);
    expect(refused.err.split("\n")).toHaveLength(2);
    expect(refused.err).toContain(`${given}…`);
    expect(refused.err).toContain(`${scoredFrom}…`);
    expect(() => readFileSync(html)).toThrow();
  });

  it("ships a dated example price table that --prices reads, and the demo's hint names it", async () => {
    const table = JSON.parse(readFileSync("examples/prices.json", "utf8")) as { as_of: string; note: string };
    expect(table.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(table.note).toContain("not price quotes");
    const estimate = await runCli([
      "run",
      "--agent",
      "anthropic:MODEL",
      "--estimate",
      "--prices",
      "examples/prices.json",
      "--tasks",
      "v4-single_property_value_unit_provenance-en-01",
    ]);
    expect(estimate.code).toBe(0);
    expect(estimate.out).toMatch(/cost: \$\d+\.\d{4} expected/);
  });
});
