/**
 * The run file while a run writes it: one line per record, appended as each record is made
 * (core/jsonl-appender.ts: fsync every 50 lines and at the end), so a run killed at any moment
 * leaves every record before it whole (and at most one cut-off line, which `--resume` drops).
 * Whole-file rewrites — at the start of a resumed run and at the final write — go through a
 * temporary file and a rename, so they leave the old file or the new one.
 */
import { JsonlAppender, writeFileAtomic } from "../core/index.ts";
import type { RawRecord } from "./records.ts";

export function recordLines(records: readonly RawRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

export class RecordAppender extends JsonlAppender<RawRecord> {
  /** Closes the file; a write or sync that failed ends the run with its error. */
  override close(): void {
    super.close();
    if (this.failure !== null) throw this.failure;
  }
}

/** Replaces the file with exactly these records (temporary file, fsync, rename). */
export function rewriteRecords(path: string, records: readonly RawRecord[]): void {
  writeFileAtomic(path, recordLines(records));
}
