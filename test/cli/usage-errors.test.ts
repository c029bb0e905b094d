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
  expect((await runCli(["run", "--agent", "reference", "--task", tasks, "--out", run])).code).toBe(0);
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
          `unknown_agent: --agent takes reference, probe:NAME, careful-reader, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH, not ${agent}\n`,
        );
        expect(result.out).toBe("");
      }
    },
  );

  it("refuses --agent probe:NAME with a name no probe has, listing the probes (exit 2)", async () => {
    const result = await runCli(["run", "--agent", "probe:copy-last", "--out", join(temp(), "r.jsonl")]);
    expect([result.code, result.out]).toEqual([2, ""]);
    expect(result.err).toBe(
      "unknown_agent: --agent probe:NAME takes copy-first, no-convert, trust-first-record, cite-route, early-answer, eager-destructive, not probe:copy-last\n",
    );
  });

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
    expect((await runCli(["run", "--agent", "reference", "--task", tasks, "--out", other])).code).toBe(0);
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

  it("names a file of the wrong kind in one line, with the command that reads it", async () => {
    const { run, summary } = await scoredRun(temp());
    const cases: Array<[string[], string]> = [
      [
        ["score", summary],
        `${summary}: wrong_file_kind: this is a fabench summary (fabench-summary/v4), not a fabench run file (fabench-run-record/v1) — did you mean \`fabench gate\` or \`fabench report\`?`,
      ],
      [
        ["gate", run],
        `${run}: wrong_file_kind: this is a fabench run file (fabench-run-record/v1), not a fabench summary (fabench-summary/v4) — did you mean \`fabench score\`, \`fabench report --runs\` or \`fabench runs\`?`,
      ],
      [
        ["corpus", "check", "manifests/preregistration.json"],
        "manifests/preregistration.json: wrong_file_kind: this is a fabench protocol (fabench-preregistration/v1), not a fabench corpus (fabench-corpus/v3) — did you mean `--protocol`?",
      ],
      [
        ["report", "tasks/catalogs/100.json"],
        "tasks/catalogs/100.json: wrong_file_kind: this is a fabench catalog (fabench-catalog/v1), not a fabench summary (fabench-summary/v4) — did you mean `--catalogs DIR` (the folder that holds it)?",
      ],
    ];
    for (const [argv, line] of cases) {
      const writes = argv[0] === "score" || argv[0] === "report";
      const result = await runCli([...argv, ...(writes ? ["--out", join(temp(), "never-written")] : [])]);
      expect(result.code).toBe(2);
      expect(result.err).toBe(`${line}\n`);
    }
    expect(() => readFileSync(join(temp(), "never-written"))).toThrow();
    // The same kind in an older format: say so, not "invalid field".
    const old = join(temp(), "old.json");
    writeFileSync(old, readFileSync(summary, "utf8").replace("fabench-summary/v4", "fabench-summary/v2"));
    const refused = await runCli(["gate", old]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `${old}: unsupported_format: this is a fabench summary in format fabench-summary/v2; this fabench reads fabench-summary/v4 — make it again with this version\n`,
    );
  });

  it("reports metadata that differs between run files once per field, with both values", async () => {
    const tasks = ["--task", "v4-single_property_value_unit_provenance-en-0*", "--condition", "FULL,SR-5"];
    const a = join(temp(), "a.jsonl");
    const b = join(temp(), "b.jsonl");
    expect((await runCli(["run", "--agent", "reference", ...tasks, "--out", a])).code).toBe(0);
    const other = ["--tokenizer", "cl100k_base", "--out", b];
    expect((await runCli(["run", "--agent", "reference", ...tasks, ...other])).code).toBe(0);
    const refused = await runCli(["score", a, b, "--out", join(temp(), "s.json")]);
    expect(refused.code).toBe(2);
    // 4 tasks × 2 catalogs × 2 conditions = 16 records of b differ in one field: one line.
    const lines = refused.err.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^.*b\.jsonl:1: metadata_mismatch: metadata tokenizer is "[^"]*cl100k_base" here but "[^"]*o200k_base" in .*a\.jsonl \(16 record\(s\) of this file\); runs made with different settings cannot be merged$/,
    );
    // The same problem, the same line and exit code from runs merge (it was 1 there).
    const merge = await runCli(["runs", "merge", a, b, "--out", join(temp(), "m.jsonl")]);
    expect([merge.code, merge.err]).toEqual([2, refused.err]);
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
      "--task",
      "v4-single_property_value_unit_provenance-en-01",
    ]);
    expect(estimate.code).toBe(0);
    expect(estimate.out).toMatch(/cost: \$\d+\.\d{4} expected/);
  });
});
