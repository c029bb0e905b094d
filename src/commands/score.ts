/** `fabench score` and `fabench gate`: from run files to the summary and the verdict. */
import { basename, join } from "node:path";
import type { Task } from "../authoring/index.ts";
import {
  canonicalSha256,
  checkOutput,
  episodeKey,
  formatJsonFile,
  formatProblem,
  inputError,
  loadUnitConverter,
  usageError,
  writeFileAtomic,
} from "../core/index.ts";
import { gateExitCode, renderGate } from "../gates/index.ts";
import { scoreRecord, type RngName } from "../metrics/index.ts";
import { renderHeadline } from "../report/index.ts";
import { buildSummary, gateFor, withJudge } from "../summary/index.ts";
import { load, loadCheckedCorpus } from "./benchmark.ts";
import { prerequisiteFor } from "./conveyor.ts";
import { isPreregistered, jsonFilesIn, loadSummaryProtocol, readSummary } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { readMergedRuns, type RunFileReading } from "./run-files.ts";

export interface ScoreOptions {
  readonly runs: readonly string[];
  readonly corpus: string;
  readonly protocol: string;
  readonly plan: string;
  readonly catalogs: string;
  readonly conveyor: string;
  readonly out?: string;
  readonly rng: RngName;
  readonly allowIncomplete: boolean;
  readonly allowMixedModels: boolean;
  readonly json: boolean;
  /** Judgments files (`fabench judge run`): adds the summary's secondary `judge` section. */
  readonly judgments?: readonly string[];
  /** `--allow-live-file`: score a snapshot of a run file a live writer holds. */
  readonly allowLiveFile?: boolean;
}

export type RunInputs = Pick<ScoreOptions, "runs" | "corpus" | "protocol" | "plan" | "catalogs"> &
  RunFileReading;

/** Read run files, check they were made from this corpus and protocol, and score every episode. */
export async function scoreRunFiles(options: RunInputs, io: CliIo) {
  if (options.runs.length === 0) throw usageError("no_runs", "give at least one run file");
  const loaded = load({
    protocol: options.protocol,
    plan: options.plan,
    catalogs: options.catalogs,
    forbiddenCorpus: [],
  });
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const { files, merged } = readMergedRuns(options.runs, options, io, "score");
  const metadata = merged.records[0]?.metadata;
  if (!metadata) throw inputError("score", "empty_runs", "the run files hold no records");
  if (
    metadata.corpus_tasks_sha256 !== corpus.tasksSha256 ||
    metadata.protocol_sha256 !== loaded.protocolSha256
  )
    throw inputError(
      "score",
      "run_input_mismatch",
      mismatchMessage([
        ["corpus", "--corpus", metadata.corpus_tasks_sha256, corpus.tasksSha256],
        ["protocol", "--protocol", metadata.protocol_sha256, loaded.protocolSha256],
      ]) +
        (metadata.protocol_id.endsWith("-pilot") && metadata.protocol_sha256 !== loaded.protocolSha256
          ? ` (these are pilot runs of ${metadata.protocol_id}: pass their folder with --pilot DIR)`
          : ""),
      { file: options.runs[0] as string },
    );
  const tasks = new Map<string, Task>(corpus.tasks.map((t) => [t.semantic_task_id, t]));
  const units = await loadUnitConverter();
  const rows = merged.records.map((r) => scoreRecord(r, tasks.get(r.semantic_task_id) as Task, units));
  return { loaded, corpus, files, records: merged.records, metadata, tasks, rows };
}

export async function score(options: ScoreOptions, io: CliIo): Promise<number> {
  const out =
    options.out ??
    join("results", `${basename(options.runs[0] as string).replace(/\.jsonl$/, "")}.summary.json`);
  checkOutput(out, {
    inputs: [
      ...options.runs,
      options.corpus,
      options.protocol,
      options.plan,
      options.conveyor,
      ...jsonFilesIn(options.catalogs),
      ...(options.judgments ?? []),
    ],
  });
  const { loaded, files, records, metadata, tasks, rows } = await scoreRunFiles(options, io);
  // Judgments are read and joined before anything is written: a judgment of another run's answer,
  // or under another protocol, refuses the whole summary (exit 2) rather than describe the wrong
  // episodes. The judge stage loads only when asked for (it brings the provider SDKs with it).
  const judge = options.judgments?.length ? await import("../judge/index.ts") : null;
  const judgmentFiles = judge
    ? judge.readJudgmentsFiles(
        options.judgments ?? [],
        loaded.protocol.judge,
        loaded.protocolSha256,
        (line) => io.err(`${line}\n`),
      )
    : [];
  const joined = judge
    ? judge.joinJudgments(judgmentFiles, new Map(records.map((r) => [episodeKey(r), judge.answerSha256(r)])))
    : null;
  const refused = judge && joined && judge.judgmentsError(joined.problems);
  if (refused) throw refused;
  if (joined && joined.notInRuns > 0)
    io.err(
      `${joined.notInRuns} judgment(s) name episodes these run files do not hold; the summary counts them as not_in_runs\n`,
    );
  const result = buildSummary({
    protocol: loaded.protocol,
    protocolSha256: loaded.protocolSha256,
    preregistered: isPreregistered(loaded.protocolSha256),
    metadata,
    records,
    runFiles: files,
    rows,
    tasks,
    prerequisite: prerequisiteFor(loaded.protocol, options.conveyor),
    rng: options.rng,
    allowIncomplete: options.allowIncomplete,
    allowMixedModels: options.allowMixedModels,
  });
  if (!result.ok) {
    for (const problem of result.problems) io.err(`${formatProblem(problem)}\n`);
    if (result.total > result.problems.length)
      io.err(`… and ${result.total - result.problems.length} more\n`);
    io.err(`${result.advice}\n`);
    return EXIT.failed;
  }
  const summary =
    judge && joined
      ? withJudge(
          result.summary,
          judge.buildJudgeSection({
            protocol: loaded.protocol,
            rows,
            tasks,
            files: judgmentFiles,
            joined,
            rng: options.rng,
          }),
        )
      : result.summary;
  writeFileAtomic(out, formatJsonFile(summary));
  if (options.json)
    printJson(io, {
      out,
      complete: summary.complete,
      episodes: summary.episodes,
      infrastructure_errors: summary.infrastructure_errors.total,
      gate_status: summary.gate.status,
      summary_sha256: canonicalSha256(summary),
    });
  else io.out(renderHeadline(summary, out));
  return EXIT.ok;
}

export interface GateOptions {
  readonly summary: string;
  readonly protocol: string;
  readonly conveyor: string;
  readonly json: boolean;
}

export function gate(options: GateOptions, io: CliIo): number {
  const summary = readSummary(options.summary);
  const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, "gate");
  const verdict = gateFor(
    protocol,
    summary,
    prerequisiteFor(protocol, options.conveyor),
    isPreregistered(summary.protocol_sha256),
  );
  if (options.json) printJson(io, verdict);
  else io.out(renderGate(verdict));
  return gateExitCode(verdict);
}

/** Names only the inputs that differ, with both hashes and the flag that gives the run's own. */
function mismatchMessage(
  inputs: ReadonlyArray<readonly [name: string, flag: string, run: string, given: string]>,
): string {
  const differing = inputs.filter(([, , run, given]) => run !== given);
  const parts = differing.map(
    ([name, , run, given]) => `${name} (run ${run.slice(0, 12)}…, given ${given.slice(0, 12)}…)`,
  );
  const flags = differing.map(([, flag]) => flag).join(" and ");
  return `the runs were made from another ${parts.join(" and another ")}; pass the files they were made from with ${flags}`;
}
