/**
 * The summary's judge section on a small synthetic set whose means, deltas and factual counts are
 * worked out by hand; the join's refusals; and reading judgments files (every problem, with a code).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { parseJudgmentsText, type JudgmentsFile } from "../../src/judge/judgments-file.ts";
import { JUDGMENT_FORMAT, type Judgment } from "../../src/judge/record.ts";
import { answerSha256, buildJudgeSection, factualClass, joinJudgments } from "../../src/judge/summary.ts";
import type { EpisodeRow } from "../../src/metrics/index.ts";
import { summarizeEpisodes } from "../../src/summary/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const PROTOCOL_SHA = "c".repeat(64);
const HASH = "a".repeat(64);

interface Spec {
  task: string;
  size: number;
  condition: string;
  trial?: number;
  /** Scorer: recall, unsupported facts. */
  recall: number;
  unsupported?: number;
  /** Judge: [coherence, completeness], "malformed", or "none" (no line). */
  judge: [number, number] | "malformed" | "none";
}

/**
 * Two tasks in one cell, FULL and SR-5 at both catalog sizes, and one extra SR-5 trial nobody judged.
 *   t-1 100 FULL  recall 1           judged 5,5   fully correct
 *   t-1 250 FULL  recall 1           judged 5,2   fully correct, completeness rated low
 *   t-2 100 FULL  recall 1, 1 unsup. judged 4,4   neither
 *   t-2 250 FULL  recall 1           judged 4,5   fully correct
 *   t-1 100 SR-5  recall 0.5         judged 4,3   short, coherence rated high
 *   t-1 250 SR-5  recall 0.5         judged 3,3   short
 *   t-2 100 SR-5  recall 1           malformed    (not rated)
 *   t-2 250 SR-5  recall 0           judged 2,1   short
 *   t-1 100 SR-5 trial 2  recall 1   no line      missing
 */
const SPECS: Spec[] = [
  { task: "t-1", size: 100, condition: "FULL", recall: 1, judge: [5, 5] },
  { task: "t-1", size: 250, condition: "FULL", recall: 1, judge: [5, 2] },
  { task: "t-2", size: 100, condition: "FULL", recall: 1, unsupported: 1, judge: [4, 4] },
  { task: "t-2", size: 250, condition: "FULL", recall: 1, judge: [4, 5] },
  { task: "t-1", size: 100, condition: "SR-5", recall: 0.5, judge: [4, 3] },
  { task: "t-1", size: 250, condition: "SR-5", recall: 0.5, judge: [3, 3] },
  { task: "t-2", size: 100, condition: "SR-5", recall: 1, judge: "malformed" },
  { task: "t-2", size: 250, condition: "SR-5", recall: 0, judge: [2, 1] },
  { task: "t-1", size: 100, condition: "SR-5", trial: 2, recall: 1, judge: "none" },
];

const key = (s: Spec) => ({
  semantic_task_id: s.task,
  catalog_size: s.size,
  condition: s.condition,
  trial: s.trial ?? 1,
});

function row(s: Spec): EpisodeRow {
  const coherence = Array.isArray(s.judge) ? s.judge[0] : null;
  return {
    ...key(s),
    answer_task_stratum: "single_property_value_unit_provenance",
    language: "en",
    status: "completed",
    error_code: null,
    malformed_reason: null,
    metrics: {
      required_fact_recall: s.recall,
      unsupported_fact_count: s.unsupported ?? 0,
      contradiction_count: 0,
      // The coherence rating / 5, so the metrics' own bootstrap can be compared with the judge's.
      numeric_value_accuracy: coherence === null ? null : coherence / 5,
    },
    facts: [],
  };
}

function judgment(s: Spec, overrides: Partial<Judgment> = {}): Judgment {
  const judged = Array.isArray(s.judge);
  return {
    format: JUDGMENT_FORMAT,
    episode: key(s),
    answer_sha256: HASH,
    status: judged ? "judged" : "malformed",
    reason: judged ? null : "reply_not_json",
    ratings: Array.isArray(s.judge) ? { coherence: s.judge[0], completeness: s.judge[1] } : null,
    rationale: null,
    raw_reply: judged ? null : "not json",
    redactions: 0,
    prompt_sha256: "b".repeat(64),
    protocol_sha256: PROTOCOL_SHA,
    judge: { agent: "command", model: "judge-1", reported_model: null, settings: {} },
    seed: 7,
    usage: null,
    ...overrides,
  };
}

