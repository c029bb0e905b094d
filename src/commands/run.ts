/** `fabench run`: replay the benchmark's evidence to an agent under every selected condition. */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { pilotCommands, type Plan, type Task } from "../authoring/index.ts";
import { checkAgentSpec, createAgent, isModelAgent, type Lane } from "../conditions/agents/index.ts";
import { loadTokenCounter, TurnTokenCounter } from "../conditions/execution/index.ts";
import {
  episodeKey,
  planEpisodes,
  promptTurnLimitProblems,
  RunWriter,
  runMatrix,
  type MatrixInput,
  type Shard,
  type RunRecord,
} from "../conditions/runner/index.ts";
import { BATCH_PRICE_FACTOR, Budget, realTiming } from "../providers/index.ts";
import {
  canonicalSha256,
  compareCodePoints,
  acquireWriteLock,
  FabenchError,
  inputError,
  makeFolders,
  usageError,
  writeFailure,
  type WriteLock,
} from "../core/index.ts";
import { load, loadCheckedCorpus } from "./benchmark.ts";
import { breakerLine } from "./breaker.ts";
import { prerequisiteFor, renderBlocking, unlockRecord } from "./conveyor.ts";
import { estimateRun } from "./estimate.ts";
import { loadConditionManifest, loadPrice, readTextFile } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";
import {
  catalogFiles,
  checkManifest,
  checkOutputNotInput,
  checkSelection,
  dropErrorRecords,
  prepareResume,
  runMetadata,
  systemPromptPath,
} from "./run-setup.ts";

