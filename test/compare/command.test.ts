/**
 * `fabench compare` through the CLI on a real summary (the shared English reference run): the
 * same bootstrap as the summary's (A's per-size levels are the summary's own intervals, to the
 * bit), identical inputs giving 0 with [0, 0], the refusals (exit 2, one line per difference,
 * nothing written), the HTML page, and the condition manifests matched by hash.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020.js";
import { compareJsonSchema, comparisonSchema, type Comparison } from "../../src/compare/index.ts";
import { canonicalSha256, formatJsonFile } from "../../src/core/index.ts";
import type { Summary } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { sharedFixture } from "../helpers/shared-fixtures.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const MANIFEST = "manifests/condition-manifest.json";

describe("fabench compare", () => {
  const dir = useSuiteTempDir();
  let a: string;
  let b: string;
  let summary: Summary;

  beforeAll(async () => {
    const fixture = await sharedFixture("en");
    a = fixture.summary;
    summary = JSON.parse(readFileSync(a, "utf8")) as Summary;
    b = join(dir(), "b.summary.json");
    writeFileSync(b, readFileSync(a));
  });

  it("compares a summary with itself: every Δ 0 in [0, 0], A's levels the summary's own intervals", async () => {
    const result = await runCli(["compare", a, b, "--json"]);
    expect([result.code, result.err]).toEqual([0, ""]);
    const c = JSON.parse(result.out) as Comparison;
    // What --json prints is the comparison's own schema, strictly, and the published JSON Schema
    // (generated from it) accepts it.
    expect(comparisonSchema.safeParse(c).success).toBe(true);
    const published = readFileSync("schemas/compare.schema.json", "utf8");
    expect(published).toBe(formatJsonFile(compareJsonSchema()));
    expect(new Ajv2020.default({ strict: false }).compile(JSON.parse(published))(c)).toBe(true);
    expect(c.pairing).toMatchObject({ paired: summary.episodes, only_in_a: 0, only_in_b: 0 });
    expect(c.bootstrap).toMatchObject({ iterations: 10000, rng: "seedrandom", gate_interval: "skew_t" });
    for (const t of c.tables)
      for (const r of t.rows)
        expect(r.delta).toEqual({ point: 0, low: 0, high: 0, gate_low: 0, gate_high: 0 });
    // The same paired stratified task-cluster bootstrap as `score`: at one catalog size, A's level
    // is exactly the summary's level interval (same tasks, strata, seed, draws).
    for (const t of c.tables.filter((x) => x.selection !== "pooled"))
      for (const r of t.rows.filter((x) => summary.bootstrap.metrics.includes(x.metric))) {
        const own = summary.bootstrap.intervals[`${t.selection}|${t.condition}|${r.metric}|level`];
        expect([t.selection, t.condition, r.metric, r.a]).toEqual([
          t.selection,
          t.condition,
          r.metric,
          {
            point: own?.point,
            low: own?.low,
            high: own?.high,
            gate_low: own?.calibrated?.skew_t.low,
            gate_high: own?.calibrated?.skew_t.high,
          },
        ]);
      }
  });

  it("prints a table per condition with B − A and its intervals, and writes the HTML page", async () => {
    const page = join(dir(), "compare.html");
    const result = await runCli(["compare", a, b, "--out", page, "--manifest", MANIFEST]);
    expect([result.code, result.err]).toEqual([0, ""]);
    for (const condition of ["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"])
      expect(result.out).toContain(`\n${condition} — pooled over catalog sizes 100, 250\n`);
    expect(result.out).toContain(`wrote ${page}`);
    // One manifest, the one both runs were made with: the same ranks on both sides.
    expect(result.out).toMatch(
      /catalog 100: \d+ required routes; mean rank A ([\d.]+), B \1; B ranks 0 higher than A, 0 lower/,
    );
    const html = readFileSync(page, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("Routers' ranks of the required routes");
  });

  it("refuses two corpora with compare_corpus_differs (exit 2), one line per difference, writing nothing", async () => {
    const other = JSON.parse(readFileSync(a, "utf8")) as Summary;
    const edited = {
      ...other,
      run: { ...other.run, corpus_tasks_sha256: "0".repeat(64), plan_slots_sha256: "1".repeat(64) },
    };
    const path = join(dir(), "other-corpus.summary.json");
    writeFileSync(path, JSON.stringify(edited));
    const page = join(dir(), "refused.html");
    const result = await runCli(["compare", a, path, "--out", page]);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^${path}: compare_plan_differs: plan \\(slots sha256\\) differs`)),
      expect.stringMatching(
        new RegExp(`^${path}: compare_corpus_differs: corpus \\(tasks sha256\\) differs`),
      ),
    ]);
    expect(existsSync(page)).toBe(false);
  });

  it("refuses a manifest that is neither run's, and an output that is an input", async () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, unknown> & {
      router: { id: string };
      manifest_sha256: string;
    };
    const { manifest_sha256: _, ...body } = { ...manifest, router: { ...manifest.router, id: "elsewhere" } };
    const path = join(dir(), "other-manifest.json");
    writeFileSync(path, JSON.stringify({ ...body, manifest_sha256: canonicalSha256(body) }));
    const refused = await runCli(["compare", a, b, "--manifest", MANIFEST, "--manifest", path]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(new RegExp(`^${path}: compare_manifest_not_in_summaries: `));
    const size = await runCli(["compare", a, b, "--catalog-size", "7"]);
    expect([size.code, size.err]).toEqual([
      2,
      "unknown_catalog_size: --catalog-size 7: the runs have catalog sizes 100, 250\n",
    ]);
    const overwrite = await runCli(["compare", a, b, "--out", b]);
    expect(overwrite.code).toBe(2);
    expect(overwrite.err).toMatch(/output_is_input/);
  });
});
