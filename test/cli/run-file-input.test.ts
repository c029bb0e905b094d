/**
 * Issue #25 items 4 and 6: run files read as carefully as every other input. Invalid UTF-8 is
 * `invalid_utf8` at its line (exit 2), not decoded lossily and scored; a byte-order mark is
 * dropped, as `gate` drops it; a last line that only lacks its newline is a record, not a "torn
 * last line" (which is said only of a real one), and `run --resume` continues after it on a line
 * of its own; `runs merge` with a shard missing counts the episodes really missing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

/** 6 tasks × 1 catalog size × 2 conditions: 12 episodes. */
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-PROGRESSIVE"];
const RUN = ["run", "--agent", "reference", ...SMALL];
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe("score reads run files strictly", () => {
  const folder = useSuiteTempDir();
  const file = (name: string) => join(folder(), name);
  let original: Buffer;
  let summary: Record<string, unknown>;
  const score = (run: string) =>
    runCli(["score", run, "--out", `${run}.summary.json`, "--allow-incomplete", "--json"]);
  const scored = (run: string) =>
    JSON.parse(readFileSync(`${run}.summary.json`, "utf8")) as Record<string, unknown>;
  beforeAll(async () => {
    expect((await runCli([...RUN, "--out", file("run.jsonl")])).code).toBe(0);
    original = readFileSync(file("run.jsonl"));
    const base = await score(file("run.jsonl"));
    expect(base.code, base.err).toBe(0);
    summary = scored(file("run.jsonl"));
    expect(summary["episodes"]).toBe(12);
  }, 120_000);

  it("refuses invalid UTF-8 with its line (exit 2) instead of scoring a lossy decoding", async () => {
    // One byte 0xFF inside the third record's final answer: still JSON once decoded lossily.
    const third = original.indexOf("\n", original.indexOf("\n") + 1) + 1;
    const at = original.indexOf('"final_text":"', third) + '"final_text":"'.length;
    writeFileSync(
      file("bad.jsonl"),
      Buffer.concat([original.subarray(0, at), Buffer.from([0xff]), original.subarray(at)]),
    );
    const result = await score(file("bad.jsonl"));
    expect([result.code, result.out]).toEqual([2, ""]);
    expect(result.err).toBe(`${file("bad.jsonl")}:3: invalid_utf8: not valid UTF-8 (byte ${at})\n`);
  });

  it("drops a byte-order mark, as gate does: the same scores", async () => {
    writeFileSync(file("bom.jsonl"), Buffer.concat([BOM, original]));
    const result = await score(file("bom.jsonl"));
    expect([result.code, result.err]).toEqual([0, ""]);
    const withBom = scored(file("bom.jsonl"));
    for (const field of ["episodes", "aggregates", "bootstrap", "episode_scores"])
      expect(withBom[field], field).toEqual(summary[field]);
  });

  it("reads a last record that only lacks its newline, and calls only a real torn line torn", async () => {
    writeFileSync(file("unterminated.jsonl"), original.subarray(0, original.length - 1));
    const whole = await score(file("unterminated.jsonl"));
    expect([whole.code, whole.err]).toEqual([0, ""]);
    expect(scored(file("unterminated.jsonl"))["episode_scores"]).toEqual(summary["episode_scores"]);

    writeFileSync(file("torn.jsonl"), original.subarray(0, original.length - 40));
    const torn = await score(file("torn.jsonl"));
    expect(torn.code).toBe(0);
    const lastLine = original.length - 1 - (original.lastIndexOf("\n", original.length - 2) + 1);
    expect(torn.err).toBe(
      `${file("torn.jsonl")}: ignoring a torn last line (${lastLine - 39} bytes, not a complete record); resume that run to finish it\n`,
    );
    expect(scored(file("torn.jsonl"))["episodes"]).toBe(11);
  });

  it("lets run --resume continue after a last record without its newline, on a line of its own", async () => {
    const five = original.subarray(0, nthNewline(original, 5)); // 5 records, the last one unterminated
    writeFileSync(file("resume.jsonl"), five);
    const resumed = await runCli([...RUN, "--out", file("resume.jsonl"), "--resume", "--json"]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).not.toContain("torn");
    expect(JSON.parse(resumed.out)).toMatchObject({ skipped: 5, written: 7 });
    const lines = readFileSync(file("resume.jsonl"), "utf8").split("\n");
    expect(lines).toHaveLength(13);
    expect(lines.slice(0, 12).every((l) => JSON.parse(l) !== null)).toBe(true);
    expect(readFileSync(file("resume.jsonl")).subarray(0, five.length).equals(five)).toBe(true);
  });
});

describe("runs merge with a shard missing", () => {
  const folder = useSuiteTempDir();
  const file = (name: string) => join(folder(), name);
  beforeAll(async () => {
    for (const shard of ["1/2", "2/2"])
      expect((await runCli([...RUN, "--shard", shard, "--out", file(`${shard[0]}.jsonl`)])).code).toBe(0);
  }, 120_000);

  it("counts the missing shard's episodes, not one line for them", async () => {
    const records = (path: string) => readFileSync(path, "utf8").trim().split("\n").length;
    const absent = records(file("2.jsonl"));
    expect(records(file("1.jsonl")) + absent).toBe(12);
    const refused = await runCli(["runs", "merge", file("1.jsonl"), "--out", file("m.jsonl")]);
    expect(refused.code).toBe(1);
    expect(refused.err.trimEnd().split("\n").at(-1)).toBe(
      `${file("m.jsonl")}: not written: ${absent} episode(s) missing; add --allow-incomplete to write anyway`,
    );
    const tasks = new Set(
      readFileSync(file("2.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { semantic_task_id: string }).semantic_task_id),
    ).size;
    expect(refused.err).toContain(
      `(a shard is missing?): the other ${tasks} task(s) have ${absent} episode(s)`,
    );
    const allowed = await runCli([
      "runs",
      "merge",
      file("1.jsonl"),
      "--out",
      file("m.jsonl"),
      "--allow-incomplete",
      "--json",
    ]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.out)).toMatchObject({ complete: false, missing: absent });
  });
});

/** The offset just before the n-th newline (1-based). */
function nthNewline(bytes: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = bytes.indexOf("\n", at + 1);
  return at;
}
