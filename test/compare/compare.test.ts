/**
 * `fabench compare`'s pure core on hand-made summaries: the refusal codes (one problem per
 * difference), pairing over the intersection, B − A against a hand computation, identical inputs
 * giving 0 with interval [0, 0], manifests matched by hash, and the renderings' labels and escaping.
 */
import { describe, expect, it } from "vitest";
import type { Protocol } from "../../src/authoring/index.ts";
import {
  comparabilityProblems,
  compareSummaries,
  renderComparison,
  renderComparisonHtml,
  type Comparison,
  type NamedManifest,
} from "../../src/compare/index.ts";
import type { ConditionManifest } from "../../src/conditions/routing/index.ts";
import { FabenchError } from "../../src/core/index.ts";
import type { Summary } from "../../src/summary/index.ts";
import { loadProtocol } from "../../src/world/index.ts";

const sha = (c: string) => c.repeat(64);
/** The bundled protocol with few iterations: the tests check arithmetic and wiring, not coverage. */
const bundled = loadProtocol("manifests/preregistration.json").value;
const protocol: Protocol = { ...bundled, statistics: { ...bundled.statistics, iterations: 400 } };

type Episode = Summary["episode_scores"][number];

function episode(
  task: string,
  stratum: string,
  size: number,
  condition: string,
  trial: number,
  recall: number | null,
): Episode {
  return {
    semantic_task_id: task,
    answer_task_stratum: stratum,
    language: "en",
    catalog_size: size,
    condition,
    trial,
    status: "completed",
    error_code: null,
    malformed_reason: null,
    metrics: { required_fact_recall: recall, input_tokens: 1000 * (recall ?? 0) },
    facts: [],
  };
}

/** Four tasks in two strata, FULL and SR-5 at catalog sizes 100 and 250, one trial; `recall(task, size, condition)`. */
function episodes(recall: (task: number, size: number, condition: string) => number | null): Episode[] {
  const out: Episode[] = [];
  for (let t = 0; t < 4; t++)
    for (const size of [100, 250])
      for (const condition of ["FULL", "SR-5"])
        out.push(
          episode(`v4-task-${t}`, t < 2 ? "s1" : "s2", size, condition, 1, recall(t, size, condition)),
        );
  return out;
}

function summary(over: {
  episodes: Episode[];
  manifest?: string;
  run?: Partial<Summary["run"]>;
  top?: Partial<Summary>;
}): Summary {
  return {
    protocol_id: "fabench-424-final-answer-v4",
    protocol_sha256: sha("a"),
    preregistered: true,
    complete: true,
    episodes: over.episodes.length,
    bootstrap: { rng: "seedrandom" },
    gate: {},
    run: {
      agent: "reference",
      model: null,
      agent_settings: {},
      tokenizer: "o200k",
      plan_slots_sha256: sha("b"),
      corpus_tasks_sha256: sha("c"),
      corpus_file_sha256: sha("d"),
      catalogs: [
        { size: 100, sha256: sha("e") },
        { size: 250, sha256: sha("f") },
      ],
      condition_manifest_sha256: over.manifest ?? sha("1"),
      router_id: "keyword",
      router_config_sha256: sha("2"),
      system_prompt_sha256: sha("3"),
      max_turns: 8,
      trials: 1,
      ...over.run,
    },
    episode_scores: over.episodes,
    ...over.top,
  } as unknown as Summary;
}

const named = (path: string, s: Summary) => ({ path, summary: s });

function manifest(sha256: string, ranks: Record<string, number>): ConditionManifest {
  return {
    manifest_sha256: sha256,
    entries: [
      { semantic_task_id: "v4-task-0", catalog_size: 100, required_route_ranks: ranks, conditions: {} },
    ],
  } as unknown as ConditionManifest;
}

const table = (c: Comparison, selection: string, condition: string) =>
  c.tables.find((t) => t.selection === selection && t.condition === condition);
const row = (c: Comparison, selection: string, condition: string, metric: string) =>
  table(c, selection, condition)?.rows.find((r) => r.metric === metric);

