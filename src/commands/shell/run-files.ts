/**
 * Reading run files, the one way `score`, `report`, `power`, `judge run` and `runs` read them: a
 * file a live writer holds is refused (exit 2, naming the writer) unless `--allow-live-file` asks
 * for a snapshot; a torn last line is dropped with one note; the records of several files are
 * merged under one metadata, a file that cannot be merged being bad input (exit 2) everywhere.
 */
import { mergeRuns, parseRunBytes, type MergeResult, type ParsedRun } from "../../conditions/runner/index.ts";
import {
  checkNotBeingWritten,
  describeWriter,
  FabenchError,
  liveWriterOf,
  readBytes,
  sha256Hex,
} from "../../core/index.ts";
import type { CliIo } from "./io.ts";

/** The option that reads a run file a live writer holds: what it has written so far. */
export const ALLOW_LIVE_FILE = "--allow-live-file";

export interface RunFileReading {
  /** `--allow-live-file`: read a file a live writer holds, with a warning, instead of refusing. */
  readonly allowLiveFile?: boolean;
}

export interface RunFile {
  readonly path: string;
  readonly sha256: string;
  readonly parsed: ParsedRun;
}

/** A run file's bytes, once no live writer holds it (or the caller asked for a snapshot). */
export function readRunBytes(path: string, options: RunFileReading, io: CliIo): Buffer {
  if (options.allowLiveFile) {
    const writer = liveWriterOf(path);
    if (writer !== null)
      io.err(
        `warning: ${path} is being written by ${describeWriter(writer)}; reading a snapshot of it (${ALLOW_LIVE_FILE}): episodes still in flight are missing\n`,
      );
  } else checkNotBeingWritten(path, {}, ALLOW_LIVE_FILE);
  return readBytes(path, "run");
}

/** Parses run-file bytes; a torn last line (what a killed writer leaves) is dropped with one note. */
export function parseRunFile(bytes: Buffer, path: string, io: CliIo): ParsedRun {
  const parsed = parseRunBytes(bytes, path);
  if (parsed.tornBytes > 0)
    io.err(
      `${path}: ignoring a torn last line (${parsed.tornBytes} bytes, not a complete record); resume that run to finish it\n`,
    );
  return parsed;
}

export function readRunFile(path: string, options: RunFileReading, io: CliIo): RunFile {
  const bytes = readRunBytes(path, options, io);
  return { path, sha256: sha256Hex(bytes), parsed: parseRunFile(bytes, path, io) };
}

/**
 * Several run files, read and merged; records of different runs or an episode twice refuse the
 * set (exit 2). Missing episodes are the caller's to judge.
 */
export function readMergedRuns(
  paths: readonly string[],
  options: RunFileReading,
  io: CliIo,
  stage: string,
): { files: RunFile[]; merged: MergeResult } {
  const files = paths.map((path) => readRunFile(path, options, io));
  const merged = mergeRuns(
    files.map((f) => ({ file: f.path, records: f.parsed.records, lines: f.parsed.lines })),
  );
  if (merged.problems.length > 0)
    throw new FabenchError({
      kind: "input",
      stage,
      code: merged.problems[0]?.code ?? "bad_runs",
      message: "",
      problems: merged.problems,
    });
  return { files, merged };
}
