import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  buildPlan,
  IDENTITY_ERROR_CODES,
  parseCorpusText,
  validateIdentity,
  type IdentityReport,
} from "../../src/authoring/index.ts";
import { FabenchError } from "../../src/core/index.ts";
import { toJsonl, validRows, type Row } from "../helpers/corpus.ts";
import { bundledProtocol, smallProtocol } from "../helpers/protocol.ts";
import { HAS_PYTHON3 } from "../helpers/python.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const plan = buildPlan(smallProtocol(["alpha", "beta"], ["en", "ko"], 2));
const full = buildPlan(bundledProtocol());

function check(rows: readonly unknown[]): IdentityReport {
  return validateIdentity(parseCorpusText(toJsonl(rows), "c.jsonl").rows, plan);
}

function codes(report: IdentityReport): string[] {
  return report.errors.map((e) => e.code);
}

describe("validateIdentity", () => {
  it("accepts a corpus that fills every slot once and hashes it", () => {
    const report = check(validRows(plan));
    expect(report).toMatchObject({
      ok: true,
      row_count: 8,
      authoring_slot_count: 8,
      normalized_query_count: 8,
      errors: [],
    });
    expect(report.identity_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.query_content_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives the same hashes whatever the row order and extra content fields", () => {
    const rows = validRows(plan);
    const shuffled = [...rows].reverse().map((r) => ({ ...r, required_routes: ["x.y"] }));
    const a = check(rows);
    const b = check(shuffled);
    expect([b.identity_sha256, b.query_content_sha256]).toEqual([a.identity_sha256, a.query_content_sha256]);
  });

  it("reports invalid_row for a non-object row and for a field of the wrong type", () => {
    const rows: unknown[] = validRows(plan);
    rows[0] = ["not", "an", "object"];
    (rows[1] as Row).query = 42;
    (rows[2] as Row).language = undefined;
    const report = check(rows);
    expect(codes(report).filter((c) => c === "invalid_row")).toHaveLength(3);
    expect(report.errors.find((e) => e.message.includes("query"))?.semantic_task_id).toBe(
      plan.slots[1]?.semantic_task_id,
    );
  });

  it("reports a missing id, and an id that is not a string", () => {
    const rows = validRows(plan);
    delete rows[0]!.semantic_task_id;
    rows[1]!.semantic_task_id = 7;
    const report = check(rows);
    expect(codes(report)).toContain("missing_semantic_task_id");
    expect(report.errors.find((e) => e.location === "line 2")?.code).toBe("invalid_row");
  });

  it("reports a duplicate id with where it first appeared, and the slot left empty", () => {
    const rows = validRows(plan);
    rows[1] = { ...rows[0]!, query: "different wording" };
    const report = check(rows);
    expect(codes(report).sort()).toEqual(["duplicate_semantic_task_id", "missing_slot"]);
    expect(report.errors[0]?.message).toContain("line 1");
    expect(report.errors[1]).toMatchObject({
      semantic_task_id: plan.slots[1]?.semantic_task_id,
      location: "plan slots[1]",
    });
  });

  it("reports an unknown id and the row-count mismatch it causes", () => {
    const rows = [
      ...validRows(plan),
      { semantic_task_id: "v4-alpha-en-09", answer_task_stratum: "alpha", language: "en", query: "extra" },
    ];
    expect(codes(check(rows))).toEqual(["unknown_semantic_task_id", "row_count_mismatch"]);
  });

  it("reports stratum and language drift on the same row", () => {
    const rows = validRows(plan);
    rows[0] = { ...rows[0]!, answer_task_stratum: "beta", language: "ko" };
    expect(codes(check(rows))).toEqual(["stratum_drift", "language_drift"]);
  });

  it("reports a query that is empty after normalisation", () => {
    const rows = validRows(plan);
    rows[3]!.query = " \u3000\u0085\t";
    expect(codes(check(rows))).toEqual(["empty_query"]);
  });

  it("reports queries that normalise to the same text, naming both ids", () => {
    const rows = validRows(plan);
    rows[0]!.query = "Wie groß ist die STRASSE?";
    rows[5]!.query = "  wie  GROSS ist die straße? ";
    const report = check(rows);
    expect(codes(report)).toEqual(["duplicate_normalized_query"]);
    expect(report.errors[0]?.message).toContain(String(rows[0]!.semantic_task_id));
    expect(report.errors[0]?.message).toContain(String(rows[5]!.semantic_task_id));
    expect(report.normalized_query_count).toBe(7);
  });

  it("reports every problem in one pass, and no hashes unless ok", () => {
    const rows: unknown[] = validRows(plan);
    rows[0] = 5;
    (rows[1] as Row).language = "xx";
    (rows[2] as Row).query = "";
    const report = check(rows);
    expect(codes(report)).toEqual(["invalid_row", "language_drift", "empty_query", "missing_slot"]);
    expect([report.identity_sha256, report.query_content_sha256]).toEqual([null, null]);
  });

  it("has a test above for every error code it defines", () => {
    // Keeps the list and the tests in step: a new code needs a new test here.
    expect([...IDENTITY_ERROR_CODES].sort()).toEqual([
      "duplicate_normalized_query",
      "duplicate_semantic_task_id",
      "empty_query",
      "invalid_row",
      "language_drift",
      "missing_semantic_task_id",
      "missing_slot",
      "row_count_mismatch",
      "stratum_drift",
      "unknown_semantic_task_id",
    ]);
  });
});

describe("corpus formats", () => {
  const rows = validRows(plan);
  const expected = check(rows);

  it.each([
    ["a JSON array", "c.json", JSON.stringify(rows, null, 2)],
    ["an object with tasks", "c.json", JSON.stringify({ meta: 1, tasks: rows }, null, 2)],
    ["an object with rows", "c.json", JSON.stringify({ rows })],
    ["JSON Lines", "c.jsonl", toJsonl(rows)],
    ["JSON Lines without the extension", "c.txt", toJsonl(rows)],
  ])("reads %s to the same hashes", (_label, file, text) => {
    const report = validateIdentity(parseCorpusText(text, file).rows, plan);
    expect(report.identity_sha256).toBe(expected.identity_sha256);
    expect(report.query_content_sha256).toBe(expected.query_content_sha256);
  });

  it("gives JSON rows an index location and the line they start on", () => {
    const text = JSON.stringify(rows, null, 2);
    const parsed = parseCorpusText(text, "c.json").rows;
    expect(parsed[2]?.location).toBe("index 2");
    expect(text.split("\n")[(parsed[2]?.line ?? 0) - 1]).toBe("  {");
    expect(parsed[2]?.line).toBe(14);
  });

  it.each([
    ["a number", "42", "not_a_corpus"],
    ["null", "null", "not_a_corpus"],
    ["an object without a task list", '{"items": []}', "no_task_list"],
    ["an object with both lists", '{"tasks": [], "rows": []}', "ambiguous_task_list"],
    ["a task list that is not a list", '{"tasks": {}}', "no_task_list"],
  ])("refuses %s as input, not as a validation failure", (_label, text, code) => {
    try {
      parseCorpusText(text, "c.json");
      throw new Error("expected an error");
    } catch (error) {
      expect(error).toBeInstanceOf(FabenchError);
      expect((error as FabenchError).kind).toBe("input");
      expect((error as FabenchError).code).toBe(code);
    }
  });
});

describe("agreement with the Python reference", () => {
  const temp = useTempDir();

  it.skipIf(!HAS_PYTHON3)(
    "hashes the bundled-size corpus exactly as scripts/python/identity_reference.py does",
    () => {
      const rows = validRows(full).map((r, i) => ({
        ...r,
        query: `[${i}] Ｍｉｘｅｄ 샘플의 Young's modulus — Straße ${i}`,
      }));
      const path = join(temp(), "corpus.jsonl");
      writeFileSync(path, toJsonl(rows));
      const python = spawnSync("python3", ["scripts/python/identity_reference.py", path], {
        encoding: "utf8",
      });
      expect(python.status).toBe(0);
      const reference = JSON.parse(python.stdout) as {
        identity_sha256: string;
        query_content_sha256: string;
      };
      const ours = validateIdentity(parseCorpusText(toJsonl(rows), path).rows, full);
      expect(ours.ok).toBe(true);
      expect({
        identity_sha256: ours.identity_sha256,
        query_content_sha256: ours.query_content_sha256,
      }).toEqual({
        identity_sha256: reference.identity_sha256,
        query_content_sha256: reference.query_content_sha256,
      });
    },
  );
});
