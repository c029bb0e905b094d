/**
 * Run files are JSON Lines, appended one record at a time. A process killed mid-write leaves at
 * most one torn last line (no newline); readers drop it and report how many bytes it had.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { inputError, issuePath, type Problem } from "../../core/index.ts";
import { runRecordSchema, type RunRecord } from "./record.ts";

export interface ParsedRun {
  readonly records: RunRecord[];
  /** 1-based line of each record. */
  readonly lines: number[];
  /** Bytes of complete lines; a torn tail starts here. */
  readonly completeBytes: number;
  readonly tornBytes: number;
}

export function parseRunBytes(bytes: Buffer, file: string): ParsedRun {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = bytes.subarray(0, end).toString("utf8");
  const records: RunRecord[] = [];
  const lines: number[] = [];
  const problems: Problem[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push({ code: "invalid_run_record", file, line: index + 1, message: "not valid JSON" });
      return;
    }
    const parsed = runRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push({
        code: "invalid_run_record",
        file,
        line: index + 1,
        message: `${issue ? `${issuePath(issue.path)}: ${issue.message}` : "not a run record"}`,
      });
      return;
    }
    records.push(parsed.data);
    lines.push(index + 1);
  });
  if (problems.length > 0)
    throw inputError("run", "invalid_run_record", problems[0]?.message ?? "", { file, problems });
  return { records, lines, completeBytes: end, tornBytes: bytes.length - end };
}

/** Appends whole lines; each record reaches the operating system before the next episode starts. */
export class RunWriter {
  private readonly fd: number;
  private written = 0;

  constructor(path: string) {
    this.fd = openSync(path, "a");
  }

  append(record: RunRecord): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
    let offset = 0;
    while (offset < line.length) offset += writeSync(this.fd, line, offset);
    // Durable against power loss every 50 records and at the end; a killed process loses nothing written.
    if (++this.written % 50 === 0) fsyncSync(this.fd);
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}