function refusal(fn: () => unknown): FabenchError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FabenchError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("compare: what may be compared", () => {
  const base = summary({ episodes: episodes(() => 1) });

  it("refuses two corpora with compare_corpus_differs, naming B's file", () => {
    const other = summary({ episodes: episodes(() => 1), run: { corpus_tasks_sha256: sha("9") } });
    const error = refusal(() =>
      compareSummaries({ a: named("a.json", base), b: named("b.json", other), protocol, manifests: [] }),
    );
    expect(error.kind).toBe("input");
    expect(error.problems.map((p) => [p.code, p.file])).toEqual([["compare_corpus_differs", "b.json"]]);
    expect(error.problems[0]?.message).toContain("corpus (tasks sha256) differs");
    // The same tasks from a different file (the corpus file's own hash) is another corpus too.
    const file = summary({ episodes: episodes(() => 1), run: { corpus_file_sha256: sha("9") } });
    expect(comparabilityProblems(named("a", base), named("b", file)).map((p) => p.code)).toEqual([
      "compare_corpus_differs",
    ]);
  });

  it("gives one problem per difference: protocol, plan, corpus, catalogs", () => {
    const other = summary({
      episodes: episodes(() => 1),
      run: {
        plan_slots_sha256: sha("8"),
        corpus_tasks_sha256: sha("9"),
        catalogs: [{ size: 100, sha256: sha("7") }],
      },
      top: { protocol_sha256: sha("6") },
    });
    expect(comparabilityProblems(named("a", base), named("b", other)).map((p) => p.code)).toEqual([
      "compare_protocol_differs",
      "compare_plan_differs",
      "compare_corpus_differs",
      "compare_catalogs_differ",
    ]);
  });

  it("compares what may differ: the manifest and router, agent, model, prompt, trials", () => {
    const other = summary({
      episodes: episodes(() => 1),
      manifest: sha("4"),
      run: { router_id: "command:./r.mjs", model: "m", system_prompt_sha256: sha("5"), trials: 3 },
    });
    expect(comparabilityProblems(named("a", base), named("b", other))).toEqual([]);
    const c = compareSummaries({ a: named("a", base), b: named("b", other), protocol, manifests: [] });
    expect(c.differs).toEqual(["condition manifest", "router", "model", "system prompt", "trials"]);
  });
});

