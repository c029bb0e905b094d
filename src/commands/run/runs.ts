/** `fabench runs merge`: shards into one run file; `fabench runs dedupe`: each episode once, from a file two writers appended to. */
import { dirname } from "node:path";
import { dedupeRuns, parseRunBytes } from "../../conditions/runner/index.ts";
import {
  acquireWriteLock,
  checkOutput,
  FabenchError,
  formatProblem,
  makeFolders,
  writeFailure,
  writeFileAtomic,
} from "../../core/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { readMergedRuns, readRunBytes, type RunFileReading } from "../shell/run-files.ts";

export interface MergeOptions extends RunFileReading {
  readonly files: readonly string[];
  readonly out: string;
  readonly allowIncomplete: boolean;
  readonly json: boolean;
}

export function runsMerge(options: MergeOptions, io: CliIo): number {
  checkOutput(options.out, { inputs: options.files });
  // Records of different runs, or an episode twice: bad input (exit 2), as in score and judge run.
  const { merged } = readMergedRuns(options.files, options, io, "run");
  const complete = merged.missing.length === 0;
  if (!complete && !options.allowIncomplete) {
    for (const key of merged.missing.slice(0, 20))
      io.err(`${formatProblem({ code: "missing_episode", message: key })}\n`);
    if (merged.missing.length > 20) io.err(`… and ${merged.missing.length - 20} more\n`);
    io.err(
      `${options.out}: not written: ${merged.missingEpisodes} episode(s) missing; add --allow-incomplete to write anyway\n`,
    );
    return EXIT.failed;
  }
  writeRunFile(
    options.out,
    merged.records.map((r) => `${JSON.stringify(r)}\n`).join(""),
    "fabench runs merge",
    io,
  );
  if (options.json)
    printJson(io, {
      ok: true,
      out: options.out,
      records: merged.records.length,
      complete,
      missing: merged.missingEpisodes,
    });
  else
    io.out(
      `wrote ${options.out}: ${merged.records.length} episodes from ${options.files.length} file(s)${complete ? ", complete" : `, ${merged.missingEpisodes} missing`}\n`,
    );
  return EXIT.ok;
}

export interface DedupeOptions extends RunFileReading {
  readonly file: string;
  readonly out: string;
  readonly json: boolean;
}

/** How many dropped duplicates are listed one by one; the rest are counted. */
const LISTED = 20;

/**
 * Keeps the first complete record of each episode, in file order, with its bytes as they were;
 * drops later duplicates and a torn last line, and reports them.
 */
export function runsDedupe(options: DedupeOptions, io: CliIo): number {
  const { file, out } = options;
  checkOutput(out, { inputs: [file] });
  const bytes = readRunBytes(file, options, io);
  const parsed = parseRunBytes(bytes, file);
  const result = dedupeRuns(file, parsed.records, parsed.lines);
  if (result.problems.length > 0)
    throw new FabenchError({
      kind: "input",
      stage: "run",
      code: "metadata_mismatch",
      message: "",
      problems: result.problems,
    });
  const text = parsed.text.split("\n");
  writeRunFile(
    out,
    result.kept.map((i) => `${text[(parsed.lines[i] as number) - 1]}\n`).join(""),
    "fabench runs dedupe",
    io,
  );
  const differing = result.dropped.filter((d) => d.differs).length;
  if (options.json)
    printJson(io, {
      ok: true,
      file,
      out,
      records: parsed.records.length,
      kept: result.kept.length,
      dropped: result.dropped.length,
      differing,
      kept_errors_completed_later: result.keptErrorsCompletedLater,
      torn_bytes: parsed.tornBytes,
      duplicates: result.dropped.slice(0, LISTED),
      duplicates_not_listed: Math.max(0, result.dropped.length - LISTED),
    });
  else {
    const torn = parsed.tornBytes > 0 ? ` and a torn last line (${parsed.tornBytes} bytes)` : "";
    io.out(
      `wrote ${out}: ${result.kept.length} episode(s) from ${file}; dropped ${result.dropped.length} duplicate(s) (${differing} differing from the record kept, besides timings)${torn}\n`,
    );
    for (const d of result.dropped.slice(0, LISTED))
      io.out(
        `${file}:${d.line}: duplicate of line ${d.kept_line}${d.differs ? " (differs)" : ""}: ${d.key}\n`,
      );
    if (result.dropped.length > LISTED) io.out(`… and ${result.dropped.length - LISTED} more\n`);
    if (result.keptErrorsCompletedLater > 0)
      io.out(
        `${result.keptErrorsCompletedLater} kept record(s) are error-coded where a later duplicate completed; rerun them with \`fabench run … --out ${out} --resume --retry-errors\`\n`,
      );
  }
  return EXIT.ok;
}

/** Replaces a run file, holding its write lock, so no `fabench run` appends to it meanwhile. */
function writeRunFile(out: string, text: string, command: string, io: CliIo): void {
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
  const lock = acquireWriteLock(out, { command, warn: (line) => io.err(`${line}\n`) });
  try {
    writeFileAtomic(out, text);
  } finally {
    lock.release();
  }
}
