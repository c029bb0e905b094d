/**
 * Scoring a run that holds only some conditions — a FULL-only pilot, FULL and one router — and a run
 * whose FULL baseline answers nothing: `score` exits 0, the summary has no deltas where there is
 * nothing to compare, the gate says why it cannot pass, and every rendering warns when the baseline
 * itself failed. Each run is a real reference run (offline, fast) of the 24 English `-0?` tasks.
 */
import { readFileSync, writeFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { summarySchema, type Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

const TASKS = ["--agent", "reference", "--task", "v4-*-en-0?"];
const DEPLOYABLE = ["SR-5", "SR-10", "SR-PROGRESSIVE"];

/** A reference run of the given conditions, made once for the describe block that calls this. */
function useRun(conditions: string): () => string {
  const folder = useSuiteTempDir();
  beforeAll(async () => {
    const out = join(folder(), "run.jsonl");
    expect((await runCli(["run", ...TASKS, "--condition", conditions, "--out", out])).code).toBe(0);
  }, 120_000);
  return () => join(folder(), "run.jsonl");
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/** The summary validates against the zod schema and the published JSON Schema. */
function expectValidSummary(summary: unknown): void {
  expect(summarySchema.safeParse(summary).success).toBe(true);
  const validate = new Ajv2020.default({ strict: false }).compile(readJson("schemas/summary.schema.json"));
  expect(validate(summary)).toBe(true);
}

describe("score of a FULL-only run (fabench run --condition FULL)", () => {
  const temp = useTempDir();
  const run = useRun("FULL");

  it("exits 0 with no deltas, and the gate says no comparison condition was run", async () => {
    const out = join(temp(), "s.json");
    const scored = await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    expect([scored.code, scored.err]).toEqual([0, ""]);
    const summary: Summary = readJson(out);
    expectValidSummary(summary);
    expect(Object.keys(summary.aggregates["pooled"] ?? {})).toEqual(["FULL"]);
    // Levels of FULL are there; no delta is (absent, not null).
    const keys = Object.keys(summary.bootstrap.intervals);
    expect(keys).toContain("pooled|FULL|required_fact_recall|level");
    expect(keys.filter((k) => k.endsWith("|delta"))).toEqual([]);
    for (const groups of [summary.breakdowns.by_language, summary.breakdowns.by_stratum])
      for (const g of Object.values(groups)) expect([g.deltas, g.delta_intervals]).toEqual([{}, {}]);
    expect(summary.gate.conditions_not_run).toEqual(DEPLOYABLE);
    expect(summary.gate.any_deployable_condition_passed).toBe(false);
    for (const v of Object.values(summary.gate.conditions))
      expect([v.passed, v.interval_passed]).toEqual([false, false]);
    const reason = "no comparison condition was run: SR-5, SR-10, SR-PROGRESSIVE are not in the run files";
    expect(scored.out).toContain(reason);
    expect(scored.out).not.toContain("WARNING"); // the reference agent's FULL recalls everything

    // The gate, under a satisfied prerequisite: FAIL (exit 1), saying why, each condition not run named.
    const gate = await runCli(["gate", out, "--conveyor", await satisfiedConveyor(temp())]);
    expect(gate.code).toBe(1);
    expect(gate.out.split("\n")[0]).toBe(`verdict: FAIL (incomplete run set: cannot pass; ${reason})`);
    for (const c of DEPLOYABLE)
      expect(gate.out).toContain(`${c}: not run (no episode in the run files): cannot pass`);
    // Under the bundled (unmet) prerequisite: BLOCKED (exit 3), and the numbers say the same.
    const blocked = await runCli(["gate", out]);
    expect(blocked.code).toBe(3);
    expect(blocked.out).toContain(`on the numbers: would FAIL (incomplete run set; ${reason})`);

    // The report renders in both formats: no plot of deltas, every condition's column "not run".
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--runs", run(), "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('id="forest-empty"');
    expect(page).not.toContain(
      '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Paired deltas',
    );
    for (const c of DEPLOYABLE)
      expect(page.split(`data-condition="${c}" data-label="${c}">not run</th>`).length - 1).toBe(6); // 2 rows × 3 tables
    const md = join(temp(), "r.md");
    expect((await runCli(["report", out, "--format", "md", "--out", md])).code).toBe(0);
    const markdown = readFileSync(md, "utf8");
    expect(markdown).toContain(reason);
    expect(markdown).toContain("| **verdict (point / interval)** | | not run | not run | not run |");
  });
});

describe("score of a run holding FULL and one other condition", () => {
  const temp = useTempDir();
  const run = useRun("FULL,SR-5");

  it("compares SR-5 with FULL and names the two conditions not run", async () => {
    const out = join(temp(), "s.json");
    const scored = await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    expect(scored.code).toBe(0);
    const summary: Summary = readJson(out);
    expectValidSummary(summary);
    const deltas = Object.keys(summary.bootstrap.intervals).filter((k) => k.endsWith("|delta"));
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((k) => k.split("|")[1] === "SR-5")).toBe(true);
    expect(summary.gate.conditions_not_run).toEqual(["SR-10", "SR-PROGRESSIVE"]);
    // SR-5's recall delta is the paired difference of the two pooled means (one trial, same tasks).
    const pooled = summary.aggregates["pooled"] ?? {};
    const recall = (c: string) => pooled[c]?.means["required_fact_recall"] as number;
    expect(summary.gate.conditions["SR-5"]?.checks["fact_recall"]?.delta).toBeCloseTo(
      recall("SR-5") - recall("FULL"),
      12,
    );
    expect(scored.out).toContain("not run: SR-10, SR-PROGRESSIVE; SR-5: ");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('class="plot forest"');
    expect(page).toMatch(/data-condition="SR-5" data-label="SR-5">(pass|fail)<\/th>/);
    expect(page).toContain('data-condition="SR-10" data-label="SR-10">not run</th>');
  });
});

describe("a run whose FULL baseline answers nothing", () => {
  const temp = useTempDir();
  const run = useRun("FULL,SR-5");
  const WARNING =
    "WARNING: the FULL baseline's required fact recall is 0.000 (below 0.5): the baseline itself failed; non-inferiority against it says little";

  /** The reference run with every final answer emptied: scored from its text, every recall is 0. */
  function silent(): string {
    const lines = readFileSync(run(), "utf8")
      .trim()
      .split("\n")
      .map((l) => ({ ...JSON.parse(l), final_text: "" }));
    const path = join(temp(), "silent.jsonl");
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    return path;
  }

  it("is flagged in the headline, the gate's text and both reports; no bare ✓ on a delta check", async () => {
    const out = join(temp(), "s.json");
    const scored = await runCli(["score", silent(), "--out", out, "--allow-incomplete"]);
    expect(scored.code).toBe(0);
    const summary: Summary = readJson(out);
    expect(summary.aggregates["pooled"]?.["FULL"]?.means["required_fact_recall"]).toBe(0);
    // Both answer nothing: SR-5's recall delta is 0 and passes the −0.02 margin — against a failed baseline.
    const recall = summary.gate.conditions["SR-5"]?.checks["fact_recall"];
    expect([recall?.delta, recall?.passed]).toEqual([0, true]);
    const headline = scored.out.split("\n");
    expect(headline[headline.findIndex((l) => l.startsWith("gate: ")) + 1]).toBe(WARNING);

    const gate = await runCli(["gate", out, "--conveyor", await satisfiedConveyor(temp())]);
    expect(gate.out.split("\n").slice(0, 2)).toEqual([
      "verdict: FAIL (incomplete run set: cannot pass; not run: SR-10, SR-PROGRESSIVE)",
      WARNING,
    ]);

    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`<p id="baseline-warning" class="warn">⚠ ${WARNING}.</p>`);
    const table = /<table class="gate cards" id="gate-pooled">.*?<\/table>/s.exec(page)?.[0] ?? "";
    const rows = table.split("<tr>").slice(1);
    const deltaRows = rows.filter((r) => r.includes('<td data-label="needs">Δ'));
    const protocol = readJson("manifests/preregistration.json") as { gate: { checks: { rule: string }[] } };
    expect(deltaRows).toHaveLength(protocol.gate.checks.filter((c) => c.rule.startsWith("delta")).length);
    // No delta check shows the green pass; SR-5's recall pass is amber and marked.
    for (const row of deltaRows) expect(row).not.toContain('class="ok"');
    expect(deltaRows[0]).toContain(
      '<td class="caution" title="passes against a failed baseline" data-label="SR-5">⚠ ✓ 0.0000',
    );

    const md = join(temp(), "r.md");
    expect((await runCli(["report", out, "--format", "md", "--out", md])).code).toBe(0);
    const markdown = readFileSync(md, "utf8");
    expect(markdown).toContain(`> ⚠️ **${WARNING}.**`);
    expect(markdown).toMatch(/\| required_fact_recall \| Δ ≥ -0\.02 \| ⚠️✅ 0\.0000/);
    expect(markdown).not.toMatch(
      /\| (required_fact_recall|unit_accuracy|numeric_value_accuracy|provenance_accuracy) \|[^\n]*\| ✅/,
    );
  });

  it("is not flagged for the same run with its answers kept", async () => {
    const out = join(temp(), "s.json");
    const scored = await runCli(["score", run(), "--out", out, "--allow-incomplete"]);
    expect(scored.out).not.toContain("WARNING");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).not.toContain('id="baseline-warning"');
    expect(page).not.toContain('class="caution"');
  });
});
