import { createHash } from "node:crypto";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const FROZEN = [
  "manifests/preregistration.json",
  "manifests/authoring-plan.json",
  "manifests/condition-manifest.json",
  "tasks/final-answer-corpus.json",
];

describe("no command overwrites its own inputs or a frozen file", () => {
  const temp = useSuiteTempDir();
  const frozen = new Map<string, string>();
  let run = "";
  let summary = "";

  beforeAll(async () => {
    for (const f of FROZEN) frozen.set(f, readFileSync(f, "utf8"));
    run = join(temp(), "R.jsonl");
    summary = join(temp(), "S.json");
    const tasks = "v4-single_property_value_unit_provenance-en-01";
    expect((await runCli(["run", "--agent", "reference", "--task", tasks, "--out", run])).code).toBe(0);
    expect((await runCli(["score", run, "--out", summary, "--allow-incomplete"])).code).toBe(0);
  });

  afterAll(() => {
    // Should a refusal ever break, put the frozen files back so one failure does not spread.
    for (const [f, text] of frozen) if (readFileSync(f, "utf8") !== text) writeFileSync(f, text);
  });

  it.each([
    ["score R --out R", () => ["score", run, "--out", run, "--allow-incomplete"], "output_is_input"],
    ["report S --runs R --out R", () => ["report", summary, "--runs", run, "--out", run], "output_is_input"],
    ["report S --out S", () => ["report", summary, "--out", summary], "output_is_input"],
    [
      "conditions freeze --out the corpus",
      () => ["conditions", "freeze", "--out", FROZEN[3]!],
      "output_is_input",
    ],
    ["plan generate --out the protocol", () => ["plan", "generate", "--out", FROZEN[0]!], "output_is_input"],
    ["corpus generate --out the plan", () => ["corpus", "generate", "--out", FROZEN[1]!], "output_is_input"],
    [
      "score R --out the condition manifest",
      () => ["score", run, "--out", FROZEN[2]!, "--allow-incomplete"],
      "output_is_frozen",
    ],
    ["runs merge R --out R", () => ["runs", "merge", run, "--out", run], "output_is_input"],
  ])("refuses %s with exit 2 and leaves every input byte-identical", async (_name, argv, code) => {
    // Digests, not the bytes: a deep equality over megabytes of Buffer walks them byte by byte.
    const digests = () =>
      [run, summary, ...FROZEN].map((f) => createHash("sha256").update(readFileSync(f)).digest("hex"));
    const before = digests();
    const result = await runCli(argv());
    expect(result.code).toBe(2);
    expect(result.err).toMatch(new RegExp(`^${code}: `));
    expect(result.err.trimEnd().split("\n")).toHaveLength(1);
    expect(digests()).toEqual(before);
  });

  it("sees through a symlink to an input, and refuses a folder as --out", async () => {
    const link = join(temp(), "link.jsonl");
    symlinkSync(run, link);
    const result = await runCli(["score", run, "--out", link, "--allow-incomplete"]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      `output_is_input: --out ${link} is the input ${run}; writing it would destroy it — choose another path\n`,
    );
    const folder = await runCli(["score", run, "--out", temp(), "--allow-incomplete"]);
    expect(folder.code).toBe(2);
    expect(folder.err).toBe(`output_is_folder: --out ${temp()} is a folder; give a file path\n`);
  });
});
