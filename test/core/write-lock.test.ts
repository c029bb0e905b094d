/** The write lock (issue #16 items 1–2): one writer per file, the holder named, stale locks taken over. */
import { spawn } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import {
  acquireWriteLock,
  checkNotBeingWritten,
  lockFileOf,
  processAlive,
  type LockHolder,
} from "../../src/core/write-lock.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const NOW = () => new Date("2026-01-02T03:04:05.000Z");
/** A context in which pids 100–199 are running and every other pid is gone. */
const ctx = (pid: number, host = "host-a") => ({
  pid,
  host,
  now: NOW,
  isAlive: (p: number) => p >= 100 && p < 200,
  command: "fabench run",
});
const holder = (pid: number, host = "host-a"): LockHolder => ({
  pid,
  host,
  started_at: "2026-01-01T00:00:00.000Z",
  command: "fabench run",
});
const writeLock = (file: string, h: LockHolder) => writeFileSync(lockFileOf(file), `${JSON.stringify(h)}\n`);
const readHolder = (file: string) => JSON.parse(readFileSync(lockFileOf(file), "utf8")) as LockHolder;

/** The error `action` throws (it must throw a FabenchError). */
function thrown(action: () => unknown): FabenchError {
  try {
    action();
  } catch (error) {
    if (error instanceof FabenchError) return error;
    throw error;
  }
  throw new Error("expected a FabenchError");
}

describe("acquireWriteLock", () => {
  const temp = useTempDir();

  it("creates FILE.lock naming the holder, and release removes it once", () => {
    const file = join(temp(), "run.jsonl");
    const lock = acquireWriteLock(file, ctx(101));
    expect(lock.path).toBe(`${file}.lock`);
    expect(readHolder(file)).toEqual({
      pid: 101,
      host: "host-a",
      started_at: "2026-01-02T03:04:05.000Z",
      command: "fabench run",
    });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lock.release();
    // Free again.
    acquireWriteLock(file, ctx(102)).release();
  });

  it("refuses a second writer (exit 2) naming the first, and leaves its lock alone", () => {
    const file = join(temp(), "run.jsonl");
    const first = acquireWriteLock(file, ctx(101));
    const before = readFileSync(first.path, "utf8");
    const error = thrown(() => acquireWriteLock(file, ctx(102)));
    expect([error.kind, error.code]).toEqual(["usage", "run_file_locked"]);
    expect(error.message).toBe(
      `${file} is being written by pid 101 on host-a (fabench run, since 2026-01-02T03:04:05.000Z); wait for it to finish, or remove ${file}.lock if that process is gone`,
    );
    expect(readFileSync(first.path, "utf8")).toBe(before);
    // The same process twice is a second writer too.
    expect(thrown(() => acquireWriteLock(file, ctx(101))).code).toBe("run_file_locked");
    first.release();
    expect(existsSync(first.path)).toBe(false);
  });

  it("takes over a stale lock (same host, pid gone) with one warning line", () => {
    const file = join(temp(), "run.jsonl");
    writeLock(file, holder(4242));
    const warnings: string[] = [];
    const lock = acquireWriteLock(file, { ...ctx(101), warn: (line) => warnings.push(line) });
    expect(warnings).toEqual([
      `warning: ${file}: taking over the stale lock ${file}.lock of pid 4242 on host-a (fabench run, since 2026-01-01T00:00:00.000Z): that process is no longer running`,
    ]);
    expect(readHolder(file).pid).toBe(101);
    expect(existsSync(`${file}.lock.takeover`)).toBe(false);
    lock.release();
  });

  it("never assumes a lock from another host is stale", () => {
    const file = join(temp(), "run.jsonl");
    writeLock(file, holder(4242, "host-b"));
    const error = thrown(() => acquireWriteLock(file, ctx(101)));
    expect(error.code).toBe("run_file_locked");
    expect(error.message).toContain("pid 4242 on host-b");
    expect(error.message).toContain(
      "host-b is another host, so fabench cannot tell whether that process is still running",
    );
    expect(readHolder(file).pid).toBe(4242);
  });

  it("treats a lock with this pid that this process does not hold as left by an earlier process", () => {
    // A restarted container runs fabench under the pid the killed one had.
    const file = join(temp(), "run.jsonl");
    writeLock(file, holder(150));
    const warnings: string[] = [];
    const lock = acquireWriteLock(file, { ...ctx(150), warn: (line) => warnings.push(line) });
    expect(warnings).toHaveLength(1);
    lock.release();
  });

  it("refuses a lock that does not say who holds it, and keeps it", () => {
    const file = join(temp(), "run.jsonl");
    writeFileSync(lockFileOf(file), "");
    const error = thrown(() => acquireWriteLock(file, ctx(101)));
    expect(error.code).toBe("run_file_locked");
    expect(error.message).toContain("does not say who holds it");
    expect(readFileSync(lockFileOf(file), "utf8")).toBe("");
  });

  it("lets one of two writers that found the same stale lock take it over", () => {
    const file = join(temp(), "run.jsonl");
    writeLock(file, holder(4242));
    const warnings: string[] = [];
    // Writer 101 finds the stale lock; before it acts, writer 102 takes the lock over.
    let second: ReturnType<typeof acquireWriteLock> | undefined;
    const error = thrown(() =>
      acquireWriteLock(file, {
        ...ctx(101),
        isAlive: (p) => {
          if (p === 4242 && second === undefined)
            second = acquireWriteLock(file, { ...ctx(102), warn: (line) => warnings.push(line) });
          return ctx(101).isAlive(p);
        },
      }),
    );
    expect(error.message).toContain("is being written by pid 102 on host-a");
    expect(warnings).toHaveLength(1);
    expect(readHolder(file).pid).toBe(102);
    second?.release();
  });

  it("refuses while another writer is taking the stale lock over", () => {
    const file = join(temp(), "run.jsonl");
    writeLock(file, holder(4242));
    writeFileSync(`${lockFileOf(file)}.takeover`, `${JSON.stringify(holder(103))}\n`);
    const error = thrown(() => acquireWriteLock(file, ctx(101)));
    expect(error.code).toBe("run_file_locked");
    expect(error.message).toContain("pid 103 on host-a (fabench run, since");
    expect(error.message).toContain("is taking over its stale lock right now");
    expect(readHolder(file).pid).toBe(4242);
  });

  it("on release, leaves a lock that another writer has taken over", () => {
    const file = join(temp(), "run.jsonl");
    const lock = acquireWriteLock(file, ctx(101));
    writeLock(file, holder(102));
    lock.release();
    expect(readHolder(file).pid).toBe(102);
  });
});

