import { existsSync, readFileSync, writeFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { formatJsonFile } from "../../src/core/index.ts";
import { powerReportSchema } from "../../src/metrics/simulate/schema.ts";
import { summaryJsonSchema } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

const SUBSET = ["--agent", "reference", "--task", "v4-*-en-0?", "--trials", "2"];

/**
 * A reference run of 24 tasks × 2 trials made for the describe block that calls this, in a folder
 * of its own removed after the block: no block reads what another one made.
 */
function useReferenceRun(): () => string {
  const folder = useSuiteTempDir();
  beforeAll(async () => {
    expect((await runCli(["run", ...SUBSET, "--out", join(folder(), "run.jsonl")])).code).toBe(0);
  });
  return () => join(folder(), "run.jsonl");
}

describe("fabench score, gate and report", () => {
  const temp = useTempDir();
  const run = useReferenceRun();

  it("refuses an incomplete set unless asked, and then says so and cannot pass", async () => {
    const refused = await runCli(["score", run(), "--out", join(temp(), "s.json")]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("missing_episode"); // 24 of the corpus's 144 tasks were run
    const out = join(temp(), "s.json");
    const allowed = await runCli(["score", run(), "--out", out, "--allow-incomplete", "--json"]);
    expect(allowed.code).toBe(0);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    expect(summary.complete).toBe(false);
    expect(summary.gate.any_deployable_condition_passed).toBe(false);
    // The summary records which interval the gate read and the preregistered rule that chose it.
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));
    expect(summary.gate.interval_method).toBe(protocol.statistics.gate_interval);
    expect(summary.bootstrap.gate_interval).toBe(protocol.statistics.gate_interval);
    expect(summary.bootstrap.gate_interval_rule).toEqual(protocol.statistics.gate_interval_rule);
    expect(summary.bootstrap.gate_interval_rule.selected).toBe(summary.gate.interval_method);
    const conveyor = await satisfiedConveyor(temp());
    const gate = await runCli(["gate", out, "--conveyor", conveyor]);
    expect([gate.code, gate.out.split("\n")[0]]).toEqual([
      1,
      "verdict: FAIL (incomplete run set: cannot pass)",
    ]);
  });

  it("writes byte-identical summaries for the same inputs", async () => {
    const a = join(temp(), "a.json");
    const b = join(temp(), "b.json");
    await runCli(["score", run(), "--out", a, "--allow-incomplete"]);
    await runCli(["score", run(), "--out", b, "--allow-incomplete"]);
    expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
  });

  it("rescores every episode from its final text, and counts an error episode as an answer failure", async () => {
    const lines = readFileSync(run(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    lines[0].status = "error";
    lines[0].error_code = "provider_timeout";
    lines[1].final_text = "not an envelope";
    const edited = join(temp(), "edited.jsonl");
    writeFileSync(edited, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const out = join(temp(), "s.json");
    expect((await runCli(["score", edited, "--out", out, "--allow-incomplete"])).code).toBe(0);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    expect(summary.infrastructure_errors).toEqual({ total: 1, by_code: { provider_timeout: 1 } });
    const first = summary.episode_scores.find(
      (e: { semantic_task_id: string; condition: string; catalog_size: number; trial: number }) =>
        e.semantic_task_id === lines[0].semantic_task_id &&
        e.condition === lines[0].condition &&
        e.catalog_size === lines[0].catalog_size &&
        e.trial === lines[0].trial,
    );
    expect(first.metrics.required_fact_recall).toBe(0);
    expect(summary.aggregates.pooled[lines[1].condition].malformed_reasons).toEqual({ not_json: 1 });
  });

  it("gates BLOCKED with exit 3 under the bundled conveyor, and reports HTML and Markdown", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const gate = await runCli(["gate", out, "--json"]);
    expect(gate.code).toBe(3);
    expect(JSON.parse(gate.out).status).toBe("BLOCKED");
    const md = await runCli(["report", out, "--format", "md", "--out", join(temp(), "r.md")]);
    expect(md.code).toBe(0);
    expect(readFileSync(join(temp(), "r.md"), "utf8")).toContain("## fabench: **BLOCKED**");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--runs", run(), "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('<span class="verdict BLOCKED">BLOCKED</span>');
    expect(page).not.toMatch(/<script|(src|href)="https?:/);
  });

  it("shows an unbounded gate bound at the metric's limit, marked and explained, not as a missing value", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    summary.gate.conditions["SR-5"].checks.fact_recall.ci95_gate = [null, 0.01];
    const edited = join(temp(), "edited.json");
    writeFileSync(edited, JSON.stringify(summary));
    const md = join(temp(), "r.md");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", edited, "--format", "md", "--out", md])).code).toBe(0);
    expect((await runCli(["report", edited, "--out", html])).code).toBe(0);
    const markdown = readFileSync(md, "utf8");
    const method = summary.gate.interval_method as string;
    expect(markdown).toContain(`(${method} [-1.0000†, 0.0100])`);
    expect(markdown).toContain("† unbounded: the method gave no bound on that side");
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`${method} [-1.0000†, 0.0100]`);
    expect(page).toContain("† unbounded: the method gave no bound on that side");
  });

  it("adds the simulator's achieved coverage as a footnote when given", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const study = join(temp(), "coverage.json");
    const sim = await runCli(["simulate", "coverage", "--datasets", "3", "--iterations", "100", "--json"]);
    writeFileSync(study, sim.out);
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--coverage", study, "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toMatch(/id="coverage".*bootstrap_t.*rare-total-miss/s);
    // The footnote names the gate's method, the rule that chose it, and that method's type I error.
    const method = JSON.parse(readFileSync(out, "utf8")).gate.interval_method as string;
    expect(page).toContain(
      `The gate's interval verdict reads <code>${method}</code>, the method the preregistered rule picked`,
    );
    expect(page).toContain(`<th>${method} type I at −0.02</th>`);
    const simulated = JSON.parse(sim.out) as {
      results: Array<{ methods: Record<string, { type_one_error: number }> }>;
    };
    const worst = Math.max(...simulated.results.map((r) => r.methods[method]?.type_one_error ?? Number.NaN));
    expect(page).toContain(`at most ${worst.toFixed(3)} of the time`);
    // Without a study it still names the method and the rule, and says how to get the figures.
    const bare = join(temp(), "bare.html");
    expect((await runCli(["report", out, "--out", bare])).code).toBe(0);
    expect(readFileSync(bare, "utf8")).toMatch(
      new RegExp(
        `reads <code>${method}</code>.*run <code>fabench simulate coverage --select --json</code>`,
        "s",
      ),
    );
  });

  it("power reads the pilot from runs or from their summary, with the same answer", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const design = ["--datasets", "20", "--iterations", "100", "--tasks-per-cell", "4,8", "--json"];
    const fromRuns = await runCli(["power", "--runs", run(), ...design]);
    const fromSummary = await runCli(["power", "--summary", out, ...design]);
    expect([fromRuns.code, fromSummary.code]).toEqual([0, 0]);
    expect(fromRuns.out).toBe(fromSummary.out);
    expect(JSON.parse(fromRuns.out)).toMatchObject({ condition: "SR-5", pilot: { tasks: 24, trials: 2 } });
    // The output is what schemas/power.schema.json publishes.
    const validate = new Ajv2020.default({ strict: false }).compile(
      JSON.parse(readFileSync("schemas/power.schema.json", "utf8")),
    );
    expect(validate(JSON.parse(fromRuns.out))).toBe(true);
    expect(powerReportSchema.safeParse(JSON.parse(fromRuns.out)).success).toBe(true);
    const both = await runCli(["power", "--runs", run(), "--summary", out]);
    const neither = await runCli(["power"]);
    expect([both.code, neither.code]).toEqual([2, 2]);
    expect(neither.err).toContain("pilot_source");
  });

  it("power estimates the pilot's trial noise from the spread of each task's repeats", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    // SR-5 scores 1 on trial 1 and 0 on trial 2 of each catalog, FULL always 1: every delta is −0.5;
    // SR-5's variance within a task and catalog is 1/2 over 4 episodes, FULL's 0: a delta's noise is 1/8.
    for (const e of summary.episode_scores)
      if (e.condition === "SR-5" || e.condition === "FULL")
        e.metrics.required_fact_recall = e.condition === "FULL" || e.trial === 1 ? 1 : 0;
    const edited = join(temp(), "edited.json");
    writeFileSync(edited, JSON.stringify(summary));
    const result = await runCli([
      "power",
      "--summary",
      edited,
      "--datasets",
      "5",
      "--iterations",
      "50",
      "--tasks-per-cell",
      "4",
      "--trials",
      "2,8",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const pilot = JSON.parse(result.out).pilot;
    expect(pilot).toMatchObject({ tasks: 24, trials: 2, mean_delta: -0.5 });
    expect(pilot.trial_noise_variance).toBeCloseTo(1 / 8, 12);
    expect(JSON.parse(result.out).rows.map((r: { trials: number }) => r.trials)).toEqual([2, 2, 8, 8]);
    // The same deltas from a catalog effect instead (1 on the smaller catalog, 0 on the larger, on
    // both trials): no trial noise at all, so more trials change nothing.
    for (const e of summary.episode_scores)
      if (e.condition === "SR-5") e.metrics.required_fact_recall = e.catalog_size === 100 ? 1 : 0;
    writeFileSync(edited, JSON.stringify(summary));
    const catalog = await runCli([
      "power",
      "--summary",
      edited,
      "--datasets",
      "5",
      "--iterations",
      "50",
      "--tasks-per-cell",
      "4",
      "--trials",
      "2,8",
      "--json",
    ]);
    expect(JSON.parse(catalog.out).pilot).toMatchObject({ mean_delta: -0.5, trial_noise_variance: 0 });
  });

  it("refuses an edited coverage study with every problem and writes no report", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const sim = JSON.parse(
      (await runCli(["simulate", "coverage", "--datasets", "3", "--iterations", "100", "--json"])).out,
    );
    sim.results[0].methods.bootstrap_t.coverage = 1.7;
    delete sim.design.seed;
    const study = join(temp(), "coverage.json");
    const text = JSON.stringify(sim, null, 2);
    writeFileSync(study, text);
    const html = join(temp(), "r.html");
    const result = await runCli(["report", out, "--coverage", study, "--out", html]);
    expect(result.code).toBe(2);
    // Each problem names the line of its JSON path (a missing key: its object's line).
    const lineOf = (needle: string, from = 0) => text.slice(0, text.indexOf(needle, from)).split("\n").length;
    const coverageLine = lineOf('"coverage": 1.7');
    expect(result.err).toContain(
      `${study}:${coverageLine}: not_a_coverage_study: results[0].methods.bootstrap_t.coverage`,
    );
    expect(result.err).toContain(`${study}:${lineOf('"design"')}: not_a_coverage_study: design.seed`);
    expect(existsSync(html)).toBe(false);
  });

  it("refuses a run whose provider reported more than one model, unless told, and records the models", async () => {
    const lines = readFileSync(run(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // The reference agent reports no model: the summary lists none.
    const plain = join(temp(), "plain.json");
    expect((await runCli(["score", run(), "--out", plain, "--allow-incomplete"])).code).toBe(0);
    expect(JSON.parse(readFileSync(plain, "utf8")).reported_models).toEqual({});
    // A provider alias that moved mid-run: the later episodes were answered by another snapshot.
    lines.forEach((l, i) => {
      for (const t of l.turns) t.model = i < 10 ? "model-2026-01" : "model-2026-06";
    });
    const mixed = join(temp(), "mixed.jsonl");
    writeFileSync(mixed, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const out = join(temp(), "mixed.json");
    const refused = await runCli(["score", mixed, "--out", out, "--allow-incomplete"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/mixed_reported_models: \d+ turn\(s\) answered by model-2026-01/);
    expect(refused.err).toContain("model-2026-06");
    expect(existsSync(out)).toBe(false);
    const allowed = await runCli([
      "score",
      mixed,
      "--out",
      out,
      "--allow-incomplete",
      "--allow-mixed-models",
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.out).toContain("WARNING: the provider reported 2 models");
    const turns = lines.reduce((n, l) => n + l.turns.length, 0);
    const models = JSON.parse(readFileSync(out, "utf8")).reported_models;
    expect(Object.keys(models)).toEqual(["model-2026-01", "model-2026-06"]);
    expect((models["model-2026-01"] as number) + (models["model-2026-06"] as number)).toBe(turns);
  });

  it("refuses a run made from another corpus", async () => {
    const lines = readFileSync(run(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const l of lines) l.metadata.corpus_tasks_sha256 = "0".repeat(64);
    const edited = join(temp(), "other.jsonl");
    writeFileSync(edited, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const result = await runCli(["score", edited, "--out", join(temp(), "s.json")]);
    expect([result.code, result.err.includes("run_input_mismatch")]).toEqual([2, true]);
    // Only what differs is named (the protocol is the same), with both hashes and the way out.
    const corpusSha = JSON.parse(readFileSync("tasks/final-answer-corpus.json", "utf8"))
      .tasks_sha256 as string;
    expect(result.err).toContain(
      `the runs were made from another corpus (run 000000000000…, given ${corpusSha.slice(0, 12)}…); pass the files they were made from with --corpus`,
    );
    expect(result.err).not.toContain("protocol (run");
  });
});

describe("a summary that was edited or cut", () => {
  const temp = useTempDir();
  const run = useReferenceRun();

  it("is refused by gate and report with exit 2 and the path of the problem", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    delete summary.bootstrap.intervals;
    const edited = join(temp(), "edited.json");
    writeFileSync(edited, JSON.stringify(summary));
    const gate = await runCli(["gate", edited]);
    expect(gate.code).toBe(2);
    expect(gate.err).toContain("invalid_summary: bootstrap.intervals");
    const cut = join(temp(), "cut.json");
    writeFileSync(cut, readFileSync(out, "utf8").slice(0, 5000));
    expect((await runCli(["report", cut])).code).toBe(2);
  });

  it("is checked field by field against the published schema, every problem listed", async () => {
    const out = join(temp(), "s.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    expect(readFileSync("schemas/summary.schema.json", "utf8")).toBe(formatJsonFile(summaryJsonSchema()));
    const validate = new Ajv2020.default({ strict: false }).compile(
      JSON.parse(readFileSync("schemas/summary.schema.json", "utf8")),
    );
    expect(validate(summary)).toBe(true);
    // Deep edits the old shape check let through: a stray field, a fact verdict of the wrong type,
    // a gate bound that is a string.
    const added = summary.episode_scores[0].facts.push({ index: 0, key: "k", licensed: "yes" }) - 1;
    summary.gate.conditions["SR-5"].checks.fact_recall.ci95_gate = ["-0.01", 0.01];
    summary.extra = 1;
    expect(validate(summary)).toBe(false);
    const edited = join(temp(), "edited.json");
    writeFileSync(edited, JSON.stringify(summary));
    const report = await runCli(["report", edited, "--out", join(temp(), "r.html")]);
    expect(report.code).toBe(2);
    expect(report.err).toContain(`episode_scores[0].facts[${added}].licensed`);
    expect(report.err).toContain("gate.conditions.SR-5.checks.fact_recall.ci95_gate[0]");
    expect(report.err).toContain("extra");
    expect(existsSync(join(temp(), "r.html"))).toBe(false);
  });
});
