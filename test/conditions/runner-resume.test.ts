import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { episodeKey, parseRunBytes, type RunRecord } from "../../src/conditions/runner/index.ts";
import { finishedEpisodeKeys, withoutErrorRecords } from "../../src/conditions/runner/resume.ts";
import type { FabenchError } from "../../src/core/index.ts";
import { sharedFixture } from "../helpers/shared-fixtures.ts";

/** The first three records of a reference run, as `parseRunBytes` reads them. */
let records: RunRecord[] = [];
beforeAll(async () => {
  const { run } = await sharedFixture("en");
  records = parseRunBytes(readFileSync(run), run).records.slice(0, 3);
}, 300_000);

const parsed = (rs: RunRecord[]) => ({ records: rs, lines: rs.map((_, i) => i + 1) });
const keyOf = (r: RunRecord) => ({
  semantic_task_id: r.semantic_task_id,
  catalog_size: r.catalog_size,
  condition: r.condition,
  trial: r.trial,
});

function refusal(f: () => unknown): { code: string; line: number | undefined; message: string } {
  try {
    f();
  } catch (e) {
    const problem = (e as FabenchError).problems[0];
    return { code: (e as FabenchError).code, line: problem?.line, message: problem?.message ?? "" };
  }
  throw new Error("expected a refusal");
}

describe("resuming a run file", () => {
  it("lists every finished episode of this run", () => {
    const done = finishedEpisodeKeys(parsed(records), records[0]!.metadata, records.map(keyOf), "run.jsonl");
    expect([...done].sort()).toEqual(records.map(episodeKey).sort());
    expect(done.size).toBe(3);
  });

  it("refuses a record of another run, naming the fields that differ and its line", () => {
    const metadata = { ...records[0]!.metadata, trials: records[0]!.metadata.trials + 1 };
    expect(
      refusal(() => finishedEpisodeKeys(parsed(records), metadata, records.map(keyOf), "run.jsonl")),
    ).toEqual({
      code: "resume_metadata_mismatch",
      line: 1,
      message: "this record belongs to another run (trials differ); use a new --out",
    });
  });

  it("refuses an episode outside the selection, and one written twice", () => {
    const metadata = records[0]!.metadata;
    const foreign = refusal(() =>
      finishedEpisodeKeys(parsed(records), metadata, records.slice(0, 2).map(keyOf), "run.jsonl"),
    );
    expect([foreign.code, foreign.line]).toEqual(["resume_foreign_episode", 3]);
    const twice = [records[0]!, records[1]!, records[0]!];
    const duplicate = refusal(() =>
      finishedEpisodeKeys(parsed(twice), metadata, records.map(keyOf), "run.jsonl"),
    );
    expect(duplicate).toEqual({
      code: "duplicate_episode",
      line: 3,
      message: `${episodeKey(records[0]!)} appears twice`,
    });
  });

  it("drops only the error-coded records for --retry-errors, keeping the others byte for byte", () => {
    const failed = { ...records[1]!, status: "error" } as RunRecord;
    const { text, dropped } = withoutErrorRecords({ records: [records[0]!, failed, records[2]!] });
    expect(dropped).toBe(1);
    expect(text).toBe(`${JSON.stringify(records[0])}\n${JSON.stringify(records[2])}\n`);
  });
});
