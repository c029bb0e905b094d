/**
 * What every resumable command (`run`, `judge run`, `discover-call run`) does around its stage:
 * refuse an existing output without --resume, make the output's folder, hold its write lock,
 * turn Ctrl-C / SIGTERM into "start nothing new" (interrupt.ts; a second one: exit now), and end with one exit
 * code and one line that says how to go on (0 done, 1 stopped or nothing measured, 130 interrupted).
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import {
  acquireWriteLock,
  makeFolders,
  usageError,
  writeFailure,
  type Tripped,
  type WriteLock,
} from "../../core/index.ts";
import { breakerLine } from "./breaker.ts";
import { heldLocks } from "./interrupt.ts";
import { EXIT, type CliIo } from "./io.ts";

export { exitOnInterrupt, type StopSignal, stopOnInterrupt } from "./interrupt.ts";

/** Refuses to start over an existing output: it is continued with --resume, or another is chosen. */
export function refuseExistingOutput(out: string, resume: boolean, flag = "--out"): void {
  if (existsSync(out) && !resume)
    throw usageError("output_exists", `${out} exists; add --resume to continue it, or choose a new ${flag}`);
}

/** Makes the output's folder (`runs/` in a fresh project); a failure is the output's cannot_write. */
export function makeOutputFolder(out: string): void {
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
}

export interface OutputLock {
  /** Takes the lock if it is not held yet (refused: exit 2, naming the writer that holds it). */
  readonly take: () => void;
  readonly release: () => void;
}

/** The output's write lock, not taken yet: `take` when the command is ready to read or write it. */
export function outputLock(out: string, command: string, io: CliIo): OutputLock {
  let lock: WriteLock | null = null;
  const take = () => {
    if (lock !== null) return;
    lock = acquireWriteLock(out, { command, warn: (line) => io.err(`${line}\n`) });
    heldLocks.add(lock);
  };
  const release = () => {
    if (lock === null) return;
    heldLocks.delete(lock);
    lock.release();
  };
  return { take, release };
}

/** Every check has passed: makes the output's folder, then takes its lock before the file is read. */
export function openOutput(out: string, lock: OutputLock): void {
  makeOutputFolder(out);
  lock.take();
}

/** Makes the folder, holds the output's write lock while `body` runs, and releases it however it ends. */
export async function withOutputLock<T>(
  out: string,
  command: string,
  io: CliIo,
  body: () => Promise<T>,
): Promise<T> {
  const lock = outputLock(out, command, io);
  openOutput(out, lock);
  try {
    return await body();
  } finally {
    lock.release();
  }
}

/** How a resumable stage ended: stopped early (and why), and how many of its attempts failed. */
export interface RunEnd {
  readonly stopped: boolean;
  readonly stopReason: "interrupted" | "max_errors" | "breaker" | "budget_exhausted" | null;
  readonly tripped: Tripped | null;
  /** Episodes (or requests) that ended in this process. */
  readonly attempts: number;
  /** How many of them ended in an infrastructure error. */
  readonly errors: number;
}

/** A finished run in which every attempt failed measured nothing: it must not look like success. */
export function everyAttemptFailed(end: RunEnd): boolean {
  return !end.stopped && end.attempts > 0 && end.errors === end.attempts;
}

export interface EndWords {
  /** The --breaker limit, for the breaker's line. */
  readonly breaker: number;
  /** The line (without its newline) when every attempt failed. */
  readonly allFailed: string;
  /** Added to the resume line when errors were recorded: " (add --retry-errors to …)". */
  readonly retryHint: string;
}

/** The exit code of a finished or stopped run, with the one line that says what to do next. */
export function endOfRun(io: CliIo, end: RunEnd, words: EndWords): number {
  if (everyAttemptFailed(end)) {
    io.err(`${words.allFailed}\n`);
    return EXIT.failed;
  }
  if (!end.stopped) return EXIT.ok;
  if (end.stopReason === "breaker" && end.tripped !== null) {
    io.err(`${breakerLine(end.tripped, words.breaker)}\n`);
    return EXIT.failed;
  }
  const why = {
    interrupted: "interrupted",
    max_errors: `stopped after ${end.errors} infrastructure errors (--max-errors)`,
    breaker: "stopped by the circuit breaker (--breaker)",
    budget_exhausted: "stopped before a request that could exceed --budget-usd",
  }[end.stopReason ?? "interrupted"];
  return stoppedExit(io, {
    why,
    interrupted: end.stopReason === "interrupted",
    hint: end.errors > 0 ? words.retryHint : "",
  });
}

export interface Stopped {
  /** Why the run stopped, first on the line: "interrupted". */
  readonly why: string;
  readonly interrupted: boolean;
  /** How to go on (default: continue with the same command and --resume). */
  readonly next?: string;
  /** Appended to `next`, such as " (add --retry-errors …)". */
  readonly hint?: string;
}

/** A run that stopped early and can be continued: its line, then 130 after Ctrl-C and 1 otherwise. */
export function stoppedExit(io: CliIo, stopped: Stopped): number {
  const next = stopped.next ?? "continue with the same command and --resume";
  io.err(`${stopped.why}; ${next}${stopped.hint ?? ""}\n`);
  return stopped.interrupted ? EXIT.interrupted : EXIT.failed;
}
