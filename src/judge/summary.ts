/**
 * The summary's `judge` section, pure: the judgments joined to the scored episodes, counted,
 * averaged per condition × catalog size, compared with the baseline by the very bootstrap the
 * metrics use, and set beside the deterministic scorer's verdicts. The gate is computed before this
 * section exists and never reads it; this only describes.
 */
import type { Protocol, Task } from "../authoring/index.ts";
import { canonicalJson, compareCodePoints, episodeKey, type Problem } from "../core/index.ts";
import {
  bootstrap,
  buildStatistics,
  POOLED,
  statisticKey,
  type EpisodeRow,
  type Interval,
  type RngName,
} from "../metrics/index.ts";
import type { JudgeSection } from "../summary/index.ts";
import { crossFileDuplicates, type JudgeProtocol, type JudgmentsFile } from "./judgments-file.ts";
import type { Judgment } from "./record.ts";
import { episodeAnswer } from "./run.ts";

/**
 * SHA-256 (hex, of the UTF-8 text) of the `answer` of the envelope an episode ended with; null when
 * it has none (an infrastructure error, or a final text that is not an envelope). A judgment's
 * `answer_sha256` must equal it, or the judgment rated some other answer.
 */
export function answerSha256(record: {
  readonly status: "completed" | "error";
  readonly final_text: string;
}): string | null {
  // The very rule `judge run` hashed the answer by, so the two cannot drift apart.
  const answer = episodeAnswer({ status: record.status, finalText: record.final_text });
  return "sha256" in answer ? answer.sha256 : null;
}

export interface JoinedJudgments {
  /** By episode key, only judgments of scored episodes. */
  readonly byEpisode: ReadonlyMap<string, Judgment>;
  /** Judgment lines naming episodes these runs do not hold. */
  readonly notInRuns: number;
  /** Episodes judged twice, and judgments of another answer than the run's: nothing can be built. */
  readonly problems: readonly Problem[];
}

/**
 * Joins judgments to scored episodes by episode key, and checks each rated the run's own answer.
 * `answers` holds every scored episode's {@link answerSha256}.
 */
export function joinJudgments(
  files: readonly JudgmentsFile[],
  answers: ReadonlyMap<string, string | null>,
): JoinedJudgments {
  const problems: Problem[] = [...crossFileDuplicates(files)];
  const byEpisode = new Map<string, Judgment>();
  let notInRuns = 0;
  for (const f of files)
    f.judgments.forEach((j, i) => {
      const key = episodeKey(j.episode);
      if (byEpisode.has(key)) return; // a duplicate, reported above
      const answer = answers.get(key);
      if (answer === undefined) {
        notInRuns += 1;
        return;
      }
      if (j.answer_sha256 !== answer) {
        const rated = j.answer_sha256 === null ? "no answer" : `answer ${j.answer_sha256.slice(0, 12)}…`;
        const run = answer === null ? "has no answer" : `ended with answer ${answer.slice(0, 12)}…`;
        problems.push({
          code: "answer_mismatch",
          message: `episode ${key}: the judgment is of ${rated}, but the run ${run} — these judgments were made from another run`,
          file: f.path,
          line: f.lines[i] as number,
        });
        return;
      }
      byEpisode.set(key, j);
    });
  return { byEpisode, notInRuns, problems };
}

export interface JudgeSectionInput {
  readonly protocol: Protocol;
  readonly rows: readonly EpisodeRow[];
  readonly tasks: ReadonlyMap<string, Task>;
  readonly files: readonly JudgmentsFile[];
  readonly joined: JoinedJudgments;
  readonly rng: RngName;
}

/**
 * The "rated high" threshold mirrors the protocol's "rated low" one around the scale's middle:
 * low ≤ 2 on 1–5 makes high ≥ 4, so both sides are two points from their end of the scale.
 */
export function highRatingAtLeast(dimension: { min: number; max: number }, lowAtMost: number): number {
  return dimension.min + dimension.max - lowAtMost;
}

/**
 * Fully correct by the deterministic scorer: a valid envelope with every required fact recalled and
 * no unsupported or contradicting fact. Factually short: a malformed envelope (or none), or some
 * required fact missed. Episodes with every fact recalled but an unsupported or contradicting one
 * besides (or no required facts to recall) are neither, and counted as such.
 */
