/**
 * The judgments file `judge run` writes, as the run goes: `--retry-errors` drops its error lines,
 * `--resume` drops a torn last line and lists the episodes it finished (the rest are left to judge),
 * and a finished file is laid down in the seeded order.
 */
import { existsSync, truncateSync } from "node:fs";
import { decodeUtf8, episodeKey, FabenchError, readBytes, writeFileAtomic } from "../core/index.ts";
import { judgmentsError, JUDGMENTS_STAGE, parseJudgmentsText } from "./judgments-file.ts";
import { inJudgeOrder } from "./order.ts";
import { finishedEpisodes, type JudgingIdentity } from "./resume.ts";
import { episodeAnswer, type JudgeContext, type JudgeEpisode } from "./run.ts";

export interface ResumeChoice {
  readonly resume: boolean;
  readonly retryErrors: boolean;
}

export interface ResumedJudgments {
  /** Keys of the episodes the file already holds a line for. */
  readonly done: Set<string>;
  /** The episodes left to judge, in the seeded order. */
  readonly pending: JudgeEpisode[];
}

/**
 * What an existing judgments file leaves to judge: with --resume --retry-errors its error lines go
 * first, then (with --resume) the episodes it finished are skipped. `warn` gets each note as text
 * ending in a newline (the command's stderr).
 */
export function resumeJudgments(
  out: string,
  choice: ResumeChoice,
  episodes: readonly JudgeEpisode[],
  context: JudgeContext,
  warn: (line: string) => void,
): ResumedJudgments {
  if (choice.resume && choice.retryErrors) {
    const dropped = dropErrorLines(out, context);
    if (dropped > 0) warn(`${out}: ${dropped} error line(s) will be judged again\n`);
  }
  const identity: JudgingIdentity = {
    protocol_sha256: context.protocolSha256,
    prompt_sha256: context.prompt.sha256,
    judge: {
      agent: context.identity.agent,
      model: context.identity.model,
      settings: jsonOf(context.identity.settings),
    },
    seed: context.seed,
  };
  const answers = new Map(
    episodes.map((e) => {
      const answer = episodeAnswer(e);
      return [episodeKeyOf(e), "sha256" in answer ? answer.sha256 : null] as const;
    }),
  );
  const done = choice.resume ? readFinished(out, identity, answers, context, warn) : new Set<string>();
  const pending = episodes.filter((e) => !done.has(episodeKeyOf(e)));
  return { done, pending };
}

const episodeKeyOf = (e: JudgeEpisode) => episodeKey(e.key);

/** Settings as a judgment line holds them (through JSON), so a resume compares like with like. */
const jsonOf = (value: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(value)) as JudgingIdentity["judge"]["settings"];

/** The complete lines of a judgments file (a torn last line is not one), parsed and checked. */
function readComplete(out: string, context: JudgeContext) {
  const bytes = readBytes(out, JUDGMENTS_STAGE);
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = decodeUtf8(bytes.subarray(0, end), out, JUDGMENTS_STAGE);
  const parsed =
    text.trim() === ""
      ? { judgments: [], lines: [], problems: [] }
      : parseJudgmentsText(text, out, context.judge, context.protocolSha256);
  const error = judgmentsError(parsed.problems);
  if (error) throw error;
  return { ...parsed, text, completeBytes: end, tornBytes: bytes.length - end };
}

/**
 * For --resume: drops a torn last line (truncating the file, as a killed writer leaves one), refuses
 * a file of another judging run, and lists the episodes it finished.
 */
function readFinished(
  out: string,
  identity: JudgingIdentity,
  answers: ReadonlyMap<string, string | null>,
  context: JudgeContext,
  warn: (line: string) => void,
): Set<string> {
  if (!existsSync(out)) return new Set();
  const file = readComplete(out, context);
  if (file.tornBytes > 0) {
    truncateSync(out, file.completeBytes);
    warn(`${out}: dropped a torn last line (${file.tornBytes} bytes) left by an interrupted judge run\n`);
  }
  return finishedEpisodes(file.judgments, file.lines, identity, answers, out);
}

/** Rewrites a judgments file holding one line per episode in the order of `episodes`; its lines' bytes are kept. */
export function layDownInOrder(out: string, episodes: readonly JudgeEpisode[], context: JudgeContext): void {
  const file = readComplete(out, context);
  const texts = file.text.split("\n");
  const lines = file.judgments.map((judgment, i) => ({
    episode: judgment.episode,
    text: texts[(file.lines[i] as number) - 1] as string,
  }));
  const ordered = inJudgeOrder(lines, episodes);
  if (ordered === null)
    throw new FabenchError({
      kind: "internal",
      stage: JUDGMENTS_STAGE,
      code: "judgments_incomplete",
      message: `${out} does not hold exactly one line per episode after a finished judge run`,
    });
  writeFileAtomic(out, ordered.map((l) => `${l.text}\n`).join(""));
}

/** For --retry-errors: rewrites the file without its error lines (and any torn tail); returns how many went. */
function dropErrorLines(out: string, context: JudgeContext): number {
  if (!existsSync(out)) return 0;
  const file = readComplete(out, context);
  const errorLines = new Set(file.lines.filter((_, i) => file.judgments[i]?.status === "error"));
  if (errorLines.size === 0) return 0;
  const kept = file.text
    .split("\n")
    .filter((line, i) => line.trim() !== "" && !errorLines.has(i + 1))
    .map((line) => `${line}\n`)
    .join("");
  writeFileAtomic(out, kept);
  return errorLines.size;
}
