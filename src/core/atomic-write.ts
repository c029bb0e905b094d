/**
 * Atomic file writes: a temporary file in the same folder, fsync, rename, then fsync the folder,
 * so a reader sees the old file or the new one and never half of either.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { inputError } from "./errors.ts";

let counter = 0;

/**
 * Why an output could not be written, as the user's problem (exit 2): a read-only or missing place,
 * no permission, no space. Anything else is left to surface as a bug.
 */
export function writeFailure(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why: Record<string, string> = {
    ENOENT: "its folder cannot be created or reached",
    ENOTDIR: "a part of the path is a file, not a folder",
    EACCES: "permission denied",
    EPERM: "not permitted",
    EROFS: "the file system is read-only",
    EISDIR: "is a folder, not a file",
    ENOSPC: "no space left on the device",
    EDQUOT: "the disk quota is exceeded",
    EFBIG: "the file is too large for its file system",
    EIO: "an input/output error on the device",
    EEXIST: "a folder of that name cannot be created",
  };
  return code !== undefined && why[code]
    ? inputError("output", "cannot_write", `cannot write here: ${why[code]} (${code})`, { file: path })
    : error;
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const folder = dirname(path);
  try {
    makeFolders(folder);
  } catch (error) {
    throw writeFailure(path, error);
  }
  const temporary = join(folder, `.${basename(path)}.tmp-${process.pid}-${counter++}`);
  try {
    const fd = openSync(temporary, "wx");
    try {
      const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw writeFailure(path, error);
  }
  syncFolder(folder);
}

/** Written JSON files: 2-space indent, UTF-8, trailing newline. */
export function formatJsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, formatJsonFile(value));
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir can spin forever under /proc, where a
 * folder can be neither found nor made.
 */
export function makeFolders(folder: string): void {
  const missing: string[] = [];
  let current = resolve(folder);
  while (!existsSync(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of missing.reverse()) mkdirSync(dir);
}

/** Makes a rename durable; some file systems refuse fsync on a folder, which is harmless here. */
export function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}
