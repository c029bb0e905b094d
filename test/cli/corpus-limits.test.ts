/**
 * Issue #33: a corpus observation nested too deep or too large, or a row holding a lone surrogate,
 * is a coded problem on the row's line — never a crash (exit 70) in `corpus check`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_PATH } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

type Row = { executor_fixture: { responses: Array<{ observation: Record<string, unknown> }> } };

/** The bundled corpus with task `index` changed by `edit`, one task a line (task i on line i + 2). */
function corpusWith(path: string, index: number, edit: (row: Row) => void, raw?: [string, string]): string {
  const corpus = JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as { tasks: Row[] } & Record<string, unknown>;
  edit(corpus.tasks[index] as Row);
  const { tasks, ...header } = corpus;
  let text = `${JSON.stringify(header).slice(0, -1)},"tasks":[\n${tasks.map((t) => JSON.stringify(t)).join(",\n")}\n]}\n`;
  if (raw) text = text.replace(raw[0], raw[1]);
  writeFileSync(path, text);
  return path;
}

const nestedArrays = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe("fabench corpus check on hostile observations", () => {
  const temp = useTempDir();

  it("reports an observation nested deeper than 64 levels as json_too_deep on its task's line", async () => {
    const path = corpusWith(join(temp(), "deep.json"), 3, (row) => {
      (row.executor_fixture.responses[0] as { observation: Record<string, unknown> }).observation["result"] =
        {
          deep: nestedArrays(100),
        };
    });
    const run = await runCli(["corpus", "check", path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${path}:5: json_too_deep:`);
    expect(run.err).toMatch(/executor_fixture\.responses\[0\]\.observation nests deeper than 64 levels/);
  });

  it("refuses a file nested 100,000 deep unparsed: json_too_deep with its line, exit 2", async () => {
    const deep = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`;
    const path = corpusWith(
      join(temp(), "deeper.json"),
      2,
      (row) => {
        (row.executor_fixture.responses[0] as { observation: Record<string, unknown> }).observation[
          "result"
        ] = {
          deep: "@DEEP@",
        };
      },
      ['"@DEEP@"', deep],
    );
    const run = await runCli(["corpus", "check", path]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${path}:4: json_too_deep: arrays and objects nest deeper than 128 levels`);
  });

  it("reports an observation over 256 KiB as observation_too_large", async () => {
    const path = corpusWith(join(temp(), "large.json"), 0, (row) => {
      (row.executor_fixture.responses[0] as { observation: Record<string, unknown> }).observation["result"] =
        {
          blob: "x".repeat(300 * 1024),
        };
    });
    const run = await runCli(["corpus", "check", path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${path}:2: observation_too_large:`);
  });

  it("names the file and line of a lone surrogate (not_canonical_json), not only a JSON path", async () => {
    const path = corpusWith(
      join(temp(), "surrogate.json"),
      5,
      (row) => {
        (row as unknown as { query: string }).query += "@LONE@";
      },
      ["@LONE@", "\\ud800"],
    );
    const run = await runCli(["corpus", "check", path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${path}:7: not_canonical_json:`);
    expect(run.err).toContain("$.query holds a lone surrogate");
  });
});