describe("compare: B − A", () => {
  it("gives every Δ 0 with interval [0, 0] for two identical inputs", () => {
    const s = summary({ episodes: episodes((t, size, c) => (c === "FULL" ? 1 : (t + size / 250) / 4)) });
    const c = compareSummaries({ a: named("a", s), b: named("b", s), protocol, manifests: [] });
    expect(c.tables.length).toBe(6); // pooled, 100, 250 × FULL, SR-5
    for (const t of c.tables)
      for (const r of t.rows) {
        expect([t.selection, t.condition, r.metric, r.delta]).toEqual([
          t.selection,
          t.condition,
          r.metric,
          { point: 0, low: 0, high: 0, gate_low: 0, gate_high: 0 },
        ]);
        expect(r.excludes_zero).toBe(false);
        expect(r.a).toEqual(r.b);
      }
  });

  it("matches a hand computation of B − A, pooled and per catalog size", () => {
    // A's SR-5 recall: tasks 0..3 at 100 → 1, 0.5, 0, 1; at 250 → 0.5, 0.5, 0, 0.
    const a = summary({
      episodes: episodes(
        (t, size, c) => (c === "FULL" ? 1 : size === 100 ? [1, 0.5, 0, 1][t] : [0.5, 0.5, 0, 0][t]) ?? null,
      ),
    });
    // B's: at 100 → 1, 1, 0.5, 1; at 250 → 1, 0, 0.5, 0.5.
    const b = summary({
      episodes: episodes(
        (t, size, c) => (c === "FULL" ? 1 : size === 100 ? [1, 1, 0.5, 1][t] : [1, 0, 0.5, 0.5][t]) ?? null,
      ),
      manifest: sha("4"),
    });
    const c = compareSummaries({ a: named("a", a), b: named("b", b), protocol, manifests: [] });
    // Per task, pooled: A (0.75, 0.5, 0, 0.5), B (1, 0.5, 0.5, 0.75): Δ (0.25, 0, 0.5, 0.25), mean 0.25.
    expect(row(c, "pooled", "SR-5", "required_fact_recall")?.delta.point).toBeCloseTo(0.25, 12);
    expect(row(c, "pooled", "SR-5", "required_fact_recall")?.a.point).toBeCloseTo(0.4375, 12);
    expect(row(c, "pooled", "SR-5", "required_fact_recall")?.b.point).toBeCloseTo(0.6875, 12);
    // At 100: Δ (0, 0.5, 0.5, 0), mean 0.25; at 250: Δ (0.5, −0.5, 0.5, 0.5), mean 0.25.
    expect(row(c, "100", "SR-5", "required_fact_recall")?.delta.point).toBeCloseTo(0.25, 12);
    expect(row(c, "250", "SR-5", "required_fact_recall")?.delta.point).toBeCloseTo(0.25, 12);
    // input_tokens is 1000 × recall: the same Δ, in tokens.
    expect(row(c, "pooled", "SR-5", "input_tokens")?.delta.point).toBeCloseTo(250, 9);
    expect(row(c, "pooled", "FULL", "required_fact_recall")?.delta.point).toBe(0);
    // The interval holds the point, within what a delta of shares can be.
    const d = row(c, "pooled", "SR-5", "required_fact_recall")?.delta;
    expect(d?.low).toBeLessThanOrEqual(0.25);
    expect(d?.high).toBeGreaterThanOrEqual(0.25);
    expect(d?.low).toBeGreaterThanOrEqual(-1);
    // Gated metrics first, in the protocol's order, and marked.
    expect(table(c, "pooled", "SR-5")?.rows.map((r) => [r.metric, r.gated])).toEqual([
      ["required_fact_recall", true],
      ["input_tokens", true],
    ]);
  });

  it("is deterministic: the same inputs give the same comparison", () => {
    const a = summary({ episodes: episodes((t) => [1, 0.5, 0, 1][t] ?? null) });
    const b = summary({ episodes: episodes((t) => [0, 1, 0.5, 1][t] ?? null) });
    const once = compareSummaries({ a: named("a", a), b: named("b", b), protocol, manifests: [] });
    const twice = compareSummaries({ a: named("a", a), b: named("b", b), protocol, manifests: [] });
    expect(twice).toEqual(once);
  });

  it("pairs over the intersection and says how many episodes were left out", () => {
    const a = summary({ episodes: episodes(() => 1) });
    const fewer = episodes(() => 0.5).filter(
      (e) => !(e.semantic_task_id === "v4-task-3" && e.catalog_size === 250),
    );
    const b = summary({ episodes: [...fewer, episode("v4-task-9", "s1", 100, "FULL", 1, 1)] });
    const c = compareSummaries({ a: named("a", a), b: named("b", b), protocol, manifests: [] });
    expect(c.pairing).toEqual({
      paired: 14,
      tasks: 4,
      only_in_a: 2,
      only_in_b: 1,
      left_out: ["v4-task-3|250|FULL|1", "v4-task-3|250|SR-5|1", "v4-task-9|100|FULL|1"],
    });
    expect(renderComparison(c)).toContain("left out (no partner): 2 only in A, 1 only in B");
  });

  it("refuses two summaries with no episode in common", () => {
    const a = summary({ episodes: episodes(() => 1) });
    const b = summary({ episodes: [episode("v4-other", "s1", 100, "FULL", 1, 1)] });
    const error = refusal(() =>
      compareSummaries({ a: named("a", a), b: named("b", b), protocol, manifests: [] }),
    );
    expect(error.code).toBe("compare_no_common_episodes");
  });
});

