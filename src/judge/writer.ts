/**
 * Appends judgment lines the way run files are appended (core/jsonl-appender.ts: whole lines, a
 * failed write cut back, fsync every 50 lines and at the end; a torn last line left by a killed
 * process is what `--resume` drops).
 */
import { JsonlAppender } from "../core/index.ts";
import type { Judgment } from "./record.ts";

export class JudgmentWriter extends JsonlAppender<Judgment> {
  /** Closes the file; a write or sync that failed ends the judging run with its error. */
  override close(): void {
    super.close();
    if (this.failure !== null) throw this.failure;
  }
}
