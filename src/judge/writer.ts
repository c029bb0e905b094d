/**
 * Appends judgment lines the way run files are appended: each whole line handed to the operating
 * system as it is ready (a killed process loses nothing written and leaves at most one torn last
 * line, which `--resume` drops), fsync every 50 lines and at the end.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { writeFailure } from "../core/index.ts";
import type { Judgment } from "./record.ts";

export class JudgmentWriter {
  private readonly fd: number;
  private written = 0;

  constructor(private readonly path: string) {
    try {
      this.fd = openSync(path, "a");
    } catch (error) {
      throw writeFailure(path, error);
    }
  }

  append(judgment: Judgment): void {
    const line = Buffer.from(`${JSON.stringify(judgment)}\n`, "utf8");
    try {
      let offset = 0;
      while (offset < line.length) offset += writeSync(this.fd, line, offset);
      if (++this.written % 50 === 0) fsyncSync(this.fd);
    } catch (error) {
      throw writeFailure(this.path, error);
    }
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}