const TASKS = new Map(
  ["t-1", "t-2"].map((id) => [
    id,
    {
      semantic_task_id: id,
      answer_task_stratum: "single_property_value_unit_provenance",
      language: "en",
    } as unknown as Task,
  ]),
);
const ROWS = SPECS.map(row);
const LINES = SPECS.filter((s) => s.judge !== "none").map((s) => judgment(s));
const fileOf = (judgments: Judgment[], path = "j.jsonl"): JudgmentsFile => ({
  path,
  sha256: "d".repeat(64),
  judgments,
  lines: judgments.map((_, i) => i + 1),
  tornBytes: 0,
});
const ANSWERS = new Map(
  ROWS.map((r) => [`${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`, HASH]),
);

function section(extra: Judgment[] = []) {
  const files = [fileOf([...LINES, ...extra])];
  const joined = joinJudgments(files, ANSWERS);
  expect(joined.problems).toEqual([]);
  return buildJudgeSection({ protocol, rows: ROWS, tasks: TASKS, files, joined, rng: "seedrandom" });
}

describe("the summary's judge section", () => {
  const stray = judgment({ task: "t-3", size: 100, condition: "FULL", recall: 1, judge: [3, 3] });
  const s = section([stray]);

  it("counts judged, malformed by reason, missing, and judgments of episodes not in the runs", () => {
    expect(s.counts).toEqual({
      episodes: 9,
      judged: 7,
      malformed: { total: 1, by_reason: { reply_not_json: 1 } },
      not_judged: { total: 0, by_reason: {} },
      error: { total: 0, by_reason: {} },
      missing: 1,
      not_in_runs: 1,
    });
    expect(s.judges).toEqual([
      { agent: "command", model: "judge-1", reported_model: null, settings: {}, episodes: 8 },
    ]);
    expect(s.baseline).toBe(protocol.baseline_condition);
  });

  it("averages ratings over judged episodes per condition and catalog size, and pooled", () => {
    // pooled FULL: coherence (5 + 5 + 4 + 4) / 4 = 4.5, completeness (5 + 2 + 4 + 5) / 4 = 4
    // pooled SR-5 (3 judged): coherence (4 + 3 + 2) / 3 = 3, completeness (3 + 3 + 1) / 3 = 7/3
    // 100 FULL: (5 + 4) / 2 = 4.5, (5 + 4) / 2 = 4.5;  100 SR-5 (1 judged): 4, 3
    // 250 FULL: (5 + 4) / 2 = 4.5, (2 + 5) / 2 = 3.5;  250 SR-5 (2 judged): 2.5, 2
    const level = (sel: string, c: string) => s.levels[sel]?.[c];
    expect(level("pooled", "FULL")).toEqual({ judged: 4, means: { coherence: 4.5, completeness: 4 } });
    expect(level("pooled", "SR-5")?.judged).toBe(3);
    expect(level("pooled", "SR-5")?.means["coherence"]).toBe(3);
    expect(level("pooled", "SR-5")?.means["completeness"]).toBeCloseTo(7 / 3, 12);
    expect(level("100", "FULL")).toEqual({ judged: 2, means: { coherence: 4.5, completeness: 4.5 } });
    expect(level("100", "SR-5")).toEqual({ judged: 1, means: { coherence: 4, completeness: 3 } });
    expect(level("250", "FULL")).toEqual({ judged: 2, means: { coherence: 4.5, completeness: 3.5 } });
    expect(level("250", "SR-5")).toEqual({ judged: 2, means: { coherence: 2.5, completeness: 2 } });
  });

  it("takes paired per-task deltas against the baseline, as the metrics do", () => {
    // Per task, the mean over its judged trials and catalog sizes:
    //   coherence t-1: SR-5 (4 + 3)/2 = 3.5 − FULL (5 + 5)/2 = 5 → −1.5; t-2: SR-5 2 − FULL 4 → −2; mean −1.75
    //   completeness t-1: SR-5 3 − FULL (5 + 2)/2 = 3.5 → −0.5; t-2: SR-5 1 − FULL 4.5 → −3.5; mean −2
    //   at 100, coherence: t-1 4 − 5 = −1; t-2 undefined (malformed) → −1
    //   at 250, coherence: t-1 3 − 5 = −2; t-2 2 − 4 = −2 → −2
    const delta = (sel: string, d: string) => s.delta_intervals[sel]?.["SR-5"]?.[d];
    expect(delta("pooled", "coherence")?.point).toBeCloseTo(-1.75, 12);
    expect(delta("pooled", "completeness")?.point).toBeCloseTo(-2, 12);
    expect(delta("100", "coherence")?.point).toBe(-1);
    expect(delta("250", "coherence")?.point).toBe(-2);
    // Two tasks in one cell: every replicate averages two draws of {−1.5, −2}; each extreme has
    // probability 1/4, so the 2.5 % and 97.5 % order statistics are the extremes.
    expect([delta("pooled", "coherence")?.low, delta("pooled", "coherence")?.high]).toEqual([-2, -1.5]);
    expect([delta("pooled", "completeness")?.low, delta("pooled", "completeness")?.high]).toEqual([
      -3.5, -0.5,
    ]);
    expect(s.delta_intervals["pooled"]?.["FULL"]).toBeUndefined();
  });

  it("uses the summary's own bootstrap: same draws, so a metric equal to rating/5 gives interval/5", () => {
    const stats = summarizeEpisodes(ROWS, TASKS, protocol, "seedrandom");
    const metric = stats.bootstrap.intervals["pooled|SR-5|numeric_value_accuracy|delta"];
    const judge = s.delta_intervals["pooled"]?.["SR-5"]?.["coherence"];
    expect(metric?.n).toBe(judge?.n);
    expect((metric?.point as number) * 5).toBeCloseTo(judge?.point as number, 12);
    expect((metric?.low as number) * 5).toBeCloseTo(judge?.low as number, 12);
    expect((metric?.high as number) * 5).toBeCloseTo(judge?.high as number, 12);
  });

  it("sets the judge beside the scorer: fully correct rated low, factually short rated high", () => {
    // Fully correct and judged: t-1 100 FULL (5,5), t-1 250 FULL (5,2), t-2 250 FULL (4,5) → 3;
    //   rated ≤ 2: coherence none, completeness one (t-1 250 FULL).
    // Short and judged: t-1 100 SR-5 (4,3), t-1 250 SR-5 (3,3), t-2 250 SR-5 (2,1) → 3;
    //   rated ≥ 4 (5 + 1 − 2): coherence one (t-1 100 SR-5), completeness none.
    // Neither: t-2 100 FULL (every fact, but one unsupported).
    expect(s.factual).toEqual({
      fully_correct: {
        episodes: 3,
        rated_low: { coherence: { count: 0, share: 0 }, completeness: { count: 1, share: 1 / 3 } },
      },
      factually_short: {
        episodes: 3,
        rated_high: { coherence: { count: 1, share: 1 / 3 }, completeness: { count: 0, share: 0 } },
      },
      neither: 1,
    });
    expect(s.dimensions.map((d) => [d.id, d.low_at_most, d.high_at_least])).toEqual([
      ["coherence", 2, 4],
      ["completeness", 2, 4],
    ]);
  });

  it("classifies a malformed envelope or an infrastructure error as factually short", () => {
    expect(factualClass({ ...row(SPECS[0] as Spec), malformed_reason: "not_json" })).toBe("factually_short");
    expect(factualClass({ ...row(SPECS[0] as Spec), status: "error" })).toBe("factually_short");
    expect(factualClass({ ...row(SPECS[0] as Spec), metrics: { required_fact_recall: null } })).toBe(
      "neither",
    );
  });
});