export function factualClass(row: EpisodeRow): "fully_correct" | "factually_short" | "neither" {
  const recall = row.metrics["required_fact_recall"];
  if (row.status === "error" || row.malformed_reason !== null) return "factually_short";
  if (recall !== null && recall !== undefined && recall < 1) return "factually_short";
  if (
    recall === 1 &&
    row.metrics["unsupported_fact_count"] === 0 &&
    (row.metrics["contradiction_count"] ?? 0) === 0
  )
    return "fully_correct";
  return "neither";
}

export function buildJudgeSection(input: JudgeSectionInput): JudgeSection {
  const { protocol, rows, joined } = input;
  const judge = protocol.judge;
  const conditions = protocol.conditions.map((c) => c.id).filter((c) => rows.some((r) => r.condition === c));
  const sizes = protocol.catalog_sizes.filter((s) => rows.some((r) => r.catalog_size === s));
  const ratingOf = (row: EpisodeRow, dimension: string): number | null => {
    const j = joined.byEpisode.get(episodeKey(row));
    return j?.status === "judged" ? (j.ratings?.[dimension] ?? null) : null;
  };
  const matched = [...joined.byEpisode.values()];
  return {
    files: input.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
    judges: judges(matched),
    prompt_sha256: [...new Set(matched.map((j) => j.prompt_sha256))].sort(compareCodePoints),
    dimensions: judge.dimensions.map((d) => ({
      id: d.id,
      min: d.min,
      max: d.max,
      low_at_most: judge.low_rating_at_most,
      high_at_least: highRatingAtLeast(d, judge.low_rating_at_most),
    })),
    counts: counts(rows, joined),
    baseline: protocol.baseline_condition,
    levels: levels(rows, conditions, sizes, judge, ratingOf),
    delta_intervals: deltaIntervals(input, conditions, sizes, ratingOf),
    factual: factual(rows, judge, ratingOf),
  };
}

type RatingOf = (row: EpisodeRow, dimension: string) => number | null;

/** Each distinct judge identity with its line count, in canonical-JSON order. */
function judges(matched: readonly Judgment[]): JudgeSection["judges"] {
  const byIdentity = new Map<string, { judge: Judgment["judge"]; episodes: number }>();
  for (const j of matched) {
    const id = canonicalJson(j.judge);
    const known = byIdentity.get(id);
    if (known) known.episodes += 1;
    else byIdentity.set(id, { judge: j.judge, episodes: 1 });
  }
  return [...byIdentity]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([, { judge, episodes }]) => ({ ...judge, episodes }));
}

function counts(rows: readonly EpisodeRow[], joined: JoinedJudgments): JudgeSection["counts"] {
  const reasons = { malformed: new Map<string, number>(), not_judged: new Map(), error: new Map() };
  let judged = 0;
  let missing = 0;
  for (const row of rows) {
    const j = joined.byEpisode.get(episodeKey(row));
    if (!j) missing += 1;
    else if (j.status === "judged") judged += 1;
    else {
      const tally = reasons[j.status] as Map<string, number>;
      const reason = j.reason ?? "unknown";
      tally.set(reason, (tally.get(reason) ?? 0) + 1);
    }
  }
  const byReason = (tally: Map<string, number>) => ({
    total: [...tally.values()].reduce((a, b) => a + b, 0),
    by_reason: Object.fromEntries([...tally].sort(([a], [b]) => compareCodePoints(a, b))),
  });
  return {
    episodes: rows.length,
    judged,
    malformed: byReason(reasons.malformed),
    not_judged: byReason(reasons.not_judged),
    error: byReason(reasons.error),
    missing,
    not_in_runs: joined.notInRuns,
  };
}

/** The selections the summary's aggregates use: pooled, then each catalog size. */
function selections(sizes: readonly number[]): Array<[string, readonly number[]]> {
  return [[POOLED, sizes], ...sizes.map((s): [string, number[]] => [String(s), [s]])];
}

/** Mean rating over the judged episodes of each selection × condition (an episode mean, like the aggregates'). */
function levels(
  rows: readonly EpisodeRow[],
  conditions: readonly string[],
  sizes: readonly number[],
  judge: JudgeProtocol,
  ratingOf: RatingOf,
): JudgeSection["levels"] {
  const out: JudgeSection["levels"] = {};
  for (const [selection, chosen] of selections(sizes)) {
    const perCondition: JudgeSection["levels"][string] = {};
    for (const condition of conditions) {
      const mine = rows.filter((r) => r.condition === condition && chosen.includes(r.catalog_size));
      const judged = mine.filter((r) => judge.dimensions.every((d) => ratingOf(r, d.id) !== null));
      const means: Record<string, number | null> = {};
      for (const d of judge.dimensions)
        means[d.id] =
          judged.length === 0
            ? null
            : judged.reduce((sum, r) => sum + (ratingOf(r, d.id) as number), 0) / judged.length;
      perCondition[condition] = { judged: judged.length, means };
    }
    out[selection] = perCondition;
  }
  return out;
}

