/**
 * Judging episodes: one judgment line per episode, in the order given (the seeded shuffle). An
 * episode without an answer to rate gets a `not_judged` line and no request; every other one gets
 * one request, and its reply becomes `judged` or `malformed`; a request that fails is an `error`
 * line with the failure's code (infrastructure, kept apart from judgments and sent again by
 * `--resume --retry-errors`). Lines are written in the given order as they become ready, so the file
 * does not depend on which request finishes first.
 */
import type { Task } from "../authoring/index.ts";
import {
  CircuitBreaker,
  FabenchError,
  mapConcurrent,
  sha256Hex,
  type EpisodeKey,
  type Tripped,
} from "../core/index.ts";
import { parseEnvelope } from "../envelope/index.ts";
import type { GenerationSettings } from "../providers/index.ts";
import type { Judge, JudgeReply } from "./client.ts";
import type { JudgePrompt, JudgeProtocol } from "./prompt.ts";
import { JUDGMENT_FORMAT, type Judgment } from "./record.ts";
import { parseJudgeReply } from "./reply.ts";
import { buildJudgeRequest, type Blinder, type JudgeRequest } from "./request.ts";

/** One episode of a run, as the judge stage needs it. */
export interface JudgeEpisode {
  readonly key: EpisodeKey;
  /** The episode's task (its query is what the judge is shown with the answer). */
  readonly task: Task;
  readonly status: "completed" | "error";
  readonly finalText: string;
}

/** What every line of one judging run shares. */
export interface JudgeContext {
  readonly judge: JudgeProtocol;
  readonly prompt: JudgePrompt;
  readonly protocolSha256: string;
  readonly blind: Blinder;
  readonly settings: GenerationSettings;
  readonly identity: Judge["identity"];
  readonly seed: number;
}

/** Why an episode has nothing to rate, when it has nothing: the run's error, or the envelope's defect. */
export type Prepared =
  | { readonly kind: "not_judged"; readonly reason: string }
  | { readonly kind: "request"; readonly answerSha256: string; readonly request: JudgeRequest };

/** The answer an episode would be rated on: its SHA-256, or why there is none. Pure. */
export function episodeAnswer(
  episode: Pick<JudgeEpisode, "status" | "finalText">,
): { readonly answer: string; readonly sha256: string } | { readonly reason: string } {
  if (episode.status === "error") return { reason: "episode_error" };
  const envelope = parseEnvelope(episode.finalText);
  if (!envelope.ok) return { reason: `envelope_${envelope.reason}` };
  return { answer: envelope.envelope.answer, sha256: sha256Hex(envelope.envelope.answer) };
}

/** The request for an episode, or the `not_judged` reason. Pure. */
export function prepareEpisode(episode: JudgeEpisode, context: JudgeContext): Prepared {
  const answer = episodeAnswer(episode);
  if ("reason" in answer) return { kind: "not_judged", reason: answer.reason };
  const request = buildJudgeRequest(
    { prompt: context.prompt, query: episode.task.query, answer: answer.answer, settings: context.settings },
    context.blind,
  );
  return { kind: "request", answerSha256: answer.sha256, request };
}

type Outcome =
  | { readonly kind: "not_judged"; readonly reason: string }
  | { readonly kind: "reply"; readonly reply: JudgeReply }
  | { readonly kind: "failed"; readonly code: string };

/** The judgment line for an episode and what became of it. Pure. */
export function judgmentLine(
  episode: JudgeEpisode,
  prepared: Prepared,
  outcome: Outcome,
  context: JudgeContext,
): Judgment {
  const base = {
    format: JUDGMENT_FORMAT,
    episode: {
      semantic_task_id: episode.key.semantic_task_id,
      catalog_size: episode.key.catalog_size,
      condition: episode.key.condition,
      trial: episode.key.trial,
    },
    answer_sha256: prepared.kind === "request" ? prepared.answerSha256 : null,
    ratings: null,
    rationale: null,
    raw_reply: null,
    redactions: prepared.kind === "request" ? prepared.request.redactions : 0,
    prompt_sha256: context.prompt.sha256,
    protocol_sha256: context.protocolSha256,
    judge: {
      agent: context.identity.agent,
      model: context.identity.model,
      reported_model: outcome.kind === "reply" ? outcome.reply.model : null,
      settings: context.identity.settings as Judgment["judge"]["settings"],
    },
    seed: context.seed,
    usage:
      outcome.kind === "reply" && outcome.reply.usage !== null
        ? { input_tokens: outcome.reply.usage.input_tokens, output_tokens: outcome.reply.usage.output_tokens }
        : null,
  } satisfies Omit<Judgment, "status" | "reason">;
  if (outcome.kind === "not_judged") return { ...base, status: "not_judged", reason: outcome.reason };
  if (outcome.kind === "failed") return { ...base, status: "error", reason: outcome.code };
  const parsed = parseJudgeReply(outcome.reply.text, context.judge);
  if (!parsed.ok) return { ...base, status: "malformed", reason: parsed.reason, raw_reply: parsed.rawReply };
  return { ...base, status: "judged", reason: null, ratings: parsed.ratings, rationale: parsed.rationale };
}

