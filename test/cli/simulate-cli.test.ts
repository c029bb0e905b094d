/**
 * `fabench simulate coverage --select / --check-protocol / --tasks-per-cell` and `fabench power`'s
 * every-method output, end to end. The rule's own run (8 scenarios × 4,000 datasets) is far too
 * slow for a test, so each test writes a protocol whose rule asks for a handful of datasets.
 */
import { readFileSync, writeFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  coverageStudySchema,
  METHODS,
  powerReportSchema,
  selectMethod,
  type CoverageStudy,
} from "../../src/metrics/simulate/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

const bundled = () => JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));

/** The bundled protocol with a small rule (and optionally another gate interval, kept equal to the rule's `selected`). */
function writeProtocol(dir: string, rule: Record<string, unknown> = {}, gate?: string): string {
  const p = bundled();
  p.statistics.gate_interval_rule = {
    ...p.statistics.gate_interval_rule,
    scenarios: ["exact-null", "binary-coupled"],
    min_datasets: 4,
    iterations: 60,
    ...rule,
  };
  if (gate !== undefined) {
    p.statistics.gate_interval = gate;
    p.statistics.gate_interval_rule.selected = gate;
  }
  const path = join(dir, `protocol-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(p, null, 2));
  return path;
}

function validator(schema: string) {
  return new Ajv2020.default({ strict: false }).compile(JSON.parse(readFileSync(schema, "utf8")));
}

describe("simulate coverage --select and --check-protocol", () => {
  const temp = useTempDir();

  it("applies the rule with its own datasets, iterations and seed, deterministically, as published", async () => {
    const protocol = writeProtocol(temp());
    const args = ["simulate", "coverage", "--select", "--protocol", protocol, "--json"];
    const a = await runCli(args);
    const b = await runCli(args);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.out).toBe(b.out);
    expect(a.err).not.toContain("NOT");
    const study = JSON.parse(a.out) as CoverageStudy;
    expect(coverageStudySchema.safeParse(study).success).toBe(true);
    expect(validator("schemas/coverage-study.schema.json")(study)).toBe(true);
    expect(study.design).toMatchObject({ datasets: 4, iterations: 60, seed: bundled().statistics.seed });
    expect(study.results.map((r) => r.scenario)).toEqual(["exact-null", "binary-coupled"]);
    const selection = study.selection!;
    expect(selection).toMatchObject({ preregistered: true, deviations: [] });
    const rule = bundled().statistics.gate_interval_rule;
    expect(selection.selected).toBe(
      selectMethod(study.results, { ...rule, scenarios: ["exact-null", "binary-coupled"] }).selected,
    );
    expect(selection.methods.map((m) => m.method)).toEqual([...METHODS]);
    expect(selection.protocol_agrees).toBe(selection.selected === bundled().statistics.gate_interval);
    // The text: a table per method and scenario, and the pick.
    const text = await runCli(["simulate", "coverage", "--select", "--protocol", protocol]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("this run is the rule's preregistered configuration");
    expect(text.out).toContain(`the rule picks ${selection.selected}`);
    for (const m of METHODS) expect(text.out).toMatch(new RegExp(`^${m} +binary-coupled `, "m"));
    expect(text.err).toMatch(/simulate binary-coupled \(2\/2\)/);
  });

  it("refuses fewer datasets than the rule's minimum, and says when the run is not the rule's", async () => {
    const protocol = writeProtocol(temp());
    const few = await runCli(["simulate", "coverage", "--select", "--protocol", protocol, "--datasets", "3"]);
    expect(few.code).toBe(2);
    expect(few.err).toContain("too_few_datasets");
    const more = await runCli([
      "simulate",
      "coverage",
      "--select",
      "--protocol",
      protocol,
      "--datasets",
      "5",
      "--json",
    ]);
    expect(more.code).toBe(0);
    expect(more.err).toContain("warning: this run is NOT the rule's preregistered configuration");
    expect(JSON.parse(more.out).selection).toMatchObject({
      preregistered: false,
      deviations: ["5 datasets instead of the rule's 4"],
    });
    const other = await runCli([
      "simulate",
      "coverage",
      "--select",
      "--protocol",
      protocol,
      "--seed",
      "5",
      "--tasks-per-cell",
      "2",
      "--json",
    ]);
    expect(other.code).toBe(0);
    expect(other.err).toContain("warning: this run is NOT the rule's preregistered configuration");
    const study = JSON.parse(other.out) as CoverageStudy;
    expect(study.design.tasks_per_cell).toBe(2);
    expect(study.selection).toMatchObject({ preregistered: false });
    expect(study.selection?.deviations).toEqual([
      `seed 5 instead of the rule's ${bundled().statistics.gate_interval_rule.seed}`,
      "2 tasks per cell instead of the protocol's 4",
    ]);
  });

  it("--check-protocol exits 0 when the protocol's gate interval is the rule's pick and 1 when not", async () => {
    const first = await runCli([
      "simulate",
      "coverage",
      "--select",
      "--protocol",
      writeProtocol(temp()),
      "--json",
    ]);
    const pick = JSON.parse(first.out).selection.selected as string;
    const agreeing = await runCli([
      "simulate",
      "coverage",
      "--check-protocol",
      "--protocol",
      writeProtocol(temp(), {}, pick),
    ]);
    expect(agreeing.code).toBe(0);
    expect(agreeing.out).toBe(`protocol: statistics.gate_interval is ${pick}, the rule's pick\n`);
    const other = METHODS.find((m) => m !== pick)!;
    const disagreeing = await runCli([
      "simulate",
      "coverage",
      "--check-protocol",
      "--protocol",
      writeProtocol(temp(), {}, other),
    ]);
    expect(disagreeing.code).toBe(1);
    expect(disagreeing.out).toBe(
      `protocol: statistics.gate_interval is ${other}, but the rule picks ${pick}\n`,
    );
  });

  it("needs every scenario the rule names, from the built-in ones or --scenarios", async () => {
    const protocol = writeProtocol(temp(), { scenarios: ["exact-null", "mine"] });
    const missing = await runCli(["simulate", "coverage", "--select", "--protocol", protocol]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("unknown_rule_scenario");
    expect(missing.err).toContain("mine");
    // A scenario file in the format from before kinds: continuous.
    const file = join(temp(), "mine.json");
    const { kind: _, ...nearNull } = (await import("../../src/metrics/simulate/index.ts"))
      .BUILT_IN_SCENARIOS[0] as {
      kind: string;
    };
    writeFileSync(file, JSON.stringify({ scenarios: [{ ...nearNull, name: "mine" }] }));
    const found = await runCli([
      "simulate",
      "coverage",
      "--select",
      "--protocol",
      protocol,
      "--scenarios",
      file,
      "--json",
    ]);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.out).selection.deviations).toEqual(["mine from --scenarios, not built in"]);
  });
});

