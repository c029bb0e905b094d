/**
 * Resuming a run file: which episodes an interrupted run already finished, and --retry-errors'
 * rewrite without error-coded records. The checks are pure (they take the parsed file); the two
 * shell functions below read, truncate and rewrite the file itself.
 */
import { appendFileSync, existsSync, truncateSync } from "node:fs";
import { canonicalJson, inputError, readBytes, writeFailure, writeFileAtomic } from "../../core/index.ts";
import { episodeKey, type EpisodeKey, type PlannedEpisode } from "./episodes.ts";
import type { RunMetadata } from "./record.ts";
import { parseRunBytes, type ParsedRun } from "./run-file.ts";

export interface ResumeState {
  readonly done: Set<string>;
  readonly droppedTornBytes: number;
}

/**
 * The finished episodes of a parsed run file; refuses records of another run or episodes outside
 * this selection and shard, and an episode written twice.
 */
export function finishedEpisodeKeys(
  parsed: Pick<ParsedRun, "records" | "lines">,
  metadata: RunMetadata,
  planned: readonly EpisodeKey[],
  file: string,
): Set<string> {
  const expected = canonicalJson(metadata);
  const wanted = new Set(planned.map(episodeKey));
  const done = new Set<string>();
  parsed.records.forEach((record, i) => {
    const line = parsed.lines[i];
    if (canonicalJson(record.metadata) !== expected) {
      const fields = Object.keys(metadata).filter(
        (k) =>
          canonicalJson((record.metadata as Record<string, unknown>)[k]) !==
          canonicalJson((metadata as Record<string, unknown>)[k]),
      );
      throw inputError(
        "run",
        "resume_metadata_mismatch",
        `this record belongs to another run (${fields.join(", ")} differ); use a new --out`,
        { file, ...(line ? { line } : {}) },
      );
    }
    const key = episodeKey(record);
    if (!wanted.has(key))
      throw inputError("run", "resume_foreign_episode", `${key} is not part of this selection or shard`, {
        file,
        ...(line ? { line } : {}),
      });
    if (done.has(key))
      throw inputError("run", "duplicate_episode", `${key} appears twice`, {
        file,
        ...(line ? { line } : {}),
      });
    done.add(key);
  });
  return done;
}

/** The run file's text without its error-coded records, and how many went. */
export function withoutErrorRecords(parsed: Pick<ParsedRun, "records">): { text: string; dropped: number } {
  const keep = parsed.records.filter((r) => r.status !== "error");
  return {
    text: keep.map((r) => `${JSON.stringify(r)}\n`).join(""),
    dropped: parsed.records.length - keep.length,
  };
}

/**
 * Reads an interrupted run file: drops a torn last line (truncating the file), refuses records of
 * another run or episodes outside this selection and shard, and lists the finished episodes.
 */
export function prepareResume(
  out: string,
  metadata: RunMetadata,
  planned: readonly PlannedEpisode[],
): ResumeState {
  if (!existsSync(out)) return { done: new Set(), droppedTornBytes: 0 };
  const parsed = parseRunBytes(readBytes(out, "run"), out);
  if (parsed.tornBytes > 0) truncateSync(out, parsed.completeBytes);
  // A whole last record without its newline is kept; the next record must start on a line of its own.
  if (parsed.unterminated) appendNewline(out);
  return { done: finishedEpisodeKeys(parsed, metadata, planned, out), droppedTornBytes: parsed.tornBytes };
}

/** For --retry-errors: rewrites the run file without its error-coded records; returns how many went. */
export function dropErrorRecords(out: string): number {
  if (!existsSync(out)) return 0;
  const bytes = readBytes(out, "run");
  const { text, dropped } = withoutErrorRecords(parseRunBytes(bytes, out));
  if (dropped > 0) writeFileAtomic(out, text);
  return dropped;
}

function appendNewline(out: string): void {
  try {
    appendFileSync(out, "\n");
  } catch (error) {
    throw writeFailure(out, error);
  }
}

export interface ResumeFlags {
  readonly resume: boolean;
  readonly retryErrors: boolean;
}

/**
 * With --resume: what the run file already holds (with --retry-errors its error-coded records are
 * dropped first, so they run again). `warn` gets one line, with its newline, per change made.
 */
export function resumeRunFile(
  out: string,
  flags: ResumeFlags,
  metadata: RunMetadata,
  planned: readonly PlannedEpisode[],
  warn: (line: string) => void,
): ResumeState {
  if (flags.resume && flags.retryErrors) {
    const dropped = dropErrorRecords(out);
    if (dropped > 0) warn(`${out}: ${dropped} error-coded episode(s) will be run again\n`);
  }
  const resume = flags.resume
    ? prepareResume(out, metadata, planned)
    : { done: new Set<string>(), droppedTornBytes: 0 };
  if (resume.droppedTornBytes > 0)
    warn(`${out}: dropped a torn last line (${resume.droppedTornBytes} bytes) left by an interrupted run\n`);
  return resume;
}