export interface JudgeRunInput {
  /** In the order they are sent (the seeded shuffle, less what a resume has). */
  readonly episodes: readonly JudgeEpisode[];
  readonly judge: Judge;
  readonly context: JudgeContext;
  readonly concurrency: number;
  /** Stop sending once this many requests ended in infrastructure errors (null: never). */
  readonly maxErrors: number | null;
  /** Stop sending after this many failed requests in a row with the same code (null, 0 or absent: never). */
  readonly breaker?: number | null;
}

export interface JudgeRunDeps {
  readonly write: (judgment: Judgment) => void;
  /** `errors`: requests that failed so far (infrastructure errors). */
  readonly progress: (done: number, total: number, errors: number) => void;
  readonly shouldStop: () => boolean;
}

export interface JudgeRunResult {
  readonly written: number;
  readonly byStatus: Record<Judgment["status"], number>;
  /** Requests sent (not_judged lines send none). */
  readonly requests: number;
  readonly stopped: boolean;
  readonly stopReason: "interrupted" | "max_errors" | "breaker" | "budget_exhausted" | null;
  /** The code and count that tripped the circuit breaker, when it stopped the run. */
  readonly tripped: Tripped | null;
}

/** Judges `episodes` with at most `concurrency` requests in flight, writing each line as it is ready. */
export async function judgeEpisodes(input: JudgeRunInput, deps: JudgeRunDeps): Promise<JudgeRunResult> {
  const byStatus: Record<Judgment["status"], number> = { judged: 0, malformed: 0, not_judged: 0, error: 0 };
  let written = 0;
  let requests = 0;
  let errors = 0;
  let stopReason: JudgeRunResult["stopReason"] = null;
  const breaker = new CircuitBreaker(input.breaker ?? null);
  // Each line is written as soon as its reply is in: a paid reply is never held in memory behind a
  // slower one, so a kill loses nothing but requests in flight. The command puts a finished file
  // into the seeded order afterwards (`inJudgeOrder`), so the artefact is still deterministic.
  const write = (line: Judgment) => {
    deps.write(line);
    written += 1;
    byStatus[line.status] += 1;
    deps.progress(written, input.episodes.length, byStatus.error);
  };
  const one = async (episode: JudgeEpisode): Promise<Judgment | null> => {
    if (stopReason === null && deps.shouldStop()) stopReason = "interrupted";
    // Once stopping, nothing more is sent; what is not written is left for --resume.
    if (stopReason !== null) return null;
    const prepared = prepareEpisode(episode, input.context);
    if (prepared.kind === "not_judged")
      return judgmentLine(episode, prepared, { kind: "not_judged", reason: prepared.reason }, input.context);
    let outcome: Outcome;
    try {
      requests += 1;
      outcome = { kind: "reply", reply: await input.judge.complete(prepared.request.provider, episode.task) };
    } catch (error) {
      if (!(error instanceof FabenchError)) throw error;
      // A request the budget refused was never sent: no line, and nothing more is sent.
      if (error.code === "budget_exhausted") {
        requests -= 1;
        stopReason ??= "budget_exhausted";
        return null;
      }
      outcome = { kind: "failed", code: error.code };
    }
    const line = judgmentLine(episode, prepared, outcome, input.context);
    // Counted when it happens, not when written: a line may wait behind a slower earlier one.
    if (line.status === "error") errors += 1;
    if (input.maxErrors !== null && errors >= input.maxErrors) stopReason ??= "max_errors";
    // A reply (judged or malformed) resets the breaker; lines that sent nothing do not count.
    if (breaker.record(line.status === "error" ? line.reason : null)) stopReason ??= "breaker";
    return line;
  };
  await mapConcurrent(input.episodes, input.concurrency, async (episode) => {
    const line = await one(episode);
    if (line !== null) write(line);
  });
  const done = written === input.episodes.length;
  return {
    written,
    byStatus,
    requests,
    stopped: !done,
    stopReason: done ? null : (stopReason ?? "interrupted"),
    tripped: done ? null : breaker.tripped,
  };
}
