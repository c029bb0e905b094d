/**
 * `fabench discover-call run`: the I/O shell around the Discover → Call runner. It checks the whole
 * command line, the task set, the API's base URL and key and the adapter before the first request —
 * a bad input sends nothing and leaves no file — then starts the adapter once (it must start) and
 * sends the API one preflight discover request (it must answer), both before anything is written;
 * then it takes the run file's write lock, resumes from it if asked, runs the trials (stopping when
 * the API stops answering: the circuit breaker) and makes the final, atomic write that fills in the
 * observed revisions. The checks and the plan are the stage's (discover-call/run-setup.ts); this
 * file wires them to the files, the terminal and the exit code.
 *
 * This instrument's guard against spending is its own: a dry run unless `--execute`, and
 * `--max-calls` on billed executes. The #424 prerequisite lock governs answer inference only and
 * plays no part here.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { problemLines, toolRevision, toolRoot } from "../../core/index.ts";
import {
  checkReachable,
  type DiscoverCallRunDeps,
  type DiscoverCallRunOptions,
  finalRecords,
  NOTHING_KEPT,
  type PlannedTrial,
  type PreparedRun,
  pendingRecords,
  pendingTrials,
  prepareRun,
  RecordAppender,
  readResume,
  type RunOutcome,
  rewriteRecords,
  runTrials,
  stopMessage,
} from "../../discover-call/index.ts";
import { type CliIo, EXIT } from "../shell/io.ts";
import { progressReporter } from "../shell/progress.ts";
import { stopOnInterrupt, withOutputLock } from "../shell/resumable.ts";

export type { DiscoverCallRunDeps, DiscoverCallRunOptions } from "../../discover-call/index.ts";

function trackedChanges(): string | null {
  try {
    return execFileSync("git", ["-C", toolRoot(), "status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null;
  }
}

export function realRunDeps(): DiscoverCallRunDeps {
  return {
    fetch: (input, init) => fetch(input, init),
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId: randomUUID,
    clock: () => performance.now(),
    checkout: { head: toolRevision, trackedChanges },
    runtime: { node: process.version, platform: process.platform, arch: process.arch },
  };
}

export async function discoverCallRun(
  options: DiscoverCallRunOptions,
  io: CliIo,
  deps: DiscoverCallRunDeps = realRunDeps(),
): Promise<number> {
  const env = io.env ?? {};
  const run = prepareRun(options, env, deps);
  // Reported, not refused: a bidi control in a query (the task set is the author's to fix).
  for (const line of problemLines(run.taskSet.warnings)) io.err(`warning: ${line}\n`);
  const reachable = () => checkReachable(options, env, run.api, deps);
  return resumableRun(options, io, run, reachable, (pending, shouldStop) =>
    runPending(options, io, deps, run, pending, shouldStop),
  );
}

/**
 * Around the trials (commands/shell/resumable.ts): the output's folder and write lock, resuming from
 * what an earlier run left, Ctrl-C (finish the trials in flight, then stop), the final atomic
 * write, and the exit code (130 interrupted, 1 stopped early, else 0; its own stop line says how
 * to go on, as this command's stops name the API, not --retry-errors).
 */
async function resumableRun(
  options: DiscoverCallRunOptions,
  io: CliIo,
  run: PreparedRun,
  reachable: () => Promise<void>,
  trials: (pending: readonly PlannedTrial[], shouldStop: () => boolean) => Promise<RunOutcome>,
): Promise<number> {
  const out = options.output;
  const resuming = options.resume && existsSync(out);
  // A new run checks before its folder or lock exists; a resumed one once it knows what is left.
  if (!resuming) await reachable();
  return withOutputLock(out, "fabench discover-call run", io, async () => {
    const resumed = resuming ? readResume(out, run) : NOTHING_KEPT;
    const pending = pendingTrials(run.plan, resumed);
    if (resuming) {
      // Nothing is sent for a finished run; a failed check leaves the file as it was.
      if (pending.length > 0) await reachable();
      if (resumed.tornBytes > 0)
        io.err(
          `${out}: dropped a cut-off last line (${resumed.tornBytes} bytes) left by an interrupted run\n`,
        );
      rewriteRecords(out, pendingRecords(resumed.kept));
    }
    const signal = stopOnInterrupt(io, "trials");
    let outcome: RunOutcome;
    try {
      outcome = await trials(pending, signal.shouldStop);
    } finally {
      signal.remove();
    }
    rewriteRecords(out, finalRecords(run.plan, resumed, outcome.records, run.api.revisions()));
    conclude(options, io, {
      planned: run.plan.length,
      kept: resumed.kept.length,
      outcome,
      baseUrl: run.api.baseUrl,
    });
    if (outcome.stopped === null) return EXIT.ok;
    return outcome.stopped === "interrupted" ? EXIT.interrupted : EXIT.failed;
  });
}

/** The pending trials, each record appended (and synced) as it is made. */
async function runPending(
  options: DiscoverCallRunOptions,
  io: CliIo,
  deps: DiscoverCallRunDeps,
  { model, metadata, api, adapter, settings }: PreparedRun,
  pending: readonly PlannedTrial[],
  shouldStop: () => boolean,
): Promise<RunOutcome> {
  const report = progressReporter(io, `discover-call run ${options.output}`, deps.clock, "trials");
  const appender = new RecordAppender(options.output);
  try {
    return await runTrials(pending, { model, metadata }, settings, {
      api,
      adapter,
      now: deps.now,
      newRunId: deps.newId,
      newSessionId: deps.newId,
      write: (record) => appender.append(record),
      progress: report,
      shouldStop,
    });
  } finally {
    appender.close();
  }
}

interface Totals {
  readonly planned: number;
  readonly kept: number;
  readonly outcome: RunOutcome;
  readonly baseUrl: string;
}

/** The run's last lines: what was recorded, and why it stopped early with what is left. */
function conclude(
  options: DiscoverCallRunOptions,
  io: CliIo,
  { planned, kept, outcome, baseUrl }: Totals,
): void {
  const { records, calls } = outcome;
  const mode = options.execute
    ? `${calls} billed call(s)`
    : "dry run: no calls (add --execute to call tools)";
  io.out(
    `${options.output}: ${kept + records.length} of ${planned} trial(s) recorded (${records.length} new, ${kept} already finished); ${mode}\n`,
  );
  const failedAtApi = records.filter((r) => r.error?.stage === "api");
  if (records.length > 0 && failedAtApi.length === records.length)
    io.err(
      `warning: every new trial failed at the API (first: ${failedAtApi[0]?.error?.reason_code ?? "unknown"}); check QVERIS_API_KEY and --base-url\n`,
    );
  const stop = stopMessage(outcome, planned - kept - records.length, baseUrl);
  if (stop !== null) io.err(`${stop}\n`);
}
