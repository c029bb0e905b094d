/**
 * What both exports read: run files (the main input), the summary they were scored into (the
 * scores; each run file checked by hash against it, as `report` does), the corpus (the requests and
 * gold facts; checked by hash against the run, no content checks: the summary was scored from a
 * checked corpus with those bytes) and the protocol's system prompt (kept when its hash is the
 * run's). Nothing is rescored, so an export takes the time of reading its files.
 */
import { basename } from "node:path";
import { parseCorpusText, type Task, taskSchema } from "../../authoring/index.ts";
import type { RunRecord } from "../../conditions/runner/index.ts";
import { episodeKey, inputError, readBytes, readTextFile, sha256Hex, usageError } from "../../core/index.ts";
import type { ExportInput } from "../../export/index.ts";
import type { Summary } from "../../summary/index.ts";
import { loadSummaryProtocol, loadSystemPrompt } from "../../world/index.ts";
import { readMergedRuns, type RunFileReading } from "../shell/run-files.ts";
import type { CliIo } from "../shell/io.ts";
import { readSummary } from "../shell/inputs.ts";

export interface ExportOptions extends RunFileReading {
  /** Positional run files and `--runs` (repeatable), together. */
  readonly runs: readonly string[];
  readonly summary: string;
  readonly corpus: string;
  readonly protocol: string;
  readonly out: string;
  readonly json: boolean;
}

/** Every file the export reads: what `--out` must not overwrite. */
export function inputPaths(options: ExportOptions): string[] {
  return [...options.runs, options.summary, options.corpus, options.protocol];
}

/** What both exports read: the export stage's input, every file checked against the summary. */
export function readExportInputs(options: ExportOptions, io: CliIo, stage: string): ExportInput {
  if (options.runs.length === 0)
    throw usageError("no_runs", "give the run files the summary was scored from (positional or --runs)");
  const summary = readSummary(options.summary);
  const summarySha256 = sha256Hex(readBytes(options.summary, "summary"));
  const { files, merged } = readMergedRuns(options.runs, options, io, stage);
  for (const file of files) checkScoredFrom(summary, options.summary, file.path, file.sha256, stage);
  const records = merged.records;
  checkEveryEpisode(summary, options.summary, records, stage);
  return {
    summary,
    summarySha256,
    records,
    tasks: readCorpus(summary, options.summary, options.corpus, stage),
    systemPrompt: systemPromptOf(summary, options, stage),
    corpusName: basename(options.corpus),
  };
}

/** A run file's episodes may be exported only beside the scores made from it. */
function checkScoredFrom(summary: Summary, summaryPath: string, path: string, sha256: string, stage: string) {
  if (summary.run_files.some((f) => f.sha256 === sha256)) return;
  const scored = summary.run_files.map((f) => `${f.path} (${f.sha256.slice(0, 12)}…)`).join(", ");
  throw inputError(
    stage,
    "runs_not_scored_in_summary",
    `its hash ${sha256.slice(0, 12)}… is not one of the run files ${summaryPath} was scored from (${scored})`,
    { file: path },
  );
}

/** Every scored episode needs its record (the trajectory): a run file left out is named by count. */
function checkEveryEpisode(
  summary: Summary,
  summaryPath: string,
  records: readonly RunRecord[],
  stage: string,
) {
  const have = new Set(records.map(episodeKey));
  const missing = summary.episode_scores.filter((e) => !have.has(episodeKey(e)));
  if (missing.length === 0) return;
  const scored = summary.run_files.map((f) => f.path).join(", ");
  throw inputError(
    stage,
    "episodes_not_in_runs",
    `${missing.length} scored episode(s) have no record in the run files given (first: ${episodeKey(missing[0] as Summary["episode_scores"][number])}); give every run file the summary was scored from (${scored})`,
    { file: summaryPath },
  );
}

/** The corpus the run was made from, by its file hash; its rows are schema-checked, not content-checked. */
function readCorpus(summary: Summary, summaryPath: string, path: string, stage: string): Map<string, Task> {
  const file = readTextFile(path, "corpus");
  if (file.fileSha256 !== summary.run.corpus_file_sha256)
    throw inputError(
      stage,
      "corpus_not_scored_in_summary",
      `its hash ${file.fileSha256.slice(0, 12)}… is not the corpus ${summaryPath} was scored from (${summary.run.corpus_file_sha256.slice(0, 12)}…); give that corpus with --corpus, or its pilot with --pilot`,
      { file: path },
    );
  const tasks = parseCorpusText(file.text, path).rows.map((row) => taskSchema.parse(row.value));
  return new Map(tasks.map((t) => [t.semantic_task_id, t]));
}

/** The protocol's system prompt when its bytes are the run's; another prompt is left out, not shown as the run's. */
function systemPromptOf(summary: Summary, options: ExportOptions, stage: string): string | null {
  const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, stage);
  const prompt = loadSystemPrompt(options.protocol, protocol);
  return sha256Hex(prompt) === summary.run.system_prompt_sha256 ? prompt : null;
}
