/**
 * The acceptance of #34 through the CLI: `pilot init --with-search` declares the search
 * conditions, and `run --agent reference --condition SEARCH-BM25,SEARCH-REGEX` completes at both
 * catalog sizes with the same records twice (timings aside); a native search needs a model agent.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const TASKS = ["--task", "v4-*-en-01"];
const SEARCH = ["SEARCH-BM25", "SEARCH-REGEX", "NATIVE-SEARCH-BM25", "NATIVE-SEARCH-REGEX"];

function records(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const { timings: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}

describe("a --with-search pilot", () => {
  const temp = useSuiteTempDir();
  let pilot = "";

  beforeAll(async () => {
    pilot = join(temp(), "pilot");
    const init = await runCli(["pilot", "init", pilot, "--with-search"]);
    expect(init.code).toBe(0);
  }, 120_000);

  it("declares the search conditions and freezes them as one empty stage", () => {
    const protocol = JSON.parse(readFileSync(join(pilot, "preregistration.json"), "utf8"));
    expect(protocol.conditions.map((c: { id: string }) => c.id).slice(5)).toEqual(SEARCH);
    const manifest = JSON.parse(readFileSync(join(pilot, "condition-manifest.json"), "utf8"));
    expect(manifest.conditions.slice(5)).toEqual(SEARCH);
    for (const entry of manifest.entries)
      for (const id of SEARCH) expect(entry.conditions[id]).toEqual({ stages: [[]] });
  });

  it("leaves the search conditions out of the router profile (nothing is routed there)", async () => {
    const profile = await runCli([
      "conditions",
      "profile",
      "--manifest",
      join(pilot, "condition-manifest.json"),
      "--plan",
      join(pilot, "authoring-plan.json"),
      "--json",
    ]);
    expect(profile.code).toBe(0);
    const conditions = new Set(
      JSON.parse(profile.out).coverage.map((r: { condition: string }) => r.condition),
    );
    expect([...conditions]).toEqual(["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"]);
  });

  it("runs the reference under SEARCH-BM25 and SEARCH-REGEX at both sizes, the same records twice", async () => {
    const args = [
      "run",
      "--pilot",
      pilot,
      "--agent",
      "reference",
      "--condition",
      "SEARCH-BM25,SEARCH-REGEX",
      ...TASKS,
    ];
    const [a, b] = [join(temp(), "a.jsonl"), join(temp(), "b.jsonl")];
    expect((await runCli([...args, "--out", a])).code).toBe(0);
    expect((await runCli([...args, "--out", b])).code).toBe(0);
    const first = records(a);
    expect(new Set(first.map((r) => `${r["condition"]}@${r["catalog_size"]}`))).toEqual(
      new Set(["SEARCH-BM25@100", "SEARCH-BM25@250", "SEARCH-REGEX@100", "SEARCH-REGEX@250"]),
    );
    for (const r of first) {
      expect(r["status"]).toBe("completed");
      expect(r["search_count"]).toBeGreaterThanOrEqual(1);
    }
    expect(records(b)).toEqual(first);
  }, 120_000);

  it("refuses a native search condition for the reference agent (exit 2)", async () => {
    const out = join(temp(), "native.jsonl");
    const run = await runCli([
      "run",
      "--pilot",
      pilot,
      "--agent",
      "reference",
      "--condition",
      "NATIVE-SEARCH-BM25",
      ...TASKS,
      "--out",
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/native_search_needs_model/);
  });
});
