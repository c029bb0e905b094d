/**
 * `fabench judge run`: the optional secondary judge rates the answers that run files already hold.
 * The I/O shell, wiring only: it checks the options, reads and checks the inputs (protocol, frozen
 * prompt, corpus, catalogs, run files), has the judge stage (`src/judge/`) make the judge (with the
 * same keys, retries, rate limits, budget and reply cap as `fabench run`) and judge, takes the
 * output's write lock, and prints. Answer inference is not involved — the answers exist — so the
 * prerequisite lock does not apply.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { catalogFileName } from "../conditions/catalog/index.ts";
import { loadTokenCounter } from "../conditions/execution/index.ts";
import { acquireWriteLock, checkOutput, makeFolders, usageError, writeFailure } from "../core/index.ts";
import {
  allRequestsFailed,
  checkJudgeSpec,
  checkRunInputs,
  createJudge,
  estimateJudgingFor,
  finishJudgments,
  judgeIntoFile,
  loadJudgePrompt,
  planJudging,
  renderEstimate,
  renderJudgingSummary,
  resumeJudgments,
  type JudgeClientOptions,
  type JudgeRunResult,
  type JudgingChoices,
  type JudgingLimits,
  type ResumeChoice,
  type ResumedJudgments,
} from "../judge/index.ts";
import { Budget } from "../providers/index.ts";
import { breakerLine } from "./breaker.ts";
import { loadPrice } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";
import { readMergedRuns } from "./run-files.ts";
import { loadBenchmark, loadCheckedCorpus, type Benchmark } from "../world/index.ts";

export interface JudgeRunOptions extends JudgeClientOptions, JudgingChoices, JudgingLimits, ResumeChoice {
  readonly runs: readonly string[];
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly out?: string;
  readonly estimate: boolean;
  readonly prices?: string;
  readonly budgetUsd?: number;
  readonly json: boolean;
  /** `--allow-live-file`: judge a snapshot of a run file a live writer holds. */
  readonly allowLiveFile?: boolean;
}

export async function judgeRun(options: JudgeRunOptions, io: CliIo): Promise<number> {
  checkJudgeSpec(options.judge, options.baseUrl);
  if (options.runs.length === 0) throw usageError("no_runs", "give at least one run file");
  if (!options.estimate && options.out === undefined)
    throw usageError("missing_out", "--out is required (or use --estimate)");
  if (options.budgetUsd !== undefined && options.prices === undefined)
    throw usageError("budget_needs_prices", "--budget-usd needs --prices FILE");
  const loaded = loadBenchmark({
    protocol: options.protocol,
    plan: options.plan,
    catalogs: options.catalogs,
    forbiddenCorpus: [],
  });
  const { protocol } = loaded;
  // The frozen prompt first: a changed prompt is refused before any run file is read.
  const prompt = loadJudgePrompt(options.protocol, protocol);
  const out = options.out ?? "";
  if (!options.estimate) checkOut(options, out, loaded, prompt.file);
  const price = loadPrice(options.prices, options.judge);
  const budget = new Budget(options.budgetUsd ?? null, price);
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  // Run files read as `score` reads them, merged under one metadata, and checked against these inputs.
  const { merged } = readMergedRuns(options.runs, options, io, "judge");
  const records = checkRunInputs(merged.records, loaded, corpus.tasksSha256, options.runs[0] as string);
  const { episodes, base } = planJudging(loaded, { records, tasks: corpus.tasks, prompt }, options);
  const counter = await loadTokenCounter();
  if (options.estimate) {
    const estimate = estimateJudgingFor(options.judge, episodes, base, counter, price);
    if (options.json) printJson(io, { judge: options.judge, ...estimate });
    else io.out(renderEstimate(options.judge, estimate));
    return EXIT.ok;
  }
  const judge = await createJudge(options, {
    settings: base.settings,
    budget,
    counter,
    taskSetSha256: corpus.tasksSha256,
    requestMoreTools: protocol.agent_loop.request_more_tools_token,
  });
  const context = { ...base, identity: judge.identity };
  // One free request to the provider before anything is written: a dead or mistyped base URL or a
  // refused key ends the run here (exit 2), not after every request has retried it.
  if (episodes.length > 0) await judge.preflight?.();
  const clock = () => performance.now();
  return withResumableOutput(out, options.breaker, io, {
    resume: () => resumeJudgments(out, options, episodes, context, (text) => io.err(text)),
    work: (resumed, shouldStop) =>
      judgeIntoFile(out, resumed.pending, judge, context, options, {
        progress: progressReporter(io, `judge ${out}`, clock),
        shouldStop,
      }),
    finish: (resumed, result) => {
      const summary = finishJudgments(out, episodes, context, resumed.done.size, result, budget);
      if (options.json) printJson(io, summary);
      else io.out(renderJudgingSummary(summary, budget.priced));
      if (!allRequestsFailed(result)) return null;
      io.err(
        `${out}: every one of the ${result.requests} request(s) failed: nothing was judged; fix the cause (see each line's reason), then rerun with --resume --retry-errors\n`,
      );
      return EXIT.failed;
    },
  });
}

