import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalSha256 } from "../../src/core/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { key, read, type Rec } from "../helpers/run-records.ts";

const SUBSET = ["--agent", "reference", "--task", "v4-single*", "--trials", "3"];

/** What must not depend on interruptions, shards or timing. */
const stable = (records: Rec[]) =>
  records
    .map(({ timings: _t, shard: _s, ...rest }) => rest)
    .sort((a, b) => (key(a as Rec) < key(b as Rec) ? -1 : 1));

describe("fabench run", () => {
  const temp = useTempDir();

  it("writes one record per episode with its provenance", async () => {
    const out = join(temp(), "run.jsonl");
    const result = await runCli(["run", ...SUBSET, "--out", out, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ planned: 720, written: 720, skipped: 0, errors: 0 });
    const records = read(out);
    expect(new Set(records.map(key)).size).toBe(720);
    expect(records[0]!.metadata).toMatchObject({
      agent: "reference",
      tokenizer: "gpt-tokenizer@4.0.0/o200k_base",
      trials: 3,
      max_turns: 10,
    });
  });

  it("refuses an existing output without --resume, and an output that is an input", async () => {
    const out = join(temp(), "run.jsonl");
    writeFileSync(out, "");
    expect((await runCli(["run", ...SUBSET, "--out", out])).err).toContain("output_exists");
    const asInput = await runCli(["run", ...SUBSET, "--out", "tasks/final-answer-corpus.json"]);
    expect([asInput.code, asInput.err.includes("output_is_input")]).toEqual([2, true]);
  });

  it("refuses a condition manifest frozen from other inputs", async () => {
    const manifest = JSON.parse(readFileSync("manifests/condition-manifest.json", "utf8"));
    manifest.corpus_tasks_sha256 = "0".repeat(64);
    const { manifest_sha256: _old, ...body } = manifest;
    manifest.manifest_sha256 = canonicalSha256(body);
    const path = join(temp(), "manifest.json");
    writeFileSync(path, JSON.stringify(manifest));
    const result = await runCli(["run", ...SUBSET, "--manifest", path, "--out", join(temp(), "r.jsonl")]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("condition_manifest_mismatch");
    expect(existsSync(join(temp(), "r.jsonl"))).toBe(false);
  });

  it("refuses to resume a file written by a different run", async () => {
    const out = join(temp(), "run.jsonl");
    await runCli(["run", ...SUBSET, "--out", out, "--condition", "FULL"]);
    const result = await runCli([
      "run",
      ...SUBSET,
      "--out",
      out,
      "--condition",
      "FULL",
      "--trials",
      "2",
      "--resume",
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("resume_metadata_mismatch");
    expect(result.err).toContain("trials");
  });

  it("drops a torn last line on --resume and finishes without duplicates", async () => {
    const full = join(temp(), "full.jsonl");
    await runCli(["run", ...SUBSET, "--out", full]);
    const out = join(temp(), "torn.jsonl");
    const lines = readFileSync(full, "utf8").split("\n");
    writeFileSync(out, `${lines.slice(0, 100).join("\n")}\n${lines[100]!.slice(0, 250)}`);
    const result = await runCli(["run", ...SUBSET, "--out", out, "--resume", "--json"]);
    expect(result.err).toContain("dropped a torn last line");
    expect(JSON.parse(result.out)).toMatchObject({ skipped: 100, written: 620 });
    expect(stable(read(out))).toEqual(stable(read(full)));
  });

  it("splits by cell into shards whose merge equals the full run", async () => {
    const full = join(temp(), "full.jsonl");
    await runCli(["run", "--agent", "reference", "--task", "v4-*-en-0?", "--out", full]);
    const shards = [1, 2, 3].map((i) => join(temp(), `shard-${i}.jsonl`));
    for (const [i, path] of shards.entries())
      expect(
        (
          await runCli([
            "run",
            "--agent",
            "reference",
            "--task",
            "v4-*-en-0?",
            "--shard",
            `${i + 1}/3`,
            "--out",
            path,
          ])
        ).code,
      ).toBe(0);
    const shardTasks = shards.map(
      (p) => new Set(read(p).map((r) => `${r.answer_task_stratum}|${r["language"]}`)),
    );
    expect(
      shardTasks.every((cells, i) =>
        shardTasks.every((other, j) => i === j || [...cells].every((c) => !other.has(c))),
      ),
    ).toBe(true);
    const merged = join(temp(), "merged.jsonl");
    expect((await runCli(["runs", "merge", ...shards, "--out", merged])).code).toBe(0);
    expect(stable(read(merged))).toEqual(stable(read(full)));
  });

  it("refuses to merge duplicates or an incomplete set", async () => {
    const a = join(temp(), "a.jsonl");
    await runCli(["run", "--agent", "reference", "--task", "v4-single*-0?", "--shard", "1/2", "--out", a]);
    const dup = await runCli(["runs", "merge", a, a, "--out", join(temp(), "m.jsonl")]);
    // An episode twice is bad input: exit 2, as from score and judge run.
    expect([dup.code, dup.err.includes("duplicate_episode")]).toEqual([2, true]);
    const incomplete = await runCli(["runs", "merge", a, "--out", join(temp(), "m.jsonl")]);
    expect([incomplete.code, incomplete.err.includes("a shard is missing")]).toEqual([1, true]);
    expect(existsSync(join(temp(), "m.jsonl"))).toBe(false);
  });
});

describe("fabench run interrupted with Ctrl-C", () => {
  const temp = useTempDir();

  it("finishes the episodes in flight, says how to resume, and resumes to the full set", async () => {
    const { main } = await import("../../src/cli.ts");
    const out = join(temp(), "run.jsonl");
    let interrupt: (() => void) | undefined;
    let err = "";
    const code = await main(["run", ...SUBSET, "--out", out, "--concurrency", "4"], {
      out: () => undefined,
      err: (t) => {
        err += t;
        // The first progress line arrives after the first episode: press Ctrl-C then.
        const press = interrupt;
        if (t.includes("episodes") && press) {
          interrupt = undefined;
          press();
        }
      },
      isTty: true, // a progress line per episode, so the test can press Ctrl-C early
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => undefined;
      },
    });
    expect(code).toBe(130);
    expect(err).toContain("--resume");
    const partial = read(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(720);
    expect((await runCli(["run", ...SUBSET, "--out", out, "--resume"])).code).toBe(0);
    expect(new Set(read(out).map(key)).size).toBe(720);
    expect(read(out)).toHaveLength(720);
  });
});
