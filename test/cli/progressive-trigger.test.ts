/**
 * `fabench run --progressive-trigger gold`: the origin harness's gold-based widening, kept as a
 * labelled variant. The run records it in its metadata, its episodes are told TASK_INCOMPLETE, and
 * `score` and `gate` label it and give it no verdict. A default run records nothing new and no
 * episode of it is told anything computed from the gold. Reference runs of four English tasks.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarySchema, type Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const LABEL = "gold-triggered widening (origin harness, not deployable)";
const RUN = ["run", "--agent", "reference", "--task", "v4-*-en-01", "--condition", "FULL,SR-PROGRESSIVE"];

interface Row {
  readonly metadata: Record<string, unknown>;
  readonly turns: ReadonlyArray<{ readonly event: string }>;
}
const rows = (path: string): Row[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Row);
const events = (records: Row[]) => new Set(records.flatMap((r) => r.turns.map((t) => t.event)));

describe("fabench run --progressive-trigger", () => {
  const temp = useTempDir();

  it("records gold in the metadata, and score and gate label the run and give it no verdict", async () => {
    const out = join(temp(), "gold.jsonl");
    expect((await runCli([...RUN, "--progressive-trigger", "gold", "--out", out])).code).toBe(0);
    const records = rows(out);
    expect(records.every((r) => r.metadata["progressive_trigger"] === "gold")).toBe(true);
    expect(events(records).has("incomplete_widened")).toBe(true);
    const summaryPath = join(temp(), "gold.summary.json");
    const scored = await runCli(["score", out, "--out", summaryPath, "--allow-incomplete"]);
    expect(scored.code).toBe(0);
    expect(scored.out).toContain(`gate: NOT_GATED: ${LABEL}`);
    const summary = JSON.parse(readFileSync(summaryPath, "utf8")) as Summary;
    expect(summarySchema.safeParse(summary).success).toBe(true);
    expect([summary.gate.status, summary.gate.not_gated, summary.run.progressive_trigger]).toEqual([
      "NOT_GATED",
      LABEL,
      "gold",
    ]);
    const gate = await runCli(["gate", summaryPath]);
    expect(gate.code).toBe(3);
    expect(gate.out).toContain(`verdict: NOT_GATED: ${LABEL} — no verdict`);
  }, 120_000);

  it("widens by default only on requests, and records nothing new", async () => {
    const out = join(temp(), "observable.jsonl");
    expect((await runCli([...RUN, "--out", out])).code).toBe(0);
    const records = rows(out);
    expect(records.some((r) => "progressive_trigger" in r.metadata)).toBe(false);
    expect(events(records)).toEqual(new Set(["tool_call", "more_tools_shown", "final_answer"]));
  }, 120_000);

  it("refuses a trigger it does not know", async () => {
    const refused = await runCli([
      ...RUN,
      "--progressive-trigger",
      "oracle",
      "--out",
      join(temp(), "x.jsonl"),
    ]);
    expect(refused.code).toBe(2);
  });
});
