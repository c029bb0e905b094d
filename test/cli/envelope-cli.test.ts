import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.ts";
import { runCli } from "../helpers/cli.ts";
import { CORPUS_PATH } from "../helpers/bundled.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const TASK = "v4-single_property_value_unit_provenance-en-01";
// The record states 203.6 degC and the user asks for °F: 398.5 °F is the same within the task's
// 1 °F (203.6 × 9/5 + 32 = 398.48), and °F is the unit asked for.
const answer = JSON.stringify({
  answer: "398.5 °F (test record TR-1107)",
  facts: [
    { key: "heat_deflection_temperature", value: 398.5, unit: "°F", source_id: "MATDB-PS-1104-R7" },
    { key: "test_record_id", value: "TR-1107", unit: null, source_id: "MATDB-PS-1104-R7" },
  ],
  sources: ["MATDB-PS-1104-R7"],
});

describe("fabench envelope", () => {
  const temp = useTempDir();

  it("prints the envelope JSON Schema", async () => {
    const run = await runCli(["envelope", "schema"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).required).toEqual(["answer", "facts", "sources"]);
  });

  it("scores a file with --json: every metric and every fact's verdict", async () => {
    const file = join(temp(), "answer.txt");
    writeFileSync(file, answer);
    const run = await runCli(["envelope", "score", "--corpus", CORPUS_PATH, "--task", TASK, file, "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.out);
    expect(Object.keys(result)).toEqual([
      "semantic_task_id",
      "envelope_valid",
      "malformed_reason",
      "metrics",
      "facts",
    ]);
    expect(result.metrics.required_fact_recall).toBe(1);
    expect(result.facts[0]).toMatchObject({
      index: 0,
      key: "heat_deflection_temperature",
      licensed: true,
      value_ok: true,
      unit_ok: true,
      source_ok: true,
      duplicate: false,
      contradicts: false,
    });
    expect(result.facts[1]).toMatchObject({
      index: 1,
      key: "test_record_id",
      licensed: true,
      value_ok: true,
      source_ok: true,
      duplicate: false,
      contradicts: false,
    });
  });

  it("reads standard input, and scores a malformed envelope with exit 0", async () => {
    let out = "";
    const code = await main(["envelope", "score", "--corpus", CORPUS_PATH, "--task", TASK, "-"], {
      out: (t) => void (out += t),
      err: () => undefined,
      readStdin: async () => Buffer.from("I think it is about 398 °F."),
    });
    expect(code).toBe(0);
    expect(out).toContain("malformed (not_json)");
    expect(out).toMatch(/required_fact_recall\s+0/);
  });

  it("exits 2 for an unknown task or an unreadable envelope", async () => {
    expect(
      (await runCli(["envelope", "score", "--corpus", CORPUS_PATH, "--task", "v4-nope", join(temp(), "x")]))
        .code,
    ).toBe(2);
    const missing = await runCli([
      "envelope",
      "score",
      "--corpus",
      CORPUS_PATH,
      "--task",
      TASK,
      join(temp(), "missing.txt"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("unreadable_file");
  });
});
