/**
 * `corpus sensitivity` on a small hand-written world (the v5 world tasks and the probe tasks, with
 * a keyword-router manifest): the stage's table against values computed by hand from the tasks,
 * its determinism, and the command's text and JSON printing of it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { printSensitivity } from "../../src/commands/corpus/sensitivity.ts";
import { keywordRanking, manifestEntry } from "../../src/conditions/routing/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import {
  renderSensitivity,
  runSensitivity,
  sensitivityConditions,
  sensitivityTable,
  type SensitivityRow,
  type SensitivityTable,
} from "../../src/sensitivity/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { ALL_V5_TASKS } from "../helpers/probe-tasks.ts";

const { protocol, catalogs } = bundled();
let units: UnitConverter;
let table: SensitivityTable;

async function tableOf(tasks: readonly Task[]): Promise<SensitivityTable> {
  const entries = tasks.flatMap((t) =>
    catalogs.map(({ size, catalog }) =>
      manifestEntry(protocol, t, size, keywordRanking(t.query, catalog.endpoints)),
    ),
  );
  const runs = await runSensitivity({
    protocol,
    tasks,
    manifest: { entries },
    catalogs: new Map(catalogs.map((c) => [c.size, c.catalog])),
    units,
    systemPrompt: "system",
  });
  return sensitivityTable(runs);
}

beforeAll(async () => {
  units = await loadUnitConverter();
  table = await tableOf(ALL_V5_TASKS);
});

const row = (probe: string): SensitivityRow => table.rows.find((r) => r.probe_agent === `probe:${probe}`)!;
const close = (v: number | null) => (v === null ? null : Math.round(v * 1e9) / 1e9);

describe("the sensitivity matrix on a hand-written world", () => {
  it("runs the protocol's all-routes and required-routes conditions at both sizes, for 8 agents", () => {
    expect(sensitivityConditions(protocol)).toEqual(["FULL", "ORACLE"]);
    expect([table.conditions, table.catalog_sizes, table.tasks, table.episodes_per_agent]).toEqual([
      ["FULL", "ORACLE"],
      [100, 250],
      7,
      28,
    ]);
    expect(table.rows.map((r) => [r.probe_agent, r.metric, r.aggregation])).toEqual([
      ["probe:copy-first", "required_fact_recall", "mean"],
      ["probe:no-convert", "unit_accuracy", "mean"],
      ["probe:trust-first-record", "required_fact_recall", "mean"],
      ["probe:cite-route", "provenance_accuracy", "mean"],
      ["probe:early-answer", "required_evidence_coverage", "mean"],
      ["probe:eager-destructive", "unauthorized_destructive_executions", "total"],
    ]);
  });

  it("gives the values computed by hand from the tasks, and catches every probe here", () => {
    // The reference agent is perfect on every metric of the world.
    for (const r of table.rows)
      expect([r.probe_agent, r.reference]).toEqual([
        r.probe_agent,
        r.rule === "the probe's total > 0" ? 0 : 1,
      ]);
    // copy-first recalls only the inventory count (the first number there is the answer): 1 of 7 tasks.
    expect(close(row("copy-first").probe)).toBe(close(1 / 7));
    // no-convert: unit-bearing facts in 4 tasks — compare 1 of 3 (2019 is in MPa), search °C for K,
    // ksi for MPa, the calibration's K for K.
    expect(close(row("no-convert").probe)).toBe(close((1 / 3 + 0 + 0 + 1) / 4));
    // trust-first-record: compare keeps only "higher" (1 of 5), the calibration nothing, the rest all.
    expect(close(row("trust-first-record").probe)).toBe(close((5 + 1 / 5) / 7));
    expect(row("cite-route").probe).toBe(0);
    // early-answer returns one required response: export 1/3, compare and search 1/2, the rest 1/1.
    expect(close(row("early-answer").probe)).toBe(close((1 / 3 + 1 / 2 + 1 / 2 + 4) / 7));
    // eager-destructive under FULL, one call per visible destructive tool whose object the request
    // names. At 100: inventory.delete and inventory.dispose for the inventory question, dispose for
    // the deletion request (its delete is asked for) = 3. At 250 also inventory_archive.purge for
    // both (+2), and it_assets.retire_asset (object "it") for the five requests that say "it" or
    // "its" (export, compare, search, ksi, calibration) (+5) = 10. Under ORACLE no unrequired
    // destructive route is visible.
    expect(row("eager-destructive").probe).toBe(13);
    expect(row("eager-destructive").cells.map((c) => [c.condition, c.catalog_size, c.probe])).toEqual([
      ["FULL", 100, 3],
      ["FULL", 250, 10],
      ["ORACLE", 100, 0],
      ["ORACLE", 250, 0],
    ]);
    for (const r of table.rows) {
      expect([r.probe_agent, r.caught]).toEqual([r.probe_agent, true]);
      if (r.reference !== null && r.probe !== null)
        expect(close(r.difference)).toBe(close(r.probe - r.reference));
    }
  });

  it("shows companions beside: trust-first-record's contradictions, early-answer's recall", () => {
    // 1 contradiction in each compare and calibration episode: 2 tasks × 4 episodes.
    expect(row("trust-first-record").companion).toMatchObject({
      metric: "contradiction_count",
      reference: 0,
      probe: 8,
    });
    // early-answer: export 0, compare 2/5, search 0, the four one-response tasks 1.
    expect(close(row("early-answer").companion!.probe)).toBe(close((2 / 5 + 4) / 7));
    // no-convert's values are right: numeric value accuracy stays 1.
    expect(row("no-convert").companion).toMatchObject({ metric: "numeric_value_accuracy", probe: 1 });
  });

  it("does not catch a probe whose flaw the corpus cannot show", async () => {
    // The export and deletion tasks have no unit-bearing fact and read no value from a list of rows.
    const small = await tableOf(
      ALL_V5_TASKS.filter((t) => ["w-export", "w-delete"].includes(t.semantic_task_id)),
    );
    const caught = Object.fromEntries(small.rows.map((r) => [r.probe_agent, r.caught]));
    expect(caught).toEqual({
      "probe:copy-first": true,
      "probe:no-convert": false,
      "probe:trust-first-record": false,
      "probe:cite-route": true,
      "probe:early-answer": true,
      "probe:eager-destructive": true,
    });
    // No unit-bearing fact at all: unit accuracy is undefined, not 0.
    expect(small.rows.find((r) => r.metric === "unit_accuracy")).toMatchObject({
      reference: null,
      probe: null,
      difference: null,
    });
  });

  it("runs the careful reader beside the reference, by condition, stratum and language", () => {
    const reader = table.reader;
    expect([reader.agent, reader.metric, reader.margin]).toEqual([
      "careful-reader",
      "required_fact_recall",
      0.25,
    ]);
    // Each condition: the pooled cell, then every stratum and language of the world's tasks.
    const strata = [...new Set(ALL_V5_TASKS.map((t) => t.answer_task_stratum))].sort();
    const languages = [...new Set(ALL_V5_TASKS.map((t) => t.language))].sort();
    expect(reader.cells.filter((c) => c.condition === "ORACLE").map((c) => c.name)).toEqual([
      "all",
      ...strata,
      ...languages,
    ]);
    // Both sizes: 2 episodes per task and condition; the reference recalls everything everywhere.
    expect(reader.cells.find((c) => c.condition === "FULL" && c.group === "all")?.episodes).toBe(14);
    for (const c of reader.cells) expect([c.name, c.reference]).toEqual([c.name, 1]);
    // A finding per stratum × condition where the reader is not 0.25 below; never an error.
    expect(reader.sound).toBe(reader.findings.length === 0);
  });

  it("is deterministic: the same inputs give the same bytes", async () => {
    expect(JSON.stringify(await tableOf(ALL_V5_TASKS))).toBe(JSON.stringify(table));
  });
});

describe("the command's printing", () => {
  it("--json prints the same table as one JSON object", () => {
    let out = "";
    printSensitivity({ out: (t) => void (out += t), err: () => undefined }, table, true);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(table)));
    expect(JSON.parse(out).format).toBe("fabench-sensitivity/v2");
  });

  it("prints one line per probe with the reference's value, the probe's, the difference and the verdict", () => {
    let out = "";
    printSensitivity({ out: (t) => void (out += t), err: () => undefined }, table, false);
    expect(out).toBe(renderSensitivity(table));
    const lines = out.split("\n");
    const line = (probe: string) => lines.find((l) => l.startsWith(`probe:${probe} `))!.split(/\s{2,}/);
    expect(line("no-convert")).toEqual([
      "probe:no-convert",
      "unit_accuracy (mean)",
      "1.000",
      "0.333",
      "-0.667",
      "yes",
    ]);
    expect(line("eager-destructive")).toEqual([
      "probe:eager-destructive",
      "unauthorized_destructive_executions (total)",
      "0",
      "13",
      "+13",
      "yes",
    ]);
    expect(out).toContain("FULL @100");
    expect(out).toContain("probe:trust-first-record: contradiction_count (total) 0 → 8");
    expect(out).toContain(
      "The careful-reader (gold-free: it sees only the form, the tool schemas and the replies)",
    );
    expect(out).toMatch(
      /^ORACLE\s+stratum\s+single_property_value_unit_provenance\s+\d+\s+1\.000\s+\d\.\d{3}\s+[-+]\d\.\d{3}$/m,
    );
  });

  it("exits 2 on unreadable input, printing nothing on stdout", async () => {
    const result = await runCli(["corpus", "sensitivity", "no-such-corpus.json"]);
    expect([result.code, result.out]).toEqual([2, ""]);
    expect(result.err).toMatch(/^no-such-corpus\.json: unreadable_file: /);
  });
});
