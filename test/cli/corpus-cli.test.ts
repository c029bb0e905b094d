import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/authoring/index.ts";
import { sha256Hex } from "../../src/core/index.ts";
import { runCli } from "../helpers/cli.ts";
import { toJsonl, validRows } from "../helpers/corpus.ts";
import { bundledProtocol } from "../helpers/protocol.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const plan = buildPlan(bundledProtocol());

describe("fabench corpus validate", () => {
  const temp = useTempDir();

  function writeCorpus(rows: readonly unknown[], name = "corpus.jsonl"): string {
    const path = join(temp(), name);
    writeFileSync(path, toJsonl(rows));
    return path;
  }

  it("prints exactly the contract's keys with --json and exits 0 when ok", async () => {
    const run = await runCli(["corpus", "validate", writeCorpus(validRows(plan)), "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([
      "ok",
      "row_count",
      "authoring_slot_count",
      "normalized_query_count",
      "identity_sha256",
      "query_content_sha256",
      "errors",
    ]);
    expect(report).toMatchObject({
      ok: true,
      row_count: 144,
      authoring_slot_count: 144,
      normalized_query_count: 144,
      errors: [],
    });
  });

  it("validates the bundled example corpus", async () => {
    expect((await runCli(["corpus", "validate", "examples/identity-corpus.jsonl"])).code).toBe(0);
  });

  it("writes a freeze manifest with the plan, corpus, identity and query hashes when ok", async () => {
    const corpus = writeCorpus(validRows(plan));
    const freeze = join(temp(), "out", "freeze.json");
    const run = await runCli(["corpus", "validate", corpus, "--json", "--out", freeze]);
    const report = JSON.parse(run.out) as { identity_sha256: string; query_content_sha256: string };
    expect(JSON.parse(readFileSync(freeze, "utf8"))).toEqual({
      format: "fabench-identity-freeze/v1",
      protocol_id: plan.protocol_id,
      protocol_sha256: plan.protocol_sha256,
      plan_slots_sha256: plan.slots_sha256,
      plan_file_sha256: sha256Hex(readFileSync("manifests/authoring-plan.json")),
      corpus_file_sha256: sha256Hex(readFileSync(corpus)),
      identity_sha256: report.identity_sha256,
      query_content_sha256: report.query_content_sha256,
      row_count: 144,
      normalized_query_count: 144,
    });
  });

  it("exits 1, lists every problem as file:line: code: message, and writes no freeze manifest", async () => {
    const rows = validRows(plan);
    rows[2]!.language = "de";
    rows[7]!.query = rows[6]!.query;
    const corpus = writeCorpus(rows);
    const freeze = join(temp(), "freeze.json");
    const run = await runCli(["corpus", "validate", corpus, "--out", freeze]);
    expect(run.code).toBe(1);
    const lines = run.err.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${corpus}:3: language_drift: `));
    expect(lines[1]).toMatch(new RegExp(`^${corpus}:8: duplicate_normalized_query: `));
    expect(lines.at(-1)).toContain("nothing written");
    expect(existsSync(freeze)).toBe(false);
  });

  it("reports errors with their id and location in --json", async () => {
    const rows = validRows(plan);
    rows[0]!.answer_task_stratum = "multi_source_comparison";
    const run = await runCli(["corpus", "validate", writeCorpus(rows), "--json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out).errors).toEqual([
      {
        code: "stratum_drift",
        semantic_task_id: plan.slots[0]?.semantic_task_id,
        location: "line 1",
        message:
          "answer_task_stratum is multi_source_comparison but the plan says single_property_value_unit_provenance",
      },
    ]);
  });

  it("refuses to write the freeze manifest over an input", async () => {
    const corpus = writeCorpus(validRows(plan));
    const run = await runCli(["corpus", "validate", corpus, "--out", corpus]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("output_is_input");
  });
});
