import { loadTokenCounter } from "../../conditions/execution/index.ts";
import { checkOutput, usageError } from "../../core/index.ts";
import {
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
} from "../../judge/index.ts";
import { Budget, checkConnection, isProviderKind } from "../../providers/index.ts";
import { providerOf } from "../../conditions/agents/index.ts";
import { loadPrice } from "../shell/prices.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { worldHooks } from "../shell/world-hooks.ts";
import { endOfRun, refuseExistingOutput, stopOnInterrupt, withOutputLock } from "../shell/resumable.ts";
import { progressReporter } from "../shell/progress.ts";
import { readMergedRuns } from "../shell/run-files.ts";
import { catalogFiles, loadBenchmark, loadCheckedCorpus, type Benchmark } from "../../world/index.ts";

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
  // The key and where it goes, before anything is read: a missing key comes back at once.
  const { kind } = providerOf(options.judge);
  if (!options.estimate && isProviderKind(kind)) checkConnection({ ...options, kind });
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
  const corpus = await loadCheckedCorpus(loaded, options.corpus, worldHooks(io, options.json));
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
  // Every check has passed: the folder is made and the lock taken before the output is read.
  return withOutputLock(out, "fabench judge run", io, async () => {
    const resumed = resumeJudgments(out, options, episodes, context, (text) => io.err(text));
    const signal = stopOnInterrupt(io, "requests");
    let result: JudgeRunResult;
    try {
      result = await judgeIntoFile(out, resumed.pending, judge, context, options, {
        progress: progressReporter(io, `judge ${out}`, clock),
        shouldStop: signal.shouldStop,
      });
    } finally {
      signal.remove();
    }
    const summary = finishJudgments(out, episodes, context, resumed.done.size, result, budget);
    if (options.json) printJson(io, summary);
    else io.out(renderJudgingSummary(summary, budget.priced));
    return endOfRun(
      io,
      { ...result, attempts: result.requests, errors: result.byStatus.error },
      {
        breaker: options.breaker,
        allFailed: `${out}: every one of the ${result.requests} request(s) failed: nothing was judged; fix the cause (see each line's reason), then rerun with --resume --retry-errors`,
        retryHint: " (add --retry-errors to send the failed requests again)",
      },
    );
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
      ...catalogFiles(options.catalogs, loaded.protocol.catalog_sizes),
    ],
  });
  refuseExistingOutput(out, options.resume);
}