describe("joining judgments to the runs", () => {
  it("hashes the envelope's answer, and has none for an error or a malformed envelope", () => {
    const text = JSON.stringify({ answer: "Ünïcode 144 GPa", facts: [], sources: [] });
    const expected = createHash("sha256").update(Buffer.from("Ünïcode 144 GPa", "utf8")).digest("hex");
    expect(answerSha256({ status: "completed", final_text: text })).toBe(expected);
    expect(answerSha256({ status: "completed", final_text: "no envelope" })).toBeNull();
    expect(answerSha256({ status: "error", final_text: text })).toBeNull();
  });

  it("refuses a judgment of another answer, naming the episode and the line", () => {
    const lines = [...LINES];
    lines[1] = { ...(lines[1] as Judgment), answer_sha256: "e".repeat(64) };
    const joined = joinJudgments([fileOf(lines)], ANSWERS);
    expect(joined.problems).toEqual([
      expect.objectContaining({ code: "answer_mismatch", file: "j.jsonl", line: 2 }),
    ]);
    expect(joined.problems[0]?.message).toContain("t-1|250|FULL|1");
  });

  it("refuses an episode judged in two of the files read together", () => {
    const joined = joinJudgments(
      [fileOf(LINES, "a.jsonl"), fileOf([LINES[0] as Judgment], "b.jsonl")],
      ANSWERS,
    );
    expect(joined.problems).toEqual([
      expect.objectContaining({ code: "duplicate_judgment", file: "b.jsonl", line: 1 }),
    ]);
  });
});

