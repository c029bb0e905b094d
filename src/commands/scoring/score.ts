/** `fabench score` and `fabench gate`: from run files to the summary and the verdict. */
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Task } from "../../authoring/index.ts";
import {
  canonicalSha256,
  checkOutput,
  episodeKey,
  formatJsonFile,
  formatProblem,
  inputError,
  jsonFilesIn,
  loadUnitConverter,
  usageError,
  writeFileAtomic,
} from "../../core/index.ts";
import { gateExitCode, renderGate } from "../../gates/index.ts";
import { scoreRecord, type RngName } from "../../metrics/index.ts";
import { renderHeadline } from "../../report/index.ts";
import { buildSummary, gateFor, parseOnce, withJudge, withProtocolFile } from "../../summary/index.ts";
import {
  loadSummaryProtocol,
  preregistrationOf,
  loadWorld,
  checkRunsMadeFrom,
  prerequisiteFor,
  type World,
} from "../../world/index.ts";
import { readSummary } from "../shell/inputs.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { readMergedRuns, type RunFileReading } from "../shell/run-files.ts";
import { worldHooks } from "../shell/world-hooks.ts";

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
  Partial<Pick<ScoreOptions, "conveyor" | "json">> &
  RunFileReading;

/** Read run files, check they were made from this corpus and protocol, and score every episode. */
export async function scoreRunFiles(options: RunInputs, io: CliIo) {
  if (options.runs.length === 0) throw usageError("no_runs", "give at least one run file");
  const loaded: World = await loadWorld(options, worldHooks(io, options.json === true));
  const { corpus } = loaded;
  const { files, merged } = readMergedRuns(options.runs, options, io, "score");
  const metadata = merged.records[0]?.metadata;
  if (!metadata) throw inputError("score", "empty_runs", "the run files hold no records");
  checkRunsMadeFrom(metadata, loaded, options.runs[0] as string);
  const tasks = new Map<string, Task>(corpus.tasks.map((t) => [t.semantic_task_id, t]));
  const units = await loadUnitConverter();
  // A search condition's episodes carry their search counts, even a record that omits it (0).
  const search = new Set(
    loaded.protocol.conditions.filter((c) => (c.visibility.kind as string) === "search").map((c) => c.id),
  );
  const rows = merged.records.map((r) =>
    scoreRecord(r, tasks.get(r.semantic_task_id) as Task, units, { search: search.has(r.condition) }),
  );
  return { loaded, corpus, files, records: merged.records, metadata, tasks, rows };
}

export async function score(options: ScoreOptions, io: CliIo): Promise<number> {
  parseOnce();
  const out = summaryPath(options);
  const scored = await scoreRunFiles(options, io);
  const { loaded, files, records, metadata, tasks, rows } = scored;
  const judged = options.judgments?.length ? await readJudgments(options.judgments, scored, io) : null;
  const preregistration = preregistrationOf(loaded.protocol);
  const result = buildSummary({
    protocol: loaded.protocol,
    protocolSha256: loaded.protocolSha256,
    preregistered: preregistration.protocol,
    conditionsNotPreregistered: preregistration.conditionsNot,
    metadata,
    records,
    runFiles: files,
    rows,
    tasks,
    prerequisite: loaded.prerequisite ?? prerequisiteFor(loaded.protocol, options.conveyor),
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
  const whole = judged ? withJudge(result.summary, judged.section(options.rng)) : result.summary;
  // A pilot's summary names its protocol file, relative to the summary, for gate and report (#35).
  const named = relative(dirname(resolve(out)), resolve(options.protocol))
    .split("\\")
    .join("/");
  const summary = preregistration.protocol ? whole : withProtocolFile(whole, named);
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

/** The summary's path (beside the user, under results/, by default), checked to overwrite no input. */
function summaryPath(options: ScoreOptions): string {
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
  return out;
}

/**
 * Judgments are read and joined before anything is written: a judgment of another run's answer,
 * or under another protocol, refuses the whole summary (exit 2) rather than describe the wrong
 * episodes. The judge stage loads only when asked for (it brings the provider SDKs with it).
 */
async function readJudgments(
  paths: readonly string[],
  scored: Awaited<ReturnType<typeof scoreRunFiles>>,
  io: CliIo,
) {
  const { loaded, records, rows, tasks } = scored;
  const judge = await import("../../judge/index.ts");
  const files = judge.readJudgmentsFiles(paths, loaded.protocol.judge, loaded.protocolSha256, (line) =>
    io.err(`${line}\n`),
  );
  const joined = judge.joinJudgments(
    files,
    new Map(records.map((r) => [episodeKey(r), judge.answerSha256(r)])),
  );
  const refused = judge.judgmentsError(joined.problems);
  if (refused) throw refused;
  if (joined.notInRuns > 0)
    io.err(
      `${joined.notInRuns} judgment(s) name episodes these run files do not hold; the summary counts them as not_in_runs\n`,
    );
  return {
    section: (rng: RngName) =>
      judge.buildJudgeSection({ protocol: loaded.protocol, rows, tasks, files, joined, rng }),
  };
}

export interface GateOptions {
  readonly summary: string;
  readonly protocol: string;
  readonly conveyor: string;
  readonly json: boolean;
}

export function gate(options: GateOptions, io: CliIo): number {
  parseOnce();
  const summary = readSummary(options.summary);
  const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, "gate");
  const verdict = gateFor(
    protocol,
    summary,
    prerequisiteFor(protocol, options.conveyor),
    preregistrationOf(protocol),
  );
  if (options.json) printJson(io, verdict);
  else io.out(renderGate(verdict));
  return gateExitCode(verdict);
}
