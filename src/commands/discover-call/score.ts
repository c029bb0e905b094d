/**
 * `fabench discover-call score`: a task set and a record file (raw or public) in, the summary out —
 * on stdout, or written atomically to `--out`. Everything is read and checked before anything
 * is written, so a refused input leaves no file behind. The headline — per model, workflow success
 * with its interval and the failures by stage — goes to stdout beside `--out`, and to stderr
 * when stdout carries the summary JSON, so the JSON stays one document a pipe can read.
 */
import { checkOutput, formatJsonFile, readBytes, writeFileAtomic } from "../../core/index.ts";
import { parseRecords, parseTaskSet, scoreDiscoverCall, scoreLines } from "../../discover-call/index.ts";
import { EXIT, type CliIo } from "../shell/io.ts";

export interface DiscoverCallScoreOptions {
  /** The task-set JSONL the records were run with. */
  readonly tasks: string;
  /** The record JSONL. */
  readonly runs: string;
  /** Where to write the summary; stdout when absent. */
  readonly output?: string;
}

export function discoverCallScore(
  options: DiscoverCallScoreOptions,
  io: CliIo,
  now: () => Date = () => new Date(),
): number {
  if (options.output !== undefined)
    checkOutput(options.output, { inputs: [options.tasks, options.runs], flag: "--out" });
  const taskSet = parseTaskSet(readBytes(options.tasks, "discover-call"), options.tasks);
  // Record files get the run-file size limit: a long run with many trials is still one file.
  const records = parseRecords(readBytes(options.runs, "run"), options.runs);
  const summary = scoreDiscoverCall({ taskSet, records, generatedAt: now().toISOString() });
  const text = formatJsonFile(summary);
  const headline = scoreLines(summary)
    .map((line) => `${line}\n`)
    .join("");
  if (options.output === undefined) {
    io.out(text);
    io.err(headline);
  } else {
    writeFileAtomic(options.output, text);
    io.out(headline);
    io.out(
      `wrote ${options.output}: ${summary.methodology}, ${summary.records.length} records, ${summary.models.length} model(s)\n`,
    );
  }
  return EXIT.ok;
}
