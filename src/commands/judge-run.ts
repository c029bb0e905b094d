/**
 * `fabench judge run`: the optional secondary judge rates the answers that run files already hold.
 * The I/O shell: it reads and checks the inputs (protocol, frozen prompt, corpus, catalogs, run
 * files), builds the judge (provider client or command agent, with the same keys, retries, rate
 * limits, budget and reply cap as `fabench run`), takes the output's write lock, resumes, and writes
 * one judgment line per episode. Answer inference is not involved — the answers exist — so the
 * prerequisite lock does not apply.
 */
import { existsSync, truncateSync } from "node:fs";
import { dirname, join } from "node:path";
import { catalogFileName } from "../conditions/catalog/index.ts";
import type { Task } from "../authoring/index.ts";
import { createAgent, providerOf } from "../conditions/agents/index.ts";
import { loadTokenCounter, type TokenCounter } from "../conditions/execution/index.ts";
import type { RunRecord } from "../conditions/runner/index.ts";
import {
  acquireWriteLock,
  checkOutput,
  decodeUtf8,
  episodeKey,
  FabenchError,
  inputError,
  makeFolders,
  readBytes,
  usageError,
  writeFailure,
  writeFileAtomic,
} from "../core/index.ts";
import {
  agentJudge,
  finishedEpisodes,
  inJudgeOrder,
  episodeAnswer,
  estimateJudging,
  forbiddenTerms,
  judgeEpisodes,
  judgeOrder,
  JudgmentWriter,
  judgmentsError,
  JUDGMENTS_STAGE,
  loadJudgePrompt,
  makeBlinder,
  parseJudgmentsText,
  providerJudge,
  renderEstimate,
  RESPONSE_FORMAT_NAME,
  type Judge,
  type JudgeContext,
  type JudgeEpisode,
  type JudgingIdentity,
} from "../judge/index.ts";
import {
  Budget,
  checkBaseUrl,
  createClient,
  DEFAULT_RETRY,
  RateLimiter,
  realTiming,
  redactUrl,
  type GenerationSettings,
} from "../providers/index.ts";
import { load, loadCheckedCorpus, type LoadedBenchmark } from "./benchmark.ts";
import { loadPrice } from "./inputs.ts";
import { breakerLine } from "./breaker.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { readMergedRuns } from "./run-files.ts";
import { progressReporter } from "./progress.ts";

