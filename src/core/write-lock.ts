/**
 * One writer per file. A writer holds `FILE.lock`, created exclusively (`O_EXCL`), for as long as
 * it writes; the lock says who holds it (pid, host, start time, command). A second writer is
 * refused (exit 2) with the holder's name. A lock whose process is gone — killed with kill -9, say
 * — is stale: on the same host, where the pid can be checked, the next writer takes it over with a
 * warning; a lock from another host is never assumed stale.
 */
import { closeSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { writeFailure } from "./atomic-write.ts";
import { usageError } from "./errors.ts";

/** What a lock file holds. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly started_at: string;
  readonly command: string;
}

/** The process, host, clock and liveness check; each is injectable for tests. */
export interface LockContext {
  readonly pid?: number;
  readonly host?: string;
  readonly now?: () => Date;
  /** Whether a process of this host is running (default: `kill(pid, 0)`). */
  readonly isAlive?: (pid: number) => boolean;
}

export interface WriteLockOptions extends LockContext {
  /** What writes the file, for the message another writer gets: `fabench run`. */
  readonly command: string;
  /** One line (without its newline) when a stale lock is taken over. */
  readonly warn?: (line: string) => void;
}

export interface WriteLock {
  /** The lock file. */
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock file if it is still this lock; a second call does nothing. */
  release(): void;
}

/**
 * Every lock this process holds (its resolved file and text). A lock naming this process's pid
 * that is not among them was left by an earlier process that had the same pid (a restarted
 * container, say): stale.
 */
const held = new Set<string>();

export function lockFileOf(path: string): string {
  return `${path}.lock`;
}

/** `kill(pid, 0)`: no such process (ESRCH) is dead; one this user may not signal (EPERM) is alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the write lock of `path`, or throws `run_file_locked` (exit 2) naming the writer that holds it. */
export function acquireWriteLock(path: string, options: WriteLockOptions): WriteLock {
  const lockFile = lockFileOf(path);
  const context = resolved(options);
  const holder: LockHolder = {
    pid: context.pid,
    host: context.host,
    started_at: context.now().toISOString(),
    command: options.command,
  };
  const text = `${JSON.stringify(holder)}\n`;
  const lock: WriteLock = {
    path: lockFile,
    holder,
    release: once(() => {
      held.delete(heldKey(lockFile, text));
      // Only this lock: never a lock another writer took over (it thought this process gone). A
      // lock that cannot be removed is left behind, to be found stale by the next writer.
      try {
        if (readLock(lockFile)?.text === text) unlinkSync(lockFile);
      } catch {
        /* best effort */
      }
    }),
  };
  // A lock released between a failed create and the read is simply gone: try again, a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(lockFile, text)) return hold(lock, text);
    const found = readLock(lockFile);
    if (found === null) continue;
    if (found.holder === null) throw unreadable(path, lockFile);
    if (!isStale(lockFile, found.text, found.holder, context))
      throw lockedError(path, found.holder, context.host, "write");
    if (takeOver(path, lockFile, found.text, text)) {
      options.warn?.(
        `warning: ${path}: taking over the stale lock ${lockFile} of ${describe(found.holder)}: that process is no longer running`,
      );
      return hold(lock, text);
    }
  }
  const last = readLock(lockFile)?.holder;
  throw last ? lockedError(path, last, context.host, "write") : unreadable(path, lockFile);
}

/**
 * For a command that reads `path`: refuses (exit 2) while a live writer holds its lock, since
 * what it reads would miss what that writer adds. A stale lock does not stop a reader.
 */
export function checkNotBeingWritten(path: string, context: LockContext = {}): void {
  const found = readLock(lockFileOf(path));
  if (found === null) return;
  if (found.holder === null) throw unreadable(path, lockFileOf(path));
  const c = resolved(context);
  if (!isStale(lockFileOf(path), found.text, found.holder, c))
    throw lockedError(path, found.holder, c.host, "read");
}

function hold(lock: WriteLock, text: string): WriteLock {
  held.add(heldKey(lock.path, text));
  return lock;
}

function heldKey(lockFile: string, text: string): string {
  return `${resolve(lockFile)}\n${text}`;
}

function resolved(context: LockContext): Required<LockContext> {
  return {
    pid: context.pid ?? process.pid,
    host: context.host ?? hostname(),
    now: context.now ?? (() => new Date()),
    isAlive: context.isAlive ?? processAlive,
  };
}

/** Stale: held by a process of this host that is no longer running. */
function isStale(
  lockFile: string,
  text: string,
  holder: LockHolder,
  context: Required<LockContext>,
): boolean {
  if (holder.host !== context.host) return false;
  if (holder.pid === context.pid) return !held.has(heldKey(lockFile, text));
  return !context.isAlive(holder.pid);
}

/** `O_EXCL`: true if this call made the file, false if it exists. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw writeFailure(file, error);
  }
  try {
    writeSync(fd, text);
  } catch (error) {
    rmSync(file, { force: true });
    throw writeFailure(file, error);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock file's text and holder (null if unreadable), or null when there is no lock file. */
function readLock(file: string): { text: string; holder: LockHolder | null } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return { text, holder: parseHolder(text) };
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (
      value !== null &&
      typeof value === "object" &&
      Number.isInteger(value.pid) &&
      (value.pid as number) > 0 &&
      typeof value.host === "string" &&
      typeof value.started_at === "string" &&
      typeof value.command === "string"
    )
      return value as LockHolder;
  } catch {
    /* not JSON: unreadable */
  }
  return null;
}

/**
 * Replaces the stale lock whose text is `staleText` with this one. Two writers may both find the
 * same stale lock; the takeover file (created exclusively) lets one of them at a time remove it,
 * and only if it is still that stale lock, so neither can remove the lock the other just made.
 * Returns false when the lock changed meanwhile (the caller looks again).
 */
function takeOver(path: string, lockFile: string, staleText: string, text: string): boolean {
  const guard = `${lockFile}.takeover`;
  if (!createExclusive(guard, text)) {
    const other = readLock(guard)?.holder;
    throw usageError(
      "run_file_locked",
      `${path}: ${other ? describe(other) : "another process"} is taking over its stale lock right now (${guard}); wait for it, or remove ${guard} if no fabench is running`,
    );
  }
  try {
    if (readLock(lockFile)?.text !== staleText) return false;
    unlinkSync(lockFile);
    return createExclusive(lockFile, text);
  } finally {
    rmSync(guard, { force: true });
  }
}

/** `pid 4242 on host-a (fabench run, since 2026-01-01T00:00:00.000Z)` */
function describe(holder: LockHolder): string {
  return `pid ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.started_at})`;
}

function lockedError(path: string, holder: LockHolder, host: string, use: "write" | "read") {
  const wait = use === "write" ? "wait for it to finish" : "wait for it to finish before reading the file";
  const elsewhere =
    holder.host === host
      ? ""
      : `; ${holder.host} is another host, so fabench cannot tell whether that process is still running`;
  return usageError(
    "run_file_locked",
    `${path} is being written by ${describe(holder)}${elsewhere}; ${wait}, or remove ${lockFileOf(path)} if that process is gone`,
  );
}

function unreadable(path: string, lockFile: string) {
  return usageError(
    "run_file_locked",
    `${path} is locked by ${lockFile}, which does not say who holds it; if no fabench is writing ${path}, remove the lock`,
  );
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
