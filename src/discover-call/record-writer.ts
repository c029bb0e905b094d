/**
 * The run file while a run writes it: one line per record, appended and synced as each record is
 * written, so a run killed at any moment leaves every record before it whole (and at most one cut-off
 * line, which `--resume` drops). Whole-file rewrites — at the start of a resumed run and at the final
 * write — go through a temporary file and a rename, so they leave the old file or the new one.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { writeFailure, writeFileAtomic } from "../core/index.ts";
import type { RawRecord } from "./records.ts";

export function recordLines(records: readonly RawRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

export class RecordAppender {
  private fd: number | null;

  constructor(private readonly path: string) {
    try {
      this.fd = openSync(path, "a");
    } catch (error) {
      throw writeFailure(path, error);
    }
  }

  append(record: RawRecord): void {
    if (this.fd === null) throw new Error(`${this.path} is closed`);
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
      fsyncSync(this.fd);
    } catch (error) {
      throw writeFailure(this.path, error);
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Replaces the file with exactly these records (temporary file, fsync, rename). */
export function rewriteRecords(path: string, records: readonly RawRecord[]): void {
  writeFileAtomic(path, recordLines(records));
}