/** The output is refused before anything is read: an input's path, or an existing file without --resume. */
function checkOut(options: JudgeRunOptions, out: string, loaded: Benchmark, promptFile: string): void {
  checkOutput(out, {
    inputs: [
      ...options.runs,
      options.protocol,
      options.plan,
      options.corpus,
      promptFile,
      ...loaded.protocol.catalog_sizes.map((s) => join(options.catalogs, catalogFileName(s))),
    ],
  });
  if (existsSync(out) && !options.resume)
    throw usageError("output_exists", `${out} exists; add --resume to continue it, or choose a new --out`);
}

interface ResumableSteps {
  /** After the lock is taken: what the output already holds (--retry-errors, --resume). */
  readonly resume: () => ResumedJudgments;
  /** The work; it stops sending once `shouldStop` says so (Ctrl-C, SIGTERM). */
  readonly work: (resumed: ResumedJudgments, shouldStop: () => boolean) => Promise<JudgeRunResult>;
  /** Lays down and prints the outcome; an exit code to end with, or null to let the stop decide. */
  readonly finish: (resumed: ResumedJudgments, result: JudgeRunResult) => number | null;
}

/**
 * The resumable-run wrapper (one shared helper is to replace it): every check has passed, so the
 * output's folder may be made and its write lock taken before the file is read; the stage resumes
 * what the file holds, works until done or stopped (Ctrl-C finishes the requests in flight), and a
 * stop ends 130 when interrupted, 1 otherwise, naming how to continue.
 */
async function withResumableOutput(
  out: string,
  breaker: number,
  io: CliIo,
  steps: ResumableSteps,
): Promise<number> {
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
  const lock = acquireWriteLock(out, { command: "fabench judge run", warn: (line) => io.err(`${line}\n`) });
  try {
    const resumed = steps.resume();
    let stopping = false;
    const removeHandler = io.onInterrupt?.(() => {
      stopping = true;
      io.err("\ninterrupt: finishing the requests in flight, then stopping\n");
    });
    let result: JudgeRunResult;
    try {
      result = await steps.work(resumed, () => stopping);
    } finally {
      removeHandler?.();
    }
    const code = steps.finish(resumed, result);
    if (code !== null) return code;
    if (!result.stopped) return EXIT.ok;
    const errors = result.byStatus.error;
    if (result.stopReason === "breaker" && result.tripped !== null) {
      io.err(`${breakerLine(result.tripped, breaker)}\n`);
      return EXIT.failed;
    }
    const why = {
      interrupted: "interrupted",
      max_errors: `stopped after ${errors} infrastructure errors (--max-errors)`,
      breaker: "stopped by the circuit breaker (--breaker)",
      budget_exhausted: "stopped before a request that could exceed --budget-usd",
    }[result.stopReason ?? "interrupted"];
    io.err(
      `${why}; continue with the same command and --resume${errors > 0 ? " (add --retry-errors to send the failed requests again)" : ""}\n`,
    );
    return result.stopReason === "interrupted" ? 130 : EXIT.failed;
  } finally {
    lock.release();
  }
}
