/**
 * The one way fabench appends to a JSON Lines file it is writing (run records, judgments,
 * discover-call trials): each whole line reaches the operating system before the next one is
 * made, so a killed process loses nothing written and leaves at most one torn last line (which
 * `--resume` drops). One fsync policy: every 50 lines and at close — durable against power loss
 * without a disk flush per record. A write that fails part-way (a full disk, say) is cut back to
 * the last whole line, so the file never holds a torn line this process could have removed, and
 * the failure is `cannot_write` (exit 2): `--resume` continues from the last line written.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { FabenchError, inputError } from "./errors.ts";
import { writeFailure } from "./atomic-write.ts";

/** The file operations an appender uses: node's, or a test's that fails on cue (a full disk). */
export interface AppendFs {
  readonly openSync: (path: string, flags: string) => number;
  readonly writeSync: (fd: number, buffer: Uint8Array, offset: number) => number;
  readonly fsyncSync: (fd: number) => void;
  readonly fstatSync: (fd: number) => { size: number };
  readonly ftruncateSync: (fd: number, length: number) => void;
  readonly closeSync: (fd: number) => void;
}

const nodeFs: AppendFs = {
  openSync,
  writeSync: (fd, buffer, offset) => writeSync(fd, buffer, offset),
  fsyncSync,
  fstatSync,
  ftruncateSync,
  closeSync,
};

/** Lines between two fsyncs. */
const SYNC_EVERY = 50;

export class JsonlAppender<T> {
  private readonly fd: number;
  private written = 0;
  private size: number;
  private failed: unknown = null;

  constructor(
    private readonly path: string,
    private readonly fs: AppendFs = nodeFs,
  ) {
    try {
      this.fd = fs.openSync(path, "a");
      this.size = fs.fstatSync(this.fd).size;
    } catch (error) {
      throw writeFailure(path, error);
    }
  }

  append(value: T): void {
    if (this.failed !== null) throw this.failed;
    const line = Buffer.from(`${JSON.stringify(value)}\n`, "utf8");
    try {
      let offset = 0;
      while (offset < line.length) offset += this.fs.writeSync(this.fd, line, offset);
      if (++this.written % SYNC_EVERY === 0) this.fs.fsyncSync(this.fd);
    } catch (error) {
      this.cutBack();
      const mapped = writeFailure(this.path, error);
      // An errno writeFailure has no words for is still a write that failed: never an internal error.
      this.failed =
        mapped instanceof FabenchError
          ? mapped
          : inputError("output", "cannot_write", `cannot write here: ${errnoOf(error)}`, { file: this.path });
      throw this.failed;
    }
    this.size += line.length;
  }

  /** Syncs and closes; a failure to sync is kept in `failure` (the caller decides how the run ends). */
  close(): void {
    try {
      this.fs.fsyncSync(this.fd);
    } catch (error) {
      this.failed ??= writeFailure(this.path, error);
    } finally {
      try {
        this.fs.closeSync(this.fd);
      } catch {
        /* the descriptor is gone either way */
      }
    }
  }

  /** The write error that stopped this appender, if any (null while every append succeeded). */
  get failure(): unknown {
    return this.failed;
  }

  /** Removes the bytes of a line that was only partly written; best effort on a failing device. */
  private cutBack(): void {
    try {
      this.fs.ftruncateSync(this.fd, this.size);
    } catch {
      /* a torn last line is left; the next --resume drops it and says so */
    }
  }
}

function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