describe("simulate coverage: scenario files and --tasks-per-cell", () => {
  const temp = useTempDir();

  it("refuses a scenario defined twice and a binary one that cannot be re-centred, every problem with its code", async () => {
    const file = join(temp(), "bad.json");
    writeFileSync(
      file,
      JSON.stringify({
        scenarios: [
          {
            kind: "one-stratum",
            name: "near-null",
            description: "",
            miss_rate: 0.1,
            miss_loss: 1,
            gain_rate: 0,
            gain: 0,
            cell_sd: 0,
            task_sd: 0,
            noise_sd: 0,
          },
          {
            kind: "binary",
            name: "flat",
            description: "",
            difficulty: { alpha: 1, beta: 1 },
            loss_rate: 0,
            gain_rate: 0,
            coupled: true,
          },
        ],
      }),
    );
    const run = await runCli(["simulate", "coverage", "--scenarios", file, "--datasets", "2"]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("duplicate_scenario");
    expect(run.err).toContain("scenario_not_recentrable");
  });

  it("simulates the design it is given and reports the three figures per method", async () => {
    const run = await runCli([
      "simulate",
      "coverage",
      "--tasks-per-cell",
      "2",
      "--datasets",
      "3",
      "--iterations",
      "50",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const study = JSON.parse(run.out) as CoverageStudy;
    expect(study.design).toMatchObject({ tasks_per_cell: 2, strata: 6, cells: 36 });
    expect(study.selection).toBeUndefined();
    expect(study.results.map((r) => r.scenario)).toContain("one-stratum-hurt");
    for (const r of study.results)
      for (const m of METHODS) {
        expect(r.methods[m].type_one_error).toBeGreaterThanOrEqual(0);
        expect(r.methods[m].power_at_zero).toBeLessThanOrEqual(1);
      }
    const text = await runCli(["simulate", "coverage", "--datasets", "2", "--iterations", "50"]);
    expect(text.out.split("\n")[0]).toContain("type I at −0.02  P(pass) at 0");
    expect((await runCli(["simulate", "coverage", "--tasks-per-cell", "0"])).code).toBe(2);
  });
});

describe("power shows every interval method", () => {
  const folder = useSuiteTempDir();
  beforeAll(async () => {
    const run = ["run", "--agent", "reference", "--task", "v4-*-en-01", "--trials", "2"];
    expect((await runCli([...run, "--out", join(folder(), "run.jsonl")])).code).toBe(0);
  }, 120_000);
  const design = ["--datasets", "6", "--iterations", "60", "--tasks-per-cell", "4,8"];

  it("gives every method's pass rate beside the highlighted one's, in text and JSON", async () => {
    const runs = join(folder(), "run.jsonl");
    const json = await runCli(["power", "--runs", runs, ...design, "--method", "skew_t", "--json"]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out);
    expect(powerReportSchema.safeParse(report).success).toBe(true);
    expect(validator("schemas/power.schema.json")(report)).toBe(true);
    expect(report.method).toBe("skew_t");
    for (const row of report.rows) {
      expect(Object.keys(row.pass_rates)).toEqual([...METHODS]);
      expect(row.pass_rate).toBe(row.pass_rates.skew_t);
    }
    const needed = report.tasks_per_cell_for_80_percent_power[0];
    expect(Object.keys(needed.methods)).toEqual([...METHODS]);
    expect(needed.at_zero).toBe(needed.methods.skew_t.at_zero);
    const text = await runCli(["power", "--runs", runs, ...design]);
    expect(text.code).toBe(0);
    const gate = bundled().statistics.gate_interval as string;
    const header = text.out.split("\n").find((l) => l.startsWith("tasks per cell"))!;
    for (const m of METHODS) expect(header).toContain(m === gate ? `${m}*` : m);
    expect(text.out).toMatch(new RegExp(`^80 % power with 2 trial\\(s\\), ${gate}: `, "m"));
  });
});