/**
 * Paired deltas against the baseline with the summary's own bootstrap: the same tasks in the same
 * stratum × language cells (every scored task, judged or not, so the draws are the metrics' draws),
 * the protocol's iterations, seed and confidence, and per task the mean over its judged trials and
 * catalog sizes, exactly as a metric's per-task value is formed.
 */
function deltaIntervals(
  input: JudgeSectionInput,
  conditions: readonly string[],
  sizes: readonly number[],
  ratingOf: RatingOf,
): JudgeSection["delta_intervals"] {
  const { protocol, rows, tasks } = input;
  const dimensions = protocol.judge.dimensions.map((d) => d.id);
  const taskIds = [...new Set(rows.map((r) => r.semantic_task_id))].sort(compareCodePoints);
  const index = new Map(taskIds.map((id, i) => [id, i]));
  // cube[condition|size|dimension][task] = per-trial ratings, trial 1 first (null: not judged)
  const cube = new Map<string, Array<Array<number | null>>>();
  for (const r of [...rows].sort((a, b) => a.trial - b.trial))
    for (const dimension of dimensions) {
      const key = `${r.condition}|${r.catalog_size}|${dimension}`;
      let perTask = cube.get(key);
      if (!perTask) cube.set(key, (perTask = taskIds.map(() => [])));
      perTask[index.get(r.semantic_task_id) as number]?.push(ratingOf(r, dimension));
    }
  const statistics = buildStatistics({
    taskCount: taskIds.length,
    conditions,
    baseline: protocol.baseline_condition,
    sizes,
    metrics: dimensions,
    values: (condition, size, metric, task) => cube.get(`${condition}|${size}|${metric}`)?.[task],
  });
  const bootTasks = taskIds.map((id) => ({
    id,
    stratum: tasks.get(id)?.answer_task_stratum ?? "",
    language: tasks.get(id)?.language ?? "",
  }));
  const stats = protocol.statistics;
  const { intervals } = bootstrap(bootTasks, statistics, {
    iterations: stats.iterations,
    seed: stats.seed,
    rng: input.rng,
    confidence: stats.confidence_level,
    calibrated: true,
  });
  const out: JudgeSection["delta_intervals"] = {};
  for (const [selection] of selections(sizes)) {
    const perCondition: Record<string, Record<string, Interval>> = {};
    for (const condition of conditions) {
      if (condition === protocol.baseline_condition) continue;
      const perDimension: Record<string, Interval> = {};
      for (const dimension of dimensions) {
        const interval = intervals[statisticKey(selection, condition, dimension, "delta")];
        if (interval) perDimension[dimension] = interval;
      }
      perCondition[condition] = perDimension;
    }
    out[selection] = perCondition;
  }
  return out;
}

/** Judged episodes the scorer calls fully correct yet the judge rates low, and the reverse. */
function factual(
  rows: readonly EpisodeRow[],
  judge: JudgeProtocol,
  ratingOf: RatingOf,
): JudgeSection["factual"] {
  const judged = rows.filter((r) => judge.dimensions.every((d) => ratingOf(r, d.id) !== null));
  const correct = judged.filter((r) => factualClass(r) === "fully_correct");
  const short = judged.filter((r) => factualClass(r) === "factually_short");
  const rated = (
    group: readonly EpisodeRow[],
    hit: (d: JudgeProtocol["dimensions"][number], v: number) => boolean,
  ) =>
    Object.fromEntries(
      judge.dimensions.map((d) => {
        const count = group.filter((r) => hit(d, ratingOf(r, d.id) as number)).length;
        return [d.id, { count, share: group.length === 0 ? null : count / group.length }];
      }),
    );
  return {
    fully_correct: {
      episodes: correct.length,
      rated_low: rated(correct, (_, v) => v <= judge.low_rating_at_most),
    },
    factually_short: {
      episodes: short.length,
      rated_high: rated(short, (d, v) => v >= highRatingAtLeast(d, judge.low_rating_at_most)),
    },
    neither: judged.length - correct.length - short.length,
  };
}
