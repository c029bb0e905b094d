/** `fabench run`: replay the benchmark's evidence to an agent under every selected condition. */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { isModelAgent } from "../../conditions/agents/index.ts";
import { loadTokenCounter } from "../../conditions/execution/index.ts";
import {
  checkSearchAgent,
  checkSystemPrompt,
  episodeKey,
  matrixInput,
  planRun,
  resumeRunFile,
  runMetadata,
  type MatrixInput,
} from "../../conditions/runner/index.ts";
import { BATCH_PRICE_FACTOR, Budget } from "../../providers/index.ts";
import { readTextFile } from "../../core/index.ts";
import {
  checkManifest,
  loadBenchmark,
  loadCheckedCorpus,
  loadConditionManifest,
  systemPromptPath,
  unlockRecord,
} from "../../world/index.ts";
import { loadPrice } from "../shell/prices.ts";
import { printJson, type CliIo } from "../shell/io.ts";
import { worldHooks } from "../shell/world-hooks.ts";
import {
  endOfRun,
  everyAttemptFailed,
  exitOnInterrupt,
  openOutput,
  outputLock,
  type OutputLock,
} from "../shell/resumable.ts";
import { makeAgent } from "./agent.ts";
import { printEstimate } from "./estimate.ts";
import { runPending } from "./pending.ts";
import { groupRunOptions, type RunOptions, type RunSettings } from "./options.ts";
import { checkPrerequisite, checkRunOptions, checkRunOutput } from "./setup.ts";

export type { RunOptions } from "./options.ts";

type Matrix = Omit<MatrixInput, "maxErrors">;

/**
 * Until the first episode starts (loading and checking the world, the preflight) nothing is in
 * flight: an interrupt exits at once with the resume line instead of waiting for the setup to end.
 */
export async function run(options: RunOptions, io: CliIo): Promise<number> {
  const setup = exitOnInterrupt(io, "before the first episode");
  try {
    return await setUpAndRun(options, io, setup.remove);
  } finally {
    setup.remove();
  }
}

async function setUpAndRun(options: RunOptions, io: CliIo, setupDone: () => void): Promise<number> {
  const settings = groupRunOptions(options);
  const { inputs, agent, output, limits } = settings;
  checkRunOptions(settings);
  const hooks = worldHooks(io, output.json);
  const loaded = loadBenchmark(inputs, hooks);
  const { protocol } = loaded;
  const promptPath = systemPromptPath(inputs.protocol, protocol);
  const out = output.out ?? "";
  if (!output.estimate) checkRunOutput(settings, out, protocol, promptPath);
  if (!output.estimate) checkPrerequisite(settings, protocol);
  const price = loadPrice(limits.prices, agent.spec);
  const budget = new Budget(limits.budgetUsd ?? null, price, agent.batch.enabled ? BATCH_PRICE_FACTOR : 1);
  const corpus = await loadCheckedCorpus(loaded, inputs.corpus, hooks);
  hooks.progress?.("checking the condition manifest…");
  const manifest = loadConditionManifest(inputs.conditionsManifest).value;
  checkManifest(manifest, loaded, corpus, inputs.conditionsManifest);
  const { episodes, selection } = planRun(settings.selection, loaded, corpus, manifest);
  checkSearchAgent(protocol, selection.conditions, agent.spec, agent.provider);
  const systemPrompt = readTextFile(promptPath, "protocol").text;
  checkSystemPrompt(systemPrompt, protocol, promptPath);
  const counter = await loadTokenCounter(agent.tokenizer);
  // One writer per run file: the lock comes before anything reads or writes the run file or its
  // batch checkpoint (a batch agent reads the checkpoint when it is made) and is held to the end.
  // A folder that does not exist yet holds neither a run file nor a checkpoint: its lock is taken
  // when `execute` has made the folder, so a refused run leaves no folder behind.
  const lock = outputLock(out, "fabench run", io);
  if (!output.estimate && existsSync(dirname(out))) lock.take();
  try {
    const made = await makeAgent(settings, { protocol, budget, corpus, counter, out });
    const metadata = runMetadata({
      loaded,
      corpus,
      manifest,
      agent: made.identity,
      tokenizer: counter.name,
      systemPrompt,
      trials: settings.selection.trials,
      selection,
      unlockedBy: isModelAgent(agent.spec) ? unlockRecord(protocol, inputs.conveyor) : null,
      progressiveTrigger: settings.progressiveTrigger,
    });
    const matrix = matrixInput({
      episodes,
      agent: made,
      loaded,
      manifest,
      systemPrompt,
      counter,
      metadata,
      shard: settings.selection.shard,
      concurrency: limits.concurrency,
      batch: agent.batch.enabled,
    });
    if (output.estimate) return await printEstimate(settings, matrix, price, io);
    // One free request to the provider before anything is written: a dead or mistyped base URL or
    // a refused key ends the run here (exit 2), not after every episode has retried it.
    if (episodes.length > 0) await made.preflight?.();
    setupDone();
    return await execute(settings, out, matrix, budget, io, lock);
  } finally {
    lock.release();
  }
}

async function execute(
  settings: RunSettings,
  out: string,
  matrix: Matrix,
  budget: Budget,
  io: CliIo,
  lock: OutputLock,
): Promise<number> {
  // Every check before reading the run file has passed: its folder may be made now (runs/ in a
  // fresh project), and the lock taken there before the file is read or rewritten.
  openOutput(out, lock);
  const resume = resumeRunFile(out, settings.output, matrix.metadata, matrix.episodes, io.err);
  const pending = matrix.episodes.filter((e) => !resume.done.has(episodeKey(e)));
  const result = await runPending(settings, out, { ...matrix, episodes: pending }, io);
  const end = { ...result, attempts: result.finished };
  const summary = {
    ok: !result.stopped && !everyAttemptFailed(end),
    out,
    planned: matrix.episodes.length,
    skipped: resume.done.size,
    written: result.finished,
    errors: result.errors,
    stopped: result.stopped,
    stop_reason: result.stopReason,
    breaker: result.tripped,
    spent_usd: budget.priced ? Math.round(budget.spentUsd * 10_000) / 10_000 : null,
  };
  if (settings.output.json) printJson(io, summary);
  else
    io.out(
      `${out}: ${result.finished} episode(s) written, ${resume.done.size} already finished, ${result.errors} infrastructure error(s)${budget.priced ? `, $${summary.spent_usd} spent` : ""}\n`,
    );
  return endOfRun(io, end, {
    breaker: settings.limits.breaker,
    allFailed: `${out}: every one of the ${result.finished} episode(s) ended in an infrastructure error: nothing was measured; fix the cause (see each record's error_code), then rerun with --resume --retry-errors`,
    retryHint: " (add --retry-errors to rerun error-coded episodes)",
  });
}
