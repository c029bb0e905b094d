/**
 * `fabench discover-call publish` and `fabench discover-call validate` (§7).
 *
 * publish: a task set, a run's raw records and a policy in; the public records and their summary
 * out, written together (both files or neither, see write-together.ts). Everything is read and
 * checked first, and the output must pass the validator, so a refused run leaves no file behind.
 *
 * validate: a public run file, its summary, the task set and a policy; exit 0 when valid, 1 with
 * every problem listed (50 per file, then counts by code), 2 when an input cannot be read.
 */
import {
  checkOutput,
  decodeUtf8,
  FabenchError,
  inputError,
  parseJsonText,
  type Problem,
  problemLines,
  readBytes,
  usageError,
  withJsonLines,
} from "../../core/index.ts";
import {
  defaultPolicyPath,
  parsePolicy,
  parseRecords,
  parseTaskSet,
  preparePublication,
  readPublicRuns,
  validatePublication,
} from "../../discover-call/index.ts";
import { EXIT, type CliIo } from "../shell/io.ts";
import { type FileOps, nodeFileOps, writeFilesTogether } from "../shell/write-together.ts";

const STAGE = "discover-call";

export interface DiscoverCallPublishOptions {
  /** The task-set JSONL the run used. */
  readonly tasks: string;
  /** The run's raw record JSONL (private). */
  readonly runs: string;
  /** Where the public records go. */
  readonly outputRuns: string;
  /** Where their summary goes. */
  readonly outputSummary: string;
  /** The publication policy; fabench's own when absent. */
  readonly policy?: string;
  /** Apply the official-run rules (default true). */
  readonly official?: boolean;
}

export interface PublishDeps {
  readonly now?: () => Date;
  readonly fileOps?: FileOps;
}

export function discoverCallPublish(
  options: DiscoverCallPublishOptions,
  io: CliIo,
  deps: PublishDeps = {},
): number {
  const policyPath = options.policy ?? defaultPolicyPath();
  const inputs = [options.tasks, options.runs, policyPath];
  checkOutput(options.outputRuns, { inputs, flag: "--out-runs" });
  checkOutput(options.outputSummary, { inputs, flag: "--out-summary" });
  checkDistinct(options.outputRuns, options.outputSummary);
  const taskSet = parseTaskSet(readBytes(options.tasks, STAGE), options.tasks);
  const raw = parseRecords(readBytes(options.runs, "run"), options.runs);
  if (raw.kind !== "raw")
    throw inputError(
      STAGE,
      "not_raw_records",
      "these are public records; publish reads a run's raw records",
      {
        file: options.runs,
      },
    );
  const policy = parsePolicy(readBytes(policyPath, STAGE), policyPath);
  const publication = preparePublication({
    raw,
    taskSet,
    policy,
    generatedAt: (deps.now ?? (() => new Date()))().toISOString(),
    summaryFile: options.outputSummary,
    ...(options.official === undefined ? {} : { official: options.official }),
  });
  if (!publication.ok) return refuse(io, publication.problems, "nothing was written");
  const { records, summary, runsText, summaryText } = publication.value;
  writeFilesTogether(
    [
      { path: options.outputRuns, text: runsText },
      { path: options.outputSummary, text: summaryText },
    ],
    deps.fileOps ?? nodeFileOps,
  );
  io.out(
    `wrote ${options.outputRuns} (${records.length} public records) and ${options.outputSummary} (${summary.methodology}, ${summary.models.length} model(s)) under policy ${policy.policy_id}\n`,
  );
  return EXIT.ok;
}

/** The two outputs must be two files: the second would silently replace the first. */
function checkDistinct(runs: string, summary: string): void {
  try {
    checkOutput(summary, { inputs: [runs], flag: "--out-summary" });
  } catch (error) {
    if (error instanceof FabenchError && error.code === "output_is_input")
      throw usageError("same_output", `--out-runs and --out-summary name the same file (${summary})`);
    throw error;
  }
}

export interface DiscoverCallValidateOptions {
  readonly tasks: string;
  /** The public record JSONL. */
  readonly runs: string;
  /** Its summary JSON. */
  readonly summary: string;
  /** The publication policy; fabench's own when absent. */
  readonly policy?: string;
  /** Apply the official-run rules (default true). */
  readonly official?: boolean;
}

export function discoverCallValidate(options: DiscoverCallValidateOptions, io: CliIo): number {
  const policyPath = options.policy ?? defaultPolicyPath();
  const taskSet = parseTaskSet(readBytes(options.tasks, STAGE), options.tasks);
  const policy = parsePolicy(readBytes(policyPath, STAGE), policyPath);
  const runs = readPublicRuns(readBytes(options.runs, "run"), options.runs);
  const summaryText = decodeUtf8(readBytes(options.summary, "summary"), options.summary, STAGE);
  const summary = parseJsonText(summaryText, options.summary, STAGE);
  const problems = validatePublication(runs.values, summary, taskSet, policy, {
    runsFile: options.runs,
    summaryFile: options.summary,
    lines: runs.lines,
    ...(options.official === undefined ? {} : { official: options.official }),
  });
  if (problems.length > 0) return refuse(io, withJsonLines(problems, summaryText), "not valid");
  io.out(
    `valid: ${runs.values.length} public records and their summary under policy ${policy.policy_id}${options.official === false ? "" : ", an official run"}\n`,
  );
  return EXIT.ok;
}

function refuse(io: CliIo, problems: readonly Problem[], verdict: string): number {
  for (const line of problemLines(problems)) io.err(`${line}\n`);
  io.err(`${verdict}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n`);
  return EXIT.failed;
}