describe("compare: the routers' ranks", () => {
  const a = summary({ episodes: episodes(() => 1), manifest: sha("1") });
  const b = summary({ episodes: episodes(() => 1), manifest: sha("4") });
  const m = (path: string, s: string, ranks: Record<string, number>, given = true): NamedManifest => ({
    path,
    manifest: manifest(s, ranks),
    given,
  });

  it("sets both manifests' ranks side by side, each matched to its summary by hash", () => {
    const c = compareSummaries({
      a: named("a", a),
      b: named("b", b),
      protocol,
      // Given in the other order: matched by hash, not by position.
      manifests: [
        m("b.json", sha("4"), { "x.get": 7, "y.put": 1 }),
        m("a.json", sha("1"), { "x.get": 2, "y.put": 3 }),
      ],
    });
    expect(c.ranks).toEqual({
      a_manifest: "a.json",
      b_manifest: "b.json",
      rows: [
        { semantic_task_id: "v4-task-0", catalog_size: 100, route: "x.get", a: 2, b: 7 },
        { semantic_task_id: "v4-task-0", catalog_size: 100, route: "y.put", a: 3, b: 1 },
      ],
    });
    expect(renderComparison(c)).toContain(
      "catalog 100: 2 required routes; mean rank A 2.50, B 4.00; B ranks 1 higher than A, 1 lower, 0 the same",
    );
  });

  it("refuses a given manifest that matches neither summary, and skips a default one", () => {
    const error = refusal(() =>
      compareSummaries({
        a: named("a", a),
        b: named("b", b),
        protocol,
        manifests: [m("x.json", sha("7"), {})],
      }),
    );
    expect([error.code, error.problems[0]?.file]).toEqual(["compare_manifest_not_in_summaries", "x.json"]);
    const c = compareSummaries({
      a: named("a", a),
      b: named("b", b),
      protocol,
      manifests: [m("pilot.json", sha("7"), {}, false)],
    });
    expect(c.ranks).toEqual({ a_manifest: null, b_manifest: null, rows: [] });
    expect(renderComparison(c)).toMatch(
      /A's and B's condition manifest not given — pass each run's manifest with --manifest FILE/,
    );
  });
});

describe("compare: renderings", () => {
  const hostile = '<script>alert("x")</script>';
  const a = summary({ episodes: episodes(() => 1), top: { preregistered: false } });
  const b = summary({
    episodes: episodes((t) => (t === 0 ? 0 : 1)),
    manifest: sha("4"),
    run: { router_id: hostile },
    top: { preregistered: false },
  });
  const c = compareSummaries({ a: named("a.json", a), b: named("b.json", b), protocol, manifests: [] });

  it("says B − A, a comparison and not a gate, and labels a protocol that is not preregistered", () => {
    const text = renderComparison(c);
    expect(text).toMatch(/^compare — B − A: a paired comparison of two runs on the same tasks, not a gate/);
    expect(text).toContain(
      "NOT PREREGISTERED: this protocol is not the bundled manifests/preregistration.json",
    );
    expect(text).toMatch(
      /SR-5 — pooled over catalog sizes 100, 250\n {2}metric +A +B +B − A {2}95% percentile +skew_t +excludes 0/,
    );
    expect(text).toMatch(/required_fact_recall \(gated\) +1\.0000 +0\.7500 +-0\.2500 {2}\[/);
    expect(text).toContain(
      "at a glance, pooled over catalog sizes (B − A; skew_t interval):\n  FULL: 0 of 2 gated metrics moved (interval excludes 0)\n  SR-5: ",
    );
    // One catalog size instead of the pooled tables.
    expect(renderComparison(c, "250")).toContain("SR-5 — catalog size 250");
    expect(renderComparison(c, "250")).not.toContain("SR-5 — pooled over");
  });

  it("writes one self-contained page that escapes what the inputs say", () => {
    const html = renderComparisonHtml(c);
    expect(html).not.toContain(hostile);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
    expect(html).toContain('<p id="not-preregistered" class="pilot-note">NOT PREREGISTERED');
    expect(html).toContain("not a gate");
    expect(html).toContain('data-label="B − A"');
  });
});