describe("reading a judgments file", () => {
  const text = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  const parse = (t: string) => parseJudgmentsText(t, "j.jsonl", protocol.judge, PROTOCOL_SHA);

  it("reads valid lines with their line numbers", () => {
    const parsed = parse(text(LINES));
    expect(parsed.problems).toEqual([]);
    expect(parsed.judgments).toHaveLength(LINES.length);
    expect(parsed.lines).toEqual(LINES.map((_, i) => i + 1));
  });

  it("reports every bad line with its own code", () => {
    const good = LINES[0] as Judgment;
    const lines = [
      good,
      { ...good, episode: { ...good.episode, trial: 9 }, ratings: { coherence: 6, completeness: 3 } },
      { ...good, episode: { ...good.episode, trial: 10 }, ratings: { coherence: 3 } },
      {
        ...good,
        episode: { ...good.episode, trial: 11 },
        ratings: { coherence: 3, completeness: 3, tone: 2 },
      },
      { ...good, episode: { ...good.episode, trial: 12 }, answer_sha256: null },
      { ...good, episode: { ...good.episode, trial: 13 }, status: "error", reason: null, ratings: null },
      { ...good, seed: -1 },
      good,
    ];
    const bad = `${text(lines)}{not json\n`;
    const parsed = parse(bad);
    expect(parsed.problems.map((p) => [p.line, p.code])).toEqual([
      [2, "rating_out_of_range"],
      [3, "judgment_ratings"],
      [4, "judgment_ratings"],
      [5, "judgment_inconsistent"],
      [6, "judgment_inconsistent"],
      [7, "invalid_judgment"],
      [8, "duplicate_judgment"],
      [9, "invalid_json"],
    ]);
    expect(parsed.problems.every((p) => p.file === "j.jsonl")).toBe(true);
  });

  it("says once per file that it was judged under another protocol", () => {
    const parsed = parseJudgmentsText(text(LINES), "j.jsonl", protocol.judge, "f".repeat(64));
    expect(parsed.problems).toEqual([
      expect.objectContaining({ code: "judgment_protocol_mismatch", line: 1 }),
    ]);
    expect(parsed.problems[0]?.message).toContain(`${LINES.length} judgment(s)`);
  });

  it("drops a torn last line and keeps a complete one that only lacks its newline", () => {
    const whole = text(LINES.slice(0, 2));
    const torn = parse(`${whole}${JSON.stringify(LINES[2]).slice(0, 40)}`);
    expect([torn.judgments.length, torn.tornBytes, torn.problems]).toEqual([2, 40, []]);
    const unterminated = parse(`${whole}${JSON.stringify(LINES[2])}`);
    expect([unterminated.judgments.length, unterminated.tornBytes]).toEqual([3, 0]);
  });

  it("names a file of another kind in one problem", () => {
    const run = parse(`${JSON.stringify({ metadata: { format: "fabench-run-record/v3" } })}\n`);
    expect(run.problems.map((p) => p.code)).toEqual(["wrong_file_kind"]);
    const older = parse(`${JSON.stringify({ ...LINES[0], format: "fabench-judgment/v0" })}\n`);
    expect(older.problems.map((p) => p.code)).toEqual(["unsupported_format"]);
    const other = parse('{"x": 1}\n[2]\n');
    expect(other.problems.map((p) => p.code)).toEqual(["not_a_judgments_file"]);
  });
});
