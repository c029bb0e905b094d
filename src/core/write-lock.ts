/**
 * One writer per file, whatever name it is reached by. A writer holds `FILE.lock`, created
 * exclusively (`O_EXCL`), for as long as it writes; the lock says who holds it (pid, host, start
 * time, command). FILE is the canonical path (every symbolic link and `..` resolved, see
 * file-identity.ts), so every spelling of the path and every symbolic link finds the same lock. A
 * hard link is another name for the same inode: after taking its own lock a writer looks at the
 * other `*.lock` files of the folder, and one whose file has the same device and inode is the same
 * file's lock. Both steps are taken in that order by every writer, so of two that start at once
 * at least one sees the other (both may refuse; neither writes unseen). A hard link in another
 * folder is out of reach of any lock file; a writer whose file has names there is warned.
 *
 * A second writer is refused (exit 2) with the holder's name. A lock whose process is gone —
 * killed with kill -9, say — is stale: on the same host, where the pid can be checked, the next
 * writer takes it over with a warning; a lock from another host is never assumed stale.
 */
import { closeSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { writeFailure } from "./atomic-write.ts";
import { usageError } from "./errors.ts";
import { canonicalPath, inodeOf, linkCount } from "./file-identity.ts";

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

const LOCK_SUFFIX = ".lock";

/** The lock file of the file `path` names: beside its canonical path. */
export function lockFileOf(path: string): string {
  return `${canonicalPath(path)}${LOCK_SUFFIX}`;
}

/** The live writer a reader or a second writer meets: its lock, and the name it writes by. */
export interface LiveWriter {
  readonly lockFile: string;
  /** The file the lock is beside: the canonical path, or another name (a hard link) of the same file. */
  readonly file: string;
  /** Null when the lock file does not say who holds it. */
  readonly holder: LockHolder | null;
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
  const context = resolved(options);
  const lock = takeOwnLock(path, options, context);
  // Own lock first, then the other names: see the header for why this order is safe.
  const other = otherNamesWriter(lock.path, context);
  if (other) {
    lock.release();
    throw writerError(path, other, context.host, "write");
  }
  warnOfNamesElsewhere(path, lock.path, options);
  return lock;
}

/** The lock beside the canonical path: created, or taken over from a process that is gone. */
function takeOwnLock(path: string, options: WriteLockOptions, context: Required<LockContext>): WriteLock {
  const lockFile = lockFileOf(path);
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
    const found = readOwnLock(path, lockFile);
    if (found === null) continue;
    if (found.holder === null) throw unreadable(path, lockFile);
    if (!isStale(lockFile, found.text, found.holder, context))
      throw writerError(
        path,
        { lockFile, file: fileOfLock(lockFile), holder: found.holder },
        context.host,
        "write",
      );
    if (takeOver(path, lockFile, found.text, text)) {
      options.warn?.(
        `warning: ${path}: taking over the stale lock ${lockFile} of ${describe(found.holder)}: that process is no longer running`,
      );
      return hold(lock, text);
    }
  }
  const last = readOwnLock(path, lockFile)?.holder;
  throw last
    ? writerError(path, { lockFile, file: fileOfLock(lockFile), holder: last }, context.host, "write")
    : unreadable(path, lockFile);
}

/**
 * The live writer of the file `path` names, by any of its names in its folder, or null. A stale
 * lock is no writer; a lock that does not say who holds it is one (`holder: null`).
 */
export function liveWriterOf(path: string, context: LockContext = {}): LiveWriter | null {
  const c = resolved(context);
  const lockFile = lockFileOf(path);
  const found = readOwnLock(path, lockFile);
  if (found !== null && (found.holder === null || !isStale(lockFile, found.text, found.holder, c)))
    return { lockFile, file: fileOfLock(lockFile), holder: found.holder };
  return otherNamesWriter(lockFile, c);
}

/**
 * For a command that reads `path`: refuses (exit 2) while a live writer holds its lock, since
 * what it reads would miss what that writer adds. A stale lock does not stop a reader. `snapshot`
 * names the option that reads the file anyway, for the refusal to mention.
 */
export function checkNotBeingWritten(path: string, context: LockContext = {}, snapshot?: string): void {
  const writer = liveWriterOf(path, context);
  if (writer !== null) throw writerError(path, writer, resolved(context).host, "read", snapshot);
}

/** `describe` of a live writer, for a reader that reads its file anyway. */
export function describeWriter(writer: LiveWriter): string {
  return writer.holder === null ? `an unnamed writer (${writer.lockFile})` : describe(writer.holder);
}

const fileOfLock = (lockFile: string): string => lockFile.slice(0, -LOCK_SUFFIX.length);

/**
 * A live writer of the same file (same device and inode) under another name in the folder: the
 * lock of a hard link. Locks that cannot be read are not locks of fabench's and are passed over.
 */
function otherNamesWriter(ownLock: string, context: Required<LockContext>): LiveWriter | null {
  const inode = inodeOf(fileOfLock(ownLock));
  if (inode === null) return null;
  const folder = dirname(ownLock);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  for (const name of names.sort()) {
    const lockFile = join(folder, name);
    if (!name.endsWith(LOCK_SUFFIX) || lockFile === ownLock) continue;
    if (inodeOf(fileOfLock(lockFile)) !== inode) continue;
    let found: { text: string; holder: LockHolder | null } | null;
    try {
      found = readLock(lockFile);
    } catch {
      continue;
    }
    if (found === null) continue;
    if (found.holder === null || !isStale(lockFile, found.text, found.holder, context))
      return { lockFile, file: fileOfLock(lockFile), holder: found.holder };
  }
  return null;
}

/** One warning when the file has names (hard links) outside its folder, where no lock is looked for. */
function warnOfNamesElsewhere(path: string, lockFile: string, options: WriteLockOptions): void {
  const file = fileOfLock(lockFile);
  const names = linkCount(file);
  if (names <= 1 || !options.warn) return;
  const inode = inodeOf(file);
  let here = 0;
  try {
    for (const name of readdirSync(dirname(file))) if (inodeOf(join(dirname(file), name)) === inode) here++;
  } catch {
    return;
  }
  if (here < names)
    options.warn(
      `warning: ${path}: the file has ${names} names (hard links), ${names - here} of them outside ${dirname(file)}; a writer through one of those would not see this lock`,
    );
}

/** The own lock, with a read failure other than "no such file" reported as the path's problem. */
function readOwnLock(path: string, lockFile: string) {
  try {
    return readLock(lockFile);
  } catch (error) {
    throw usageError(
      "run_file_locked",
      `${path}: its lock ${lockFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); if no fabench is writing ${path}, remove it`,
    );
  }
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

function writerError(
  path: string,
  writer: LiveWriter,
  host: string,
  use: "write" | "read",
  snapshot?: string,
) {
  const { holder, lockFile } = writer;
  if (holder === null) return unreadable(path, lockFile);
  const wait =
    use === "write"
      ? "wait for it to finish"
      : `wait for it to finish before reading the file${snapshot ? ` (or add ${snapshot} to read what it has written so far)` : ""}`;
  const elsewhere =
    holder.host === host
      ? ""
      : `; ${holder.host} is another host, so fabench cannot tell whether that process is still running`;
  const name =
    writer.file === canonicalPath(path)
      ? ""
      : ` through ${basename(writer.file)}, another name of the same file`;
  return usageError(
    "run_file_locked",
    `${path} is being written by ${describe(holder)}${name}${elsewhere}; ${wait}, or remove ${lockFile} if that process is gone`,
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
