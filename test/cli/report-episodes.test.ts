/**
 * `report` reads the corpus and the condition manifest for the episode view only if they are the
 * ones the summary was scored from: a named file with another hash is refused (exit 2, nothing
 * written), the manifest is matched by its content hash (so re-indenting it is fine), and a bundled
 * default that does not match is left out with a note.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledPath } from "../../src/core/index.ts";
import { runCli } from "../helpers/cli.ts";
import { copyFixture } from "../helpers/shared-fixtures.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

describe("report's episode view inputs", () => {
  const suite = useSuiteTempDir();
  const temp = useTempDir();
  const run = () => join(suite(), "run.jsonl");
  const summary = () => join(suite(), "run.summary.json");
  const corpus = bundledPath("tasks/final-answer-corpus.json");
  const manifest = bundledPath("manifests/condition-manifest.json");

  beforeAll(async () => {
    await copyFixture("en", suite());
  }, 120_000);

  it("opens a failing episode to its request, gold, routes and trajectory from the bundled files", async () => {
    const out = join(temp(), "r.html");
    const result = await runCli(["report", summary(), "--runs", run(), "--out", out]);
    expect(result.code).toBe(0);
    const page = readFileSync(out, "utf8");
    expect(page).toContain("<h4>Request</h4>");
    expect(page).toMatch(/<h4>Required facts: \d+ of \d+ recalled<\/h4>/);
    expect(page).toContain("The router's rank of each required route");
    expect(page).toContain("<h4>Trajectory</h4>");
    expect(page).toMatch(/fail <span class="why">\(missed \d+ of \d+ required facts?\)<\/span>/);
    expect(page).toContain(
      '<p id="run-identity">protocol <code>fabench-424-final-answer-v4</code> · router <code>keyword</code>',
    );
    expect(page).not.toContain('id="episode-notes"');
  });

  it("refuses a corpus the summary was not scored from, naming it, and writes nothing", async () => {
    const other = join(temp(), "corpus.json");
    writeFileSync(other, `${readFileSync(corpus, "utf8")}\n`);
    const out = join(temp(), "r.html");
    const result = await runCli(["report", summary(), "--corpus", other, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(other);
    expect(result.err).toContain("corpus_not_scored_in_summary");
    expect(existsSync(out)).toBe(false);
    // Markdown shows no episode view, but a corpus named for it is checked all the same.
    const md = join(temp(), "r.md");
    const markdown = await runCli(["report", summary(), "--format", "md", "--corpus", other, "--out", md]);
    expect(markdown.code).toBe(2);
    expect(markdown.err).toContain("corpus_not_scored_in_summary");
    expect(existsSync(md)).toBe(false);
  });

  it("refuses a manifest whose content differs, and takes one that is only re-indented", async () => {
    const value = JSON.parse(readFileSync(manifest, "utf8"));
    const reindented = join(temp(), "reindented.json");
    writeFileSync(reindented, JSON.stringify(value, null, 4));
    expect(
      (await runCli(["report", summary(), "--manifest", reindented, "--out", join(temp(), "a.html")])).code,
    ).toBe(0);
    const entry = value.entries[0];
    const route = Object.keys(entry.required_route_ranks)[0] as string;
    entry.required_route_ranks[route] += 1;
    const edited = join(temp(), "edited.json");
    writeFileSync(edited, JSON.stringify(value));
    const out = join(temp(), "b.html");
    const result = await runCli(["report", summary(), "--manifest", edited, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(edited);
    expect(result.err).toContain("manifest_not_scored_in_summary");
    expect(existsSync(out)).toBe(false);
  });

  it("leaves out a bundled default the summary was not scored from, and says how to give it", async () => {
    const scored = JSON.parse(readFileSync(summary(), "utf8"));
    scored.run.corpus_file_sha256 = "0".repeat(64);
    const edited = join(temp(), "edited.summary.json");
    writeFileSync(edited, JSON.stringify(scored));
    const out = join(temp(), "r.html");
    expect((await runCli(["report", edited, "--out", out])).code).toBe(0);
    const page = readFileSync(out, "utf8");
    expect(page).toContain(
      "The bundled corpus is not the one this summary was scored from, so the episodes show no request or gold facts: give --corpus FILE (or --pilot DIR).",
    );
    expect(page).not.toContain("<h4>Request</h4>");
    // The manifest still matches: the routes are shown.
    expect(page).toContain("The router's rank of each required route");
  });
});
