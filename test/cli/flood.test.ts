/**
 * Problem floods are capped: a garbage input gets one line saying what it is not, a file with many
 * bad lines gets 50 of them and one line counting the rest, and JSON keeps at most 10,000.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/authoring/index.ts";
import { runCli } from "../helpers/cli.ts";
import { toJsonl } from "../helpers/corpus.ts";
import { bundledProtocol } from "../helpers/protocol.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** Deterministic lines of printable garbage (xorshift), 16 characters each, about `size` bytes in all. */
function garbageLines(size: number): string {
  const lines: string[] = [];
  let x = 0x9e3779b9;
  for (let bytes = 0; bytes < size; bytes += 17) {
    let line = "";
    for (let i = 0; i < 16; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      line += String.fromCharCode(0x21 + ((x >>> 0) % 90));
    }
    lines.push(line);
  }
  return `${lines.join("\n")}\n`;
}

function outputLines(run: { out: string; err: string }): string[] {
  return `${run.out}${run.err}`.split("\n").filter((l) => l !== "");
}

describe("run files that flood problems", () => {
  const temp = useTempDir();

  it("reports 10 MB of garbage as not a run file, in one line, exit 2", { timeout: 120_000 }, async () => {
    const path = join(temp(), "garbage.jsonl");
    writeFileSync(path, garbageLines(10 * 1024 * 1024));
    const run = await runCli(["score", path, "--out", join(temp(), "s.json")]);
    expect(run.code).toBe(2);
    const lines = outputLines(run);
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(lines).toEqual([
      `${path}: not_a_run_file: not a fabench run file: none of its first 1,000 lines is a run record`,
    ]);
  });

  it("lists 50 bad lines after good ones, then one line counting the other 70", {
    timeout: 120_000,
  }, async () => {
    const good = join(temp(), "good.jsonl");
    const made = await runCli([
      "run",
      "--agent",
      "reference",
      "--task",
      "v4-*-en-01",
      "--trials",
      "1",
      "--out",
      good,
    ]);
    expect(made.code).toBe(0);
    const records = readFileSync(good, "utf8");
    const goodLines = records.trim().split("\n").length;
    const bad = Array.from({ length: 120 }, (_, i) => `bad line ${i + 1}`).join("\n");
    const path = join(temp(), "mixed.jsonl");
    writeFileSync(path, `${records}${bad}\n`);
    const run = await runCli(["score", path, "--out", join(temp(), "s.json")]);
    expect(run.code).toBe(2);
    const lines = outputLines(run);
    expect(lines).toHaveLength(51);
    expect(lines[0]).toBe(`${path}:${goodLines + 1}: invalid_run_record: not valid JSON`);
    expect(lines[49]).toBe(`${path}:${goodLines + 50}: invalid_run_record: not valid JSON`);
    expect(lines[50]).toBe("… and 70 more: invalid_run_record ×70");
  });

  it("keeps one problem per line for broken run records, and names another kind of file in one line", async () => {
    const path = join(temp(), "broken-records.jsonl");
    const broken = '{"metadata":{"format":"fabench-run-record/v1"}}\n';
    writeFileSync(path, broken + broken);
    const run = await runCli(["score", path, "--out", join(temp(), "s.json")]);
    expect(run.code).toBe(2);
    const lines = outputLines(run);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${path}:1: invalid_run_record: `));
    expect(lines[1]).toMatch(new RegExp(`^${path}:2: invalid_run_record: `));
    const summaries = join(temp(), "summary-lines.jsonl");
    writeFileSync(summaries, '{"format":"fabench-summary/v4"}\n'.repeat(5_000));
    const other = await runCli(["score", summaries, "--out", join(temp(), "s.json")]);
    expect(other.code).toBe(2);
    expect(outputLines(other)).toEqual([
      `${summaries}: wrong_file_kind: this is a fabench summary (fabench-summary/v4), not a fabench run file (fabench-run-record/v1) — did you mean \`fabench gate\` or \`fabench report\`?`,
    ]);
  });

  it("reports a short file with no run record in one line", async () => {
    const path = join(temp(), "short.jsonl");
    writeFileSync(path, "hello\n[1, 2]\n\n3\n");
    const run = await runCli(["score", path, "--out", join(temp(), "s.json")]);
    expect(run.code).toBe(2);
    expect(outputLines(run)).toEqual([
      `${path}: not_a_run_file: not a fabench run file: none of its 3 lines is a run record`,
    ]);
  });
});

describe("corpora that flood problems", () => {
  const temp = useTempDir();
  const plan = buildPlan(bundledProtocol());

  /** 10,200 rows whose ids are not in the plan: 10,200 unknown ids, 144 missing slots, one count mismatch. */
  function floodCorpus(): string {
    const rows = Array.from({ length: 10_200 }, (_, i) => ({
      semantic_task_id: `nope-${i}`,
      answer_task_stratum: "single_property_value_unit_provenance",
      language: "en",
      query: `query ${i}`,
    }));
    const path = join(temp(), "flood.jsonl");
    writeFileSync(path, toJsonl(rows));
    return path;
  }

  it("keeps 10,000 problems in --json and says the list was cut", { timeout: 120_000 }, async () => {
    expect(plan.slots).toHaveLength(144);
    const run = await runCli(["corpus", "validate", floodCorpus(), "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out) as {
      ok: boolean;
      errors: Array<{ code: string; location: string }>;
      truncated?: boolean;
      error_count?: number;
    };
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(10_000);
    expect(report.errors[0]).toMatchObject({ code: "unknown_semantic_task_id", location: "line 1" });
    expect(report.truncated).toBe(true);
    expect(report.error_count).toBe(10_200 + 144 + 1);
  });

  it("prints 50 problems of the one bad input and one line counting the rest", {
    timeout: 120_000,
  }, async () => {
    const corpus = floodCorpus();
    const run = await runCli(["corpus", "validate", corpus]);
    expect(run.code).toBe(1);
    const lines = outputLines(run);
    // 50 lines, one counting the rest (the plan's slots the corpus misses are the corpus's
    // problems too, #25 item 4: not 50 more under the plan's name), and the closing count.
    expect(lines).toHaveLength(52);
    expect(lines[0]).toMatch(new RegExp(`^${corpus}:1: unknown_semantic_task_id: `));
    expect(lines[50]).toBe(
      "… and 10,295 more: unknown_semantic_task_id ×10,150, missing_slot ×144, row_count_mismatch ×1",
    );
    expect(lines[51]).toBe(`${corpus}: 10345 identity problem(s) in 10200 rows`);
  });

  it("reports a JSONL corpus of garbage as not a corpus file, in one line", {
    timeout: 120_000,
  }, async () => {
    const path = join(temp(), "garbage.jsonl");
    writeFileSync(path, garbageLines(2 * 1024 * 1024));
    const run = await runCli(["corpus", "validate", path]);
    expect(run.code).toBe(2);
    expect(outputLines(run)).toEqual([
      `${path}: not_a_corpus_file: not a fabench corpus file: none of its first 1,000 lines is a corpus row`,
    ]);
  });
});