export interface JudgeRunOptions {
  readonly runs: readonly string[];
  /** `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL` or `command:PATH`. */
  readonly judge: string;
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly out?: string;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly retryErrors: boolean;
  readonly maxErrors?: number;
  /** Stop after this many failed requests in a row with the same code (0: never). */
  readonly breaker: number;
  /** The shuffle's seed (default: the protocol's statistics.seed). */
  readonly seed?: number;
  readonly estimate: boolean;
  readonly prices?: string;
  readonly budgetUsd?: number;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly maxResponseBytes?: number;
  readonly openaiApi: "chat" | "responses";
  readonly temperature: number;
  readonly maxOutputTokens: number;
  readonly requestTimeout: number;
  readonly maxRetries: number;
  readonly retryBaseDelay: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly agentArg: readonly string[];
  readonly passEnv: readonly string[];
  readonly agentTimeout: number;
  readonly json: boolean;
  /** `--allow-live-file`: judge a snapshot of a run file a live writer holds. */
  readonly allowLiveFile?: boolean;
  /** The environment the CLI hands over (API keys are read from it and never written anywhere). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const JUDGE_FORMS = "anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH";

/** Refuses a spec that names no judge — the reference agent included, which rates nothing — before anything is read. */
function checkJudgeSpec(spec: string, baseUrl: string | undefined): void {
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  if (spec === "reference")
    throw usageError(
      "reference_not_a_judge",
      `the reference agent follows fixtures and cannot rate answers; --judge takes ${JUDGE_FORMS}`,
    );
  const { kind, target } = providerOf(spec);
  if (!["anthropic", "openai", "openai-compatible", "command"].includes(kind) || target === "")
    throw usageError("unknown_judge", `--judge takes ${JUDGE_FORMS}, not ${spec}`);
}

export async function judgeRun(options: JudgeRunOptions, io: CliIo): Promise<number> {
  checkJudgeSpec(options.judge, options.baseUrl);
  if (options.runs.length === 0) throw usageError("no_runs", "give at least one run file");
  if (!options.estimate && options.out === undefined)
    throw usageError("missing_out", "--out is required (or use --estimate)");
  if (options.budgetUsd !== undefined && options.prices === undefined)
    throw usageError("budget_needs_prices", "--budget-usd needs --prices FILE");
  const loaded = load({
    protocol: options.protocol,
    plan: options.plan,
    catalogs: options.catalogs,
    forbiddenCorpus: [],
  });
  const { protocol } = loaded;
  // The frozen prompt first: a changed prompt is refused before any run file is read.
  const prompt = loadJudgePrompt(options.protocol, protocol);
  const out = options.out ?? "";
  if (!options.estimate) {
    checkOutput(out, {
      inputs: [
        ...options.runs,
        options.protocol,
        options.plan,
        options.corpus,
        prompt.file,
        ...protocol.catalog_sizes.map((s) => join(options.catalogs, catalogFileName(s))),
      ],
    });
    if (existsSync(out) && !options.resume)
      throw usageError("output_exists", `${out} exists; add --resume to continue it, or choose a new --out`);
  }
  const price = loadPrice(options.prices, options.judge);
  const budget = new Budget(options.budgetUsd ?? null, price);
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const records = readRuns(options, loaded, corpus.tasksSha256, io);
  const tasks = new Map<string, Task>(corpus.tasks.map((t) => [t.semantic_task_id, t]));
  const seed = options.seed ?? protocol.statistics.seed;
  const episodes = judgeOrder(
    records.map((r) => toEpisode(r, tasks)),
    seed,
  );
  const counter = await loadTokenCounter();
  const settings: GenerationSettings = {
    temperature: options.temperature,
    max_output_tokens: options.maxOutputTokens,
    seed: null,
    prompt_cache: false,
  };
  const blind = makeBlinder(
    forbiddenTerms(
      loaded.catalogs.map((c) => c.catalog),
      protocol.conditions.map((c) => c.id),
    ),
  );
  const base = {
    judge: protocol.judge,
    prompt,
    protocolSha256: loaded.protocolSha256,
    blind,
    settings,
    seed,
  };
  if (options.estimate) {
    const context: JudgeContext = { ...base, identity: { agent: options.judge, model: null, settings: {} } };
    const estimate = estimateJudging(episodes, context, counter, price);
    if (options.json) printJson(io, { judge: options.judge, ...estimate });
    else io.out(renderEstimate(options.judge, estimate));
    return EXIT.ok;
  }
  const judge = await createJudge(options, settings, budget, counter, corpus.tasksSha256, loaded);
  const context: JudgeContext = { ...base, identity: judge.identity };
  // One free request to the provider before anything is written: a dead or mistyped base URL or a
  // refused key ends the run here (exit 2), not after every request has retried it.
  if (episodes.length > 0) await judge.preflight?.();
  // Every check has passed: the folder may be made, and the lock taken before the file is read.
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
  const lock = acquireWriteLock(out, { command: "fabench judge run", warn: (line) => io.err(`${line}\n`) });
  try {
    return await execute(options, out, episodes, judge, context, budget, io);
  } finally {
    lock.release();
  }
}

/** Run files read as `score` reads them, merged under one metadata, and checked against these inputs. */
function readRuns(
  options: JudgeRunOptions,
  loaded: LoadedBenchmark,
  corpusTasksSha256: string,
  io: CliIo,
): RunRecord[] {
  const { merged } = readMergedRuns(options.runs, options, io, "judge");
  const metadata = merged.records[0]?.metadata;
  if (!metadata) throw inputError("judge", "empty_runs", "the run files hold no records");
  const differ: string[] = [];
  if (metadata.protocol_sha256 !== loaded.protocolSha256) differ.push("protocol (--protocol)");
  if (metadata.corpus_tasks_sha256 !== corpusTasksSha256) differ.push("corpus (--corpus)");
  // The catalogs name the routes the judge must not see: they must be the run's own.
  const catalogs = new Map(loaded.catalogs.map((c) => [c.size, c.catalog.sha256]));
  if (metadata.catalogs.some((c) => catalogs.get(c.size) !== c.sha256)) differ.push("catalogs (--catalogs)");
  if (differ.length > 0)
    throw inputError(
      "judge",
      "run_input_mismatch",
      `the runs were made from another ${differ.join(", ")} than the one given; give the inputs they were run with`,
      { file: options.runs[0] as string },
    );
  return merged.records;
}

function toEpisode(record: RunRecord, tasks: ReadonlyMap<string, Task>): JudgeEpisode {
  const task = tasks.get(record.semantic_task_id);
  if (!task) throw new Error(`${record.semantic_task_id} is not in the corpus (its hash was checked; a bug)`);
  return {
    key: {
      semantic_task_id: record.semantic_task_id,
      catalog_size: record.catalog_size,
      condition: record.condition,
      trial: record.trial,
    },
    task,
    status: record.status,
    finalText: record.final_text,
  };
}

/** The judge: a provider client with run's reliability and structured output, or a command agent. */
async function createJudge(
  options: JudgeRunOptions,
  settings: GenerationSettings,
  budget: Budget,
  counter: TokenCounter,
  taskSetSha256: string,
  loaded: LoadedBenchmark,
): Promise<Judge> {
  const { kind, target } = providerOf(options.judge);
  if (kind === "command")
    return agentJudge(
      await createAgent({
        spec: options.judge,
        requestMoreTools: loaded.protocol.agent_loop.request_more_tools_token,
        env: options.env,
        toolProtocol: "native",
        openaiApi: options.openaiApi,
        lane: "configured-model",
        generation: settings,
        requestTimeoutMs: options.requestTimeout,
        maxRetries: options.maxRetries,
        agentArgs: options.agentArg,
        passEnv: options.passEnv,
        agentTimeoutMs: options.agentTimeout,
        taskSetSha256,
        tokens: counter,
        timing: realTiming,
      }),
    );
  // createClient reads the key (only from the variable named for it) and refuses a missing key,
  // a base URL with credentials or a key over plain HTTP to another host (exit 2), as for `run`.
  const provider = createClient({
    kind,
    model: target,
    env: options.env,
    openaiApi: options.openaiApi,
    timeoutMs: options.requestTimeout,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
  });
  return providerJudge({
    identity: {
      agent: kind,
      model: target,
      settings: {
        temperature: settings.temperature,
        max_output_tokens: settings.max_output_tokens,
        // Only scheme://host:port/path is recorded, as for run.
        base_url: kind === "openai-compatible" && options.baseUrl ? redactUrl(options.baseUrl) : null,
        openai_api: kind === "anthropic" ? null : options.openaiApi,
        response_format: RESPONSE_FORMAT_NAME,
      },
    },
    provider,
    retry: { ...DEFAULT_RETRY, maxRetries: options.maxRetries, baseDelayMs: options.retryBaseDelay },
    timing: realTiming,
    limiter: new RateLimiter(options.rpm ?? null, options.tpm ?? null, realTiming),
    budget,
    count: (text) => counter.count(text),
  });
}

async function execute(
  options: JudgeRunOptions,
  out: string,
  episodes: readonly JudgeEpisode[],
  judge: Judge,
  context: JudgeContext,
  budget: Budget,
  io: CliIo,
): Promise<number> {
  if (options.resume && options.retryErrors) {
    const dropped = dropErrorLines(out, context);
    if (dropped > 0) io.err(`${out}: ${dropped} error line(s) will be judged again\n`);
  }
  const identity: JudgingIdentity = {
    protocol_sha256: context.protocolSha256,
    prompt_sha256: context.prompt.sha256,
    judge: {
      agent: judge.identity.agent,
      model: judge.identity.model,
      settings: jsonOf(judge.identity.settings),
    },
    seed: context.seed,
  };
  const answers = new Map(
    episodes.map((e) => {
      const answer = episodeAnswer(e);
      return [episodeKeyOf(e), "sha256" in answer ? answer.sha256 : null] as const;
    }),
  );
  const done = options.resume ? readFinished(out, identity, answers, context, io) : new Set<string>();
  const pending = episodes.filter((e) => !done.has(episodeKeyOf(e)));
  let stopping = false;
  const removeHandler = io.onInterrupt?.(() => {
    stopping = true;
    io.err("\ninterrupt: finishing the requests in flight, then stopping\n");
  });
  const writer = new JudgmentWriter(out);
  const clock = () => performance.now();
  let result;
  try {
    result = await judgeEpisodes(
      {
        episodes: pending,
        judge,
        context,
        concurrency: options.concurrency,
        maxErrors: options.maxErrors ?? null,
        breaker: options.breaker,
      },
      {
        write: (j) => writer.append(j),
        progress: progressReporter(io, `judge ${out}`, clock),
        shouldStop: () => stopping,
      },
    );
  } finally {
    writer.close();
    removeHandler?.();
  }
  // A finished file is laid down in the seeded order: the same inputs give the same bytes however
  // the replies raced and however many resumes it took. (Lines went to disk as they came in.)
  if (!result.stopped) layDownInOrder(out, episodes, context);
  const errors = result.byStatus.error;
  const allFailed = !result.stopped && result.requests > 0 && errors === result.requests;
  const summary = {
    ok: !result.stopped && !allFailed,
    out,
    planned: episodes.length,
    skipped: done.size,
    written: result.written,
    judged: result.byStatus.judged,
    malformed: result.byStatus.malformed,
    not_judged: result.byStatus.not_judged,
    errors,
    requests: result.requests,
    stopped: result.stopped,
    stop_reason: result.stopReason,
    breaker: result.tripped,
    spent_usd: budget.priced ? Math.round(budget.spentUsd * 10_000) / 10_000 : null,
  };
  if (options.json) printJson(io, summary);
  else
    io.out(
      `${out}: ${result.written} line(s) written (${summary.judged} judged, ${summary.malformed} malformed, ${summary.not_judged} not judged, ${errors} infrastructure error(s)), ${done.size} already finished${budget.priced ? `, $${summary.spent_usd} spent` : ""}\n`,
    );
  if (allFailed) {
    io.err(
      `${out}: every one of the ${result.requests} request(s) failed: nothing was judged; fix the cause (see each line's reason), then rerun with --resume --retry-errors\n`,
    );
    return EXIT.failed;
  }
  if (!result.stopped) return EXIT.ok;
  if (result.stopReason === "breaker" && result.tripped !== null) {
    io.err(`${breakerLine(result.tripped, options.breaker)}\n`);
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
  io: CliIo,
): Set<string> {
  if (!existsSync(out)) return new Set();
  const file = readComplete(out, context);
  if (file.tornBytes > 0) {
    truncateSync(out, file.completeBytes);
    io.err(`${out}: dropped a torn last line (${file.tornBytes} bytes) left by an interrupted judge run\n`);
  }
  return finishedEpisodes(file.judgments, file.lines, identity, answers, out);
}

/** Rewrites a judgments file holding one line per episode in the order of `episodes`; its lines' bytes are kept. */
function layDownInOrder(out: string, episodes: readonly JudgeEpisode[], context: JudgeContext): void {
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