export interface RunOptions {
  readonly agent: string;
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly conditionsManifest: string;
  readonly conveyor: string;
  readonly out?: string;
  readonly trials: number;
  readonly conditions?: readonly string[];
  readonly catalogSizes?: readonly number[];
  readonly tasks?: string;
  readonly shard?: Shard;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly retryErrors: boolean;
  readonly maxErrors?: number;
  /** Stop after this many infrastructure errors in a row with the same code (0: never). */
  readonly breaker: number;
  readonly tokenizer: string;
  readonly estimate: boolean;
  readonly prices?: string;
  readonly budgetUsd?: number;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly maxResponseBytes?: number;
  readonly toolProtocol: "native" | "text";
  readonly openaiApi: "chat" | "responses";
  readonly lane: Lane;
  readonly modelRevision?: string;
  readonly temperature: number;
  readonly maxOutputTokens: number;
  readonly seed?: number;
  readonly promptCache: boolean;
  readonly requestTimeout: number;
  readonly maxRetries: number;
  readonly retryBaseDelay: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly agentArg: readonly string[];
  readonly passEnv: readonly string[];
  readonly agentTimeout: number;
  readonly batch: boolean;
  readonly batchPollMs: number;
  readonly batchResubmit: boolean;
  readonly json: boolean;
  /** The environment the CLI hands over (API keys are read from it and never written anywhere). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export async function run(options: RunOptions, io: CliIo): Promise<number> {
  checkAgentSpec(options.agent, options.baseUrl);
  if (!options.estimate && options.out === undefined)
    throw usageError("missing_out", "--out is required (or use --estimate)");
  if (
    options.batch &&
    options.resume === false &&
    options.out !== undefined &&
    existsSync(`${options.out}.batches.json`)
  )
    throw usageError(
      "output_exists",
      `${options.out}.batches.json exists; add --resume to continue that batch run`,
    );
  if (options.budgetUsd !== undefined && options.prices === undefined)
    throw usageError("budget_needs_prices", "--budget-usd needs --prices FILE");
  const loaded = load({
    protocol: options.protocol,
    plan: options.plan,
    catalogs: options.catalogs,
    forbiddenCorpus: [],
  });
  const { protocol } = loaded;
  const promptPath = systemPromptPath(options.protocol, protocol);
  const out = options.out ?? "";
  if (!options.estimate) {
    checkOutputNotInput(out, [
      options.protocol,
      options.plan,
      options.corpus,
      options.conditionsManifest,
      options.conveyor,
      promptPath,
      ...catalogFiles(options.catalogs, protocol.catalog_sizes),
    ]);
    if (existsSync(out) && !options.resume)
      throw usageError("output_exists", `${out} exists; add --resume to continue it, or choose a new --out`);
  }
  // The prerequisite lock: model agents are answer inference; nothing is sent while it is unmet.
  if (isModelAgent(options.agent) && !options.estimate) {
    const status = prerequisiteFor(protocol, options.conveyor);
    if (!status.satisfied)
      throw new FabenchError({
        kind: "blocked",
        stage: "run",
        code: "prerequisite_unmet",
        message: "",
        problems: [
          {
            code: "prerequisite_unmet",
            file: options.conveyor,
            message: `answer inference is locked until ${protocol.prerequisites.gate_stage} succeeds; blocking:\n${renderBlocking(status)}\n${lockedHint(options)}`,
          },
        ],
      });
  }
  const price = loadPrice(options.prices, options.agent);
  const budget = new Budget(options.budgetUsd ?? null, price, options.batch ? BATCH_PRICE_FACTOR : 1);
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const manifest = loadConditionManifest(options.conditionsManifest).value;
  checkManifest(manifest, loaded, corpus, options.conditionsManifest);

  const conditions = options.conditions ?? protocol.conditions.map((c) => c.id);
  const catalogSizes = options.catalogSizes ?? protocol.catalog_sizes;
  const selection = { conditions, catalogSizes, trials: options.trials, tasks: options.tasks ?? null };
  const episodes = planEpisodes(corpus.tasks, loaded.plan, selection, options.shard ?? null);
  checkSelection(manifest, protocol, episodes, conditions, catalogSizes);

  const systemPrompt = readTextFile(promptPath, "protocol").text;
  // The agent is told the limit it runs under; a prompt that says another number is refused.
  const stated = promptTurnLimitProblems(systemPrompt, protocol)[0];
  if (stated !== undefined) throw inputError("protocol", stated.code, stated.message, { file: promptPath });
  const counter = await loadTokenCounter(options.tokenizer);
  const generation = {
    temperature: options.temperature,
    max_output_tokens: options.maxOutputTokens,
    seed: options.seed ?? null,
    prompt_cache: options.promptCache,
  };
  // One writer per run file: the lock comes before anything reads or writes the run file or its
  // batch checkpoint (a batch agent reads the checkpoint when it is made) and is held to the end.
  const lock = options.estimate ? null : runFileLock(out, io);
  try {
    const agent = await createAgent({
      spec: options.estimate ? "reference" : options.agent,
      requestMoreTools: protocol.agent_loop.request_more_tools_token,
      env: options.env,
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
      ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
      toolProtocol: options.toolProtocol,
      openaiApi: options.openaiApi,
      lane: options.lane,
      ...(options.modelRevision !== undefined ? { modelRevision: options.modelRevision } : {}),
      generation,
      requestTimeoutMs: options.requestTimeout,
      maxRetries: options.maxRetries,
      retryBaseDelayMs: options.retryBaseDelay,
      ...(options.rpm !== undefined ? { rpm: options.rpm } : {}),
      ...(options.tpm !== undefined ? { tpm: options.tpm } : {}),
      budget,
      agentArgs: options.agentArg,
      passEnv: options.passEnv,
      agentTimeoutMs: options.agentTimeout,
      taskSetSha256: corpus.tasksSha256,
      tokens: counter,
      timing: realTiming,
      ...(options.batch && !options.estimate
        ? {
            batch: {
              checkpointPath: `${out}.batches.json`,
              pollMs: options.batchPollMs,
              resubmitUnknown: options.batchResubmit,
            },
          }
        : {}),
    });
    const metadata = runMetadata({
      loaded,
      corpus,
      manifest,
      agent: agent.identity,
      tokenizer: counter.name,
      systemPrompt,
      trials: options.trials,
      selection: {
        conditions: [...conditions],
        catalog_sizes: [...catalogSizes],
        tasks: options.tasks ?? null,
        ...selectedTasks(corpus.tasks, loaded.plan, selection),
      },
      unlockedBy: isModelAgent(options.agent) ? unlockRecord(protocol, options.conveyor) : null,
    });
    const matrix: Omit<MatrixInput, "maxErrors"> = {
      episodes,
      agent,
      catalogs: new Map(loaded.catalogs.map((c) => [c.size, c.catalog])),
      manifest,
      settings: {
        maxTurns: protocol.agent_loop.max_turns,
        systemPrompt,
        incompleteMessage: protocol.agent_loop.incomplete_task_message,
        requestMoreTools: protocol.agent_loop.request_more_tools_token,
      },
      tokens: new TurnTokenCounter(counter),
      metadata,
      shard: options.shard ? `${options.shard.index}/${options.shard.count}` : null,
      // Batch mode advances every pending episode together, one turn per batch.
      concurrency: options.batch ? Math.max(1, episodes.length) : options.concurrency,
    };
    if (options.estimate) {
      const estimate = await estimateRun(
        matrix,
        options.maxOutputTokens,
        price,
        options.batch ? BATCH_PRICE_FACTOR : 1,
      );
      if (options.json) printJson(io, { agent: options.agent, ...estimate });
      else io.out(renderEstimate(options.agent, estimate));
      return EXIT.ok;
    }
    // One free request to the provider before anything is written: a dead or mistyped base URL or
    // a refused key ends the run here (exit 2), not after every episode has retried it.
    if (episodes.length > 0) await agent.preflight?.();
    return await execute(options, out, matrix, episodes, budget, io, lock);
  } finally {
    lock?.release();
  }
}

interface RunFileLock {
  /** Takes the lock if it is not held yet (refused: exit 2, naming the writer that holds it). */
  readonly take: () => void;
  readonly release: () => void;
}