describe("one lock per file, whatever name reaches it", () => {
  const temp = useTempDir();

  it("names the file by its canonical path: a symbolic link, a linked folder and `..` find one lock", () => {
    const dir = temp();
    const file = join(dir, "run.jsonl");
    mkdirSync(join(dir, "sub"));
    symlinkSync(file, join(dir, "link.jsonl")); // dangling until the file exists
    symlinkSync(dir, join(dir, "alias"));
    // The file does not exist yet: the lock the first writer takes is the one every name finds.
    const first = acquireWriteLock(join(dir, "link.jsonl"), ctx(101));
    expect(first.path).toBe(`${file}.lock`);
    for (const other of [file, join(dir, "alias", "run.jsonl"), join(dir, "sub", "..", "run.jsonl")]) {
      expect(lockFileOf(other)).toBe(`${file}.lock`);
      const error = thrown(() => acquireWriteLock(other, ctx(102)));
      expect([other, error.code]).toEqual([other, "run_file_locked"]);
      expect(error.message).toContain("is being written by pid 101 on host-a");
    }
    writeFileSync(file, "");
    expect(thrown(() => acquireWriteLock(join(dir, "link.jsonl"), ctx(102))).code).toBe("run_file_locked");
    first.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("finds the lock of a hard link: same device and inode, another name in the folder", () => {
    const dir = temp();
    const file = join(dir, "run.jsonl");
    writeFileSync(file, "");
    linkSync(file, join(dir, "copy.jsonl"));
    const first = acquireWriteLock(file, ctx(101));
    const error = thrown(() => acquireWriteLock(join(dir, "copy.jsonl"), ctx(102)));
    expect(error.code).toBe("run_file_locked");
    expect(error.message).toBe(
      `${join(dir, "copy.jsonl")} is being written by pid 101 on host-a (fabench run, since 2026-01-02T03:04:05.000Z) through run.jsonl, another name of the same file; wait for it to finish, or remove ${file}.lock if that process is gone`,
    );
    // The refused writer leaves no lock of its own behind.
    expect(existsSync(join(dir, "copy.jsonl.lock"))).toBe(false);
    expect(readHolder(file).pid).toBe(101);
    first.release();
    acquireWriteLock(join(dir, "copy.jsonl"), ctx(102)).release();
  });

  it("finds a writer that started before the file existed, through a hard link made since", () => {
    const dir = temp();
    const file = join(dir, "run.jsonl");
    const first = acquireWriteLock(file, ctx(101));
    writeFileSync(file, "{}\n"); // the writer creates its file
    linkSync(file, join(dir, "later.jsonl"));
    expect(thrown(() => acquireWriteLock(join(dir, "later.jsonl"), ctx(102))).message).toContain(
      "through run.jsonl, another name of the same file",
    );
    // The writer replaces its file (a new inode, as --retry-errors does); a link to that is found too.
    writeFileSync(join(dir, "tmp"), "{}\n");
    renameSync(join(dir, "tmp"), file);
    linkSync(file, join(dir, "newer.jsonl"));
    expect(thrown(() => acquireWriteLock(join(dir, "newer.jsonl"), ctx(102))).code).toBe("run_file_locked");
    // The old link is now another file: writing it duplicates nothing of the writer's.
    acquireWriteLock(join(dir, "later.jsonl"), ctx(102)).release();
    first.release();
  });

  it("of two writers through two names that both took their own lock, the later one refuses", () => {
    // Writer 102 has made copy.jsonl.lock and not yet looked at the folder when 101 looks.
    const dir = temp();
    const file = join(dir, "run.jsonl");
    writeFileSync(file, "");
    linkSync(file, join(dir, "copy.jsonl"));
    writeLock(join(dir, "copy.jsonl"), holder(102));
    expect(thrown(() => acquireWriteLock(file, ctx(101))).code).toBe("run_file_locked");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("passes over a stale lock of another name, and a lock of a different file", () => {
    const dir = temp();
    const file = join(dir, "run.jsonl");
    writeFileSync(file, "");
    writeFileSync(join(dir, "other.jsonl"), "");
    linkSync(file, join(dir, "copy.jsonl"));
    writeLock(join(dir, "copy.jsonl"), holder(4242)); // gone
    writeLock(join(dir, "other.jsonl"), holder(150)); // alive, another file
    const lock = acquireWriteLock(file, ctx(101));
    expect(readHolder(file).pid).toBe(101);
    expect(readHolder(join(dir, "copy.jsonl")).pid).toBe(4242);
    lock.release();
  });

  it("warns when the file has names in another folder, where no lock is looked for", () => {
    const dir = temp();
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "b"));
    const file = join(dir, "a", "run.jsonl");
    writeFileSync(file, "");
    linkSync(file, join(dir, "b", "run.jsonl"));
    const warnings: string[] = [];
    const lock = acquireWriteLock(file, { ...ctx(101), warn: (line) => warnings.push(line) });
    expect(warnings).toEqual([
      `warning: ${file}: the file has 2 names (hard links), 1 of them outside ${join(dir, "a")}; a writer through one of those would not see this lock`,
    ]);
    lock.release();
  });

  it("lets a reader find the writer through a symbolic link and through a hard link", () => {
    const dir = temp();
    const file = join(dir, "run.jsonl");
    writeFileSync(file, "");
    symlinkSync(file, join(dir, "sym.jsonl"));
    linkSync(file, join(dir, "hard.jsonl"));
    const lock = acquireWriteLock(file, ctx(101));
    for (const name of ["sym.jsonl", "hard.jsonl"]) {
      const error = thrown(() => checkNotBeingWritten(join(dir, name), ctx(102), "--allow-live-file"));
      expect([name, error.code]).toEqual([name, "run_file_locked"]);
      expect(error.message).toContain(
        "wait for it to finish before reading the file (or add --allow-live-file to read what it has written so far)",
      );
    }
    lock.release();
    checkNotBeingWritten(join(dir, "hard.jsonl"), ctx(102));
  });
});

describe("checkNotBeingWritten", () => {
  const temp = useTempDir();

  it("refuses to read a file a live writer holds, and reads one with no lock or a stale one", () => {
    const file = join(temp(), "run.jsonl");
    const c = ctx(101);
    checkNotBeingWritten(file, c);
    writeLock(file, holder(150));
    const error = thrown(() => checkNotBeingWritten(file, c));
    expect(error.code).toBe("run_file_locked");
    expect(error.message).toContain("wait for it to finish before reading the file");
    writeLock(file, holder(4242));
    checkNotBeingWritten(file, c);
    expect(readHolder(file).pid).toBe(4242);
  });
});

describe("processAlive", () => {
  it("says this process runs and an exited one does not", async () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => child.on("close", resolve));
    expect(processAlive(child.pid as number)).toBe(false);
  });
});
