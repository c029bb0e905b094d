/**
 * Writing several files as one transaction: afterwards every target holds its new content, or every
 * target is as it was (absent or its old content). Used where two artefacts describe each other —
 * public runs and their summary — and one without the other would be a lie.
 *
 * How: (1) each new content goes to a temporary file beside its target, complete and fsynced,
 * before any target is touched; (2) target by target, an existing file is moved aside to a backup
 * beside it, then the temporary file is renamed onto the target; (3) only when every target is in
 * place are the backups deleted. A failure at any step undoes the steps before it, in reverse:
 * installed targets are removed, backups renamed back, temporary files deleted. Renames within one
 * folder are atomic, so at no moment does a target hold half a file.
 *
 * What no single-process design can cover: a crash (SIGKILL, power loss) between two renames
 * leaves the first target new and the next one old; its backup, `.<name>.bak-<pid>-<n>`, stays
 * beside it to restore by hand.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { inputError, makeFolders, syncFolder, writeFailure } from "../../core/index.ts";

/** The file-system steps of a transaction; tests replace one to make it fail. */
export interface FileOps {
  /** Creates `path` (which must not exist), writes `text`, fsyncs and closes it. */
  readonly writeNew: (path: string, text: string) => void;
  readonly rename: (from: string, to: string) => void;
  /** Removes a file; no error when it is absent. */
  readonly remove: (path: string) => void;
  readonly exists: (path: string) => boolean;
}

export const nodeFileOps: FileOps = {
  writeNew(path, text) {
    const fd = openSync(path, "wx");
    try {
      const bytes = Buffer.from(text, "utf8");
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  rename: renameSync,
  remove(path) {
    try {
      rmSync(path, { force: true });
    } catch (error) {
      // A path under a file cannot exist, so there is nothing to remove.
      if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
    }
  },
  exists: existsSync,
};

interface Step {
  readonly path: string;
  readonly text: string;
  readonly temporary: string;
  readonly backup: string;
  movedAside: boolean;
  installed: boolean;
}

let counter = 0;

/** Writes every file or none (see above); a failure is reported as the target it was at. */
export function writeFilesTogether(
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
  ops: FileOps = nodeFileOps,
): void {
  const id = `${process.pid}-${counter++}`;
  const steps: Step[] = files.map(({ path, text }) => ({
    path,
    text,
    temporary: join(dirname(path), `.${basename(path)}.tmp-${id}`),
    backup: join(dirname(path), `.${basename(path)}.bak-${id}`),
    movedAside: false,
    installed: false,
  }));
  let current = steps[0]?.path ?? "";
  try {
    for (const step of steps) {
      current = step.path;
      makeFolders(dirname(step.path));
      ops.writeNew(step.temporary, step.text);
    }
    for (const step of steps) {
      current = step.path;
      if (ops.exists(step.path)) {
        ops.rename(step.path, step.backup);
        step.movedAside = true;
      }
      ops.rename(step.temporary, step.path);
      step.installed = true;
    }
  } catch (error) {
    const left = rollBack(steps, ops);
    if (left.length > 0)
      throw inputError(
        "output",
        "rollback_incomplete",
        `writing ${current} failed and not every file could be put back; restore by hand: ${left.join("; ")}`,
        { file: current },
      );
    throw writeFailure(current, error);
  }
  for (const step of steps) if (step.movedAside) ops.remove(step.backup);
  for (const folder of new Set(steps.map((step) => dirname(step.path)))) syncFolder(folder);
}

/** Undoes what was done, last first; returns what it could not undo. */
function rollBack(steps: readonly Step[], ops: FileOps): string[] {
  const left: string[] = [];
  for (const step of [...steps].reverse()) {
    try {
      if (step.installed) ops.remove(step.path);
      if (step.movedAside) ops.rename(step.backup, step.path);
    } catch {
      left.push(step.movedAside ? `${step.backup} is the old ${step.path}` : `${step.path} is new`);
    }
    try {
      ops.remove(step.temporary);
    } catch {
      left.push(`${step.temporary} is a leftover temporary file`);
    }
  }
  return left;
}