/**
 * The run file's write lock, taken at once when the run file's folder exists. A folder that does
 * not exist yet holds neither a run file nor a checkpoint: its lock is taken when `execute` has
 * made the folder, so a refused run leaves no folder behind.
 */
function runFileLock(out: string, io: CliIo): RunFileLock {
  let lock: WriteLock | null = null;
  const take = () => {
    lock ??= acquireWriteLock(out, { command: "fabench run", warn: (line) => io.err(`${line}\n`) });
  };
  if (existsSync(dirname(out))) take();
  return { take, release: () => lock?.release() };
}

async function execute(
  options: RunOptions,
  out: string,
  matrix: Omit<MatrixInput, "maxErrors">,
  episodes: MatrixInput["episodes"],
  budget: Budget,
  io: CliIo,
  lock: RunFileLock | null,
): Promise<number> {
  // Every check before reading the run file has passed: its folder may be made now (runs/ in a
  // fresh project), and the lock taken there before the file is read or rewritten.
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
  lock?.take();
  if (options.resume && options.retryErrors) {
    const dropped = dropErrorRecords(out);
    if (dropped > 0) io.err(`${out}: ${dropped} error-coded episode(s) will be run again\n`);
  }
  const resume = options.resume
    ? prepareResume(out, matrix.metadata, episodes)
    : { done: new Set<string>(), droppedTornBytes: 0 };
  const pending = episodes.filter((e) => !resume.done.has(episodeKey(e)));
  if (resume.droppedTornBytes > 0)
    io.err(
      `${out}: dropped a torn last line (${resume.droppedTornBytes} bytes) left by an interrupted run\n`,
    );
  let stopping = false;
  const removeHandler = io.onInterrupt?.(() => {
    stopping = true;
    io.err("\ninterrupt: finishing the episodes in flight, then stopping\n");
  });
  const writer = new RunWriter(out, io.runWriterFs);
  const clock = () => performance.now();
  // A failed write (a full disk) stops the run like an interrupt: the episodes in flight finish,
  // nothing more is written, and the run ends with cannot_write (exit 2), resumable.
  const append = (record: RunRecord) => {
    try {
      writer.append(record);
    } catch {
      stopping = true;
    }
  };
  let result;
  try {
    result = await runMatrix(
      { ...matrix, episodes: pending, maxErrors: options.maxErrors ?? null, breaker: options.breaker },
      {
        now: () => new Date(),
        clock,
        append,
        progress: progressReporter(io, `run ${out}`, clock),
        shouldStop: () => stopping,
      },
    );
  } finally {
    writer.close();
    removeHandler?.();
  }
  if (writer.failure !== null) {
    io.err(
      `${out}: the run stopped because a record could not be written; free space (or fix the cause), then continue with the same command and --resume\n`,
    );
    throw writer.failure;
  }
  const summary = {
    ok: !result.stopped && !(result.finished > 0 && result.errors === result.finished),
    out,
    planned: episodes.length,
    skipped: resume.done.size,
    written: result.finished,
    errors: result.errors,
    stopped: result.stopped,
    stop_reason: result.stopReason,
    breaker: result.tripped,
    spent_usd: budget.priced ? Math.round(budget.spentUsd * 10_000) / 10_000 : null,
  };
  if (options.json) printJson(io, summary);
  else
    io.out(
      `${out}: ${result.finished} episode(s) written, ${resume.done.size} already finished, ${result.errors} infrastructure error(s)${budget.priced ? `, $${summary.spent_usd} spent` : ""}\n`,
    );
  // A run in which every episode failed measured nothing: it must not look like success.
  if (!result.stopped && result.finished > 0 && result.errors === result.finished) {
    io.err(
      `${out}: every one of the ${result.finished} episode(s) ended in an infrastructure error: nothing was measured; fix the cause (see each record's error_code), then rerun with --resume --retry-errors\n`,
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
    max_errors: `stopped after ${result.errors} infrastructure errors (--max-errors)`,
    breaker: "stopped by the circuit breaker (--breaker)",
    budget_exhausted: "stopped before a request that could exceed --budget-usd",
  }[result.stopReason ?? "interrupted"];
  io.err(
    `${why}; continue with the same command and --resume${result.errors > 0 ? " (add --retry-errors to rerun error-coded episodes)" : ""}\n`,
  );
  return result.stopReason === "interrupted" ? 130 : EXIT.failed;
}

function renderEstimate(agent: string, e: Awaited<ReturnType<typeof estimateRun>>): string {
  const lines = [
    `estimate for ${agent}: ${e.episodes} episodes, ${e.model_calls} model calls (as the reference agent would take them); nothing was sent`,
    "condition          episodes  calls  input tokens  tool-schema tokens  max output tokens",
  ];
  for (const [condition, c] of Object.entries(e.per_condition))
    lines.push(
      `${condition.padEnd(18)} ${String(c.episodes).padStart(8)} ${String(c.model_calls).padStart(6)} ${String(c.input_tokens).padStart(13)} ${String(c.tool_schema_tokens).padStart(19)} ${String(c.max_output_tokens).padStart(18)}`,
    );
  lines.push(
    e.cost_usd === null
      ? "cost: unknown (give --prices FILE)"
      : `cost: $${e.cost_usd.expected} expected, $${e.cost_usd.worst_case} worst case, $${e.cost_usd.expected_with_prompt_cache} with prompt caching (cache writes not priced)`,
  );
  return `${lines.join("\n")}\n`;
}

/** The tasks the selection covers before sharding: their count and the hash of their sorted ids. */
function selectedTasks(tasks: readonly Task[], plan: Plan, selection: Parameters<typeof planEpisodes>[2]) {
  const ids = [
    ...new Set(planEpisodes(tasks, plan, { ...selection, trials: 1 }, null).map((e) => e.semantic_task_id)),
  ].sort(compareCodePoints);
  return { task_count: ids.length, task_ids_sha256: canonicalSha256(ids) };
}

/**
 * What the lock's refusal offers instead of a run line that exits 3: the same agent in a pilot,
 * the commands that work today (the run's other options, such as --base-url, go on its run lines).
 */
function lockedHint(options: Pick<RunOptions, "agent" | "prices">): string {
  const lines = pilotCommands({
    prefix: "fabench",
    agent: options.agent,
    ...(options.prices === undefined ? {} : { prices: options.prices }),
  });
  return [
    "to answer with this agent today, run a pilot (power and cost planning, never the claim; add this command's other options to its run lines):",
    ...lines.map((l) => `  ${l}`),
  ].join("\n");
}
