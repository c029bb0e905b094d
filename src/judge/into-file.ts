/**
 * Judging into the judgments file: the pending episodes are judged, each line appended as it is
 * ready, and what became of the run is summed up for the command to print.
 */
import type { Budget } from "../providers/index.ts";
import type { Judge } from "./client.ts";
import {
  judgeEpisodes,
  type JudgeContext,
  type JudgeEpisode,
  type JudgeRunDeps,
  type JudgeRunResult,
} from "./run.ts";
import { layDownInOrder } from "./resume-file.ts";
import { JudgmentWriter } from "./writer.ts";

/** How many requests may be in flight, and when sending stops. */
export interface JudgingLimits {
  readonly concurrency: number;
  readonly maxErrors?: number;
  /** Stop after this many failed requests in a row with the same code (0: never). */
  readonly breaker: number;
}

/** Judges `pending`, appending each line to `out` as it is ready; the file is closed however it ends. */
export async function judgeIntoFile(
  out: string,
  pending: readonly JudgeEpisode[],
  judge: Judge,
  context: JudgeContext,
  limits: JudgingLimits,
  deps: Omit<JudgeRunDeps, "write">,
): Promise<JudgeRunResult> {
  const writer = new JudgmentWriter(out);
  try {
    return await judgeEpisodes(
      {
        episodes: pending,
        judge,
        context,
        concurrency: limits.concurrency,
        maxErrors: limits.maxErrors ?? null,
        breaker: limits.breaker,
      },
      { write: (j) => writer.append(j), progress: deps.progress, shouldStop: deps.shouldStop },
    );
  } finally {
    writer.close();
  }
}

/**
 * A finished file is laid down in the seeded order: the same inputs give the same bytes however
 * the replies raced and however many resumes it took. (Lines went to disk as they came in.)
 * Returns the run's summary; `skipped` is how many episodes the file held before.
 */
export function finishJudgments(
  out: string,
  episodes: readonly JudgeEpisode[],
  context: JudgeContext,
  skipped: number,
  result: JudgeRunResult,
  budget: Budget,
): JudgingSummary {
  if (!result.stopped) layDownInOrder(out, episodes, context);
  return judgingSummary(out, episodes.length, skipped, result, budget);
}

/** Every request sent failed, and the run was not stopped: nothing was judged. */
export function allRequestsFailed(result: JudgeRunResult): boolean {
  return !result.stopped && result.requests > 0 && result.byStatus.error === result.requests;
}

export type JudgingSummary = ReturnType<typeof judgingSummary>;

/** What a judge run did, as `--json` prints it. */
export function judgingSummary(
  out: string,
  planned: number,
  skipped: number,
  result: JudgeRunResult,
  budget: Budget,
) {
  return {
    ok: !result.stopped && !allRequestsFailed(result),
    out,
    planned,
    skipped,
    written: result.written,
    judged: result.byStatus.judged,
    malformed: result.byStatus.malformed,
    not_judged: result.byStatus.not_judged,
    errors: result.byStatus.error,
    requests: result.requests,
    stopped: result.stopped,
    stop_reason: result.stopReason,
    breaker: result.tripped,
    spent_usd: budget.priced ? Math.round(budget.spentUsd * 10_000) / 10_000 : null,
  };
}

/** The summary's one line (without --json). */
export function renderJudgingSummary(summary: JudgingSummary, priced: boolean): string {
  return `${summary.out}: ${summary.written} line(s) written (${summary.judged} judged, ${summary.malformed} malformed, ${summary.not_judged} not judged, ${summary.errors} infrastructure error(s)), ${summary.skipped} already finished${priced ? `, $${summary.spent_usd} spent` : ""}\n`;
}
