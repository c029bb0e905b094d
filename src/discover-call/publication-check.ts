/**
 * Validating public artefacts (§7): a public run file and its summary, checked against the task set
 * and the policy. Every record obeys the record rules; an official run (the default: every
 * published run is one) is executed, names real revisions and has at least three trials of every
 * task per model; and the summary is rebuilt from the records with the scorer and compared field
 * by field, `generated_at` aside. Pure: values in, every problem out (none means valid).
 */
import { issuePath, jsonEqual, type Problem } from "../core/index.ts";
import { isObject } from "./across-fields.ts";
import { byLine } from "./jsonl.ts";
import { forbiddenFieldSet, type PublicationPolicy } from "./policy.ts";
import {
  checkOfficialRecord,
  checkPublicRecord,
  type Finding,
  forbiddenPaths,
  formatPath,
  isTimestamp,
  type JsonPath,
} from "./publication-rules.ts";
import { type PublicRecord, publicRecordSchema } from "./records.ts";
import { summarizeRecords } from "./score.ts";
import type { TaskSet } from "./tasks.ts";

/** An official run has at least this many trials of every task, for every model. */
export const MIN_OFFICIAL_TRIALS = 3;

/** Summary maps keyed by stage or reason code: their keys are data, not field names. */
const COUNTS_BY_CODE = ["failures_by_stage", "failures_by_reason"];

export interface PublicationCheckOptions {
  /** The public run file's name, for problems. */
  readonly runsFile?: string;
  /** The summary file's name, for problems. */
  readonly summaryFile?: string;
  /** 1-based line of each record in the run file; record i is on line i + 1 when absent. */
  readonly lines?: readonly number[];
  /** Apply the official-run rules (default true: the reference publishes official runs only). */
  readonly official?: boolean;
}

/**
 * Every problem of a public run and its summary: run-file problems in line order, then summary
 * problems, which carry a `jsonPath` for the caller to turn into a line.
 */
export function validatePublication(
  publicRecords: readonly unknown[],
  summary: unknown,
  taskSet: TaskSet,
  policy: PublicationPolicy,
  options: PublicationCheckOptions = {},
): Problem[] {
  const runsFile = options.runsFile ?? "public runs";
  const official = options.official ?? true;
  const lines = publicRecords.map((_, i) => options.lines?.[i] ?? i + 1);
  const problems: Problem[] = [];
  const valid: PublicRecord[] = [];
  publicRecords.forEach((record, index) => {
    const add = (finding: Finding) =>
      problems.push({ ...finding, file: runsFile, line: lines[index] as number });
    const findings = checkPublicRecord(record, policy);
    findings.forEach(add);
    if (official && isObject(record)) checkOfficialRecord(record, taskSet.sha256).forEach(add);
    const parsed = publicRecordSchema.safeParse(record);
    if (parsed.success) valid.push(record as PublicRecord);
    // The record schema and these rules agree; should they ever not, its word is reported too.
    else if (findings.length === 0)
      for (const issue of parsed.error.issues)
        add({ code: "invalid_record", message: `${issuePath(issue.path)}: ${issue.message}` });
  });
  if (publicRecords.length === 0)
    problems.push({ code: "no_records", file: runsFile, message: "the file holds no public records" });
  if (official) problems.push(...tooFewTrials(publicRecords, lines, runsFile));

  const summaryFile = options.summaryFile ?? "summary";
  const summaryProblems = forbiddenPaths(summary, forbiddenFieldSet(policy))
    .filter((path) => !COUNTS_BY_CODE.includes(path.at(-2) as string))
    .map(
      (path): Problem => ({
        code: "forbidden_field",
        file: summaryFile,
        jsonPath: path,
        message: `${formatPath(path)} is a field policy ${policy.policy_id} forbids in public artefacts`,
      }),
    );
  if (!isObject(summary))
    summaryProblems.push({
      code: "summary_mismatch",
      file: summaryFile,
      message: "the summary is not a JSON object",
    });
  else if (!isTimestamp(summary["generated_at"]))
    summaryProblems.push({
      code: "invalid_summary",
      file: summaryFile,
      jsonPath: ["generated_at"],
      message: "generated_at must be an ISO 8601 UTC timestamp",
    });
  if (valid.length < publicRecords.length)
    summaryProblems.push({
      code: "summary_not_rebuilt",
      file: summaryFile,
      message: `not compared: ${publicRecords.length - valid.length} of ${publicRecords.length} records are not valid public records`,
    });
  else if (isObject(summary) && valid.length > 0) {
    const generatedAt = typeof summary["generated_at"] === "string" ? summary["generated_at"] : "";
    const rebuilt = summarizeRecords({
      taskSet,
      records: { file: runsFile, kind: "public", records: valid, lines },
      generatedAt,
    });
    if (!rebuilt.ok)
      // The official rules already name a foreign task set on every record.
      problems.push(...rebuilt.problems.filter((p) => !(official && p.code === "task_set_mismatch")));
    else
      for (const { path, message } of differences(withoutTime(summary), withoutTime(rebuilt.value), []))
        summaryProblems.push({
          code: "summary_mismatch",
          file: summaryFile,
          jsonPath: path,
          message: `${issuePath(path)} ${message}`,
        });
  }
  return [...problems.sort(byLine), ...summaryProblems];
}

/** Problems of models that ran some task fewer than {@link MIN_OFFICIAL_TRIALS} times. */
function tooFewTrials(records: readonly unknown[], lines: readonly number[], file: string): Problem[] {
  const groups = new Map<string, { model: string; task: string; count: number; line: number }>();
  records.forEach((record, index) => {
    if (!isObject(record)) return;
    const [model, task] = [String(record["model"]), String(record["task_id"])];
    const key = JSON.stringify([model, task]);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { model, task, count: 1, line: lines[index] as number });
  });
  return [...groups.values()]
    .filter((g) => g.count < MIN_OFFICIAL_TRIALS)
    .map((g) => ({
      code: "too_few_trials",
      file,
      line: g.line,
      message: `model ${g.model} has ${g.count} trial${g.count === 1 ? "" : "s"} of task ${g.task}; an official run has at least ${MIN_OFFICIAL_TRIALS}`,
    }));
}

function withoutTime(summary: Record<string, unknown>): Record<string, unknown> {
  const { generated_at: _, ...rest } = summary;
  return rest;
}

const clip = (value: unknown) => {
  const text = value === undefined ? "absent" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** Where `published` differs from `rebuilt`: each differing value, missing or extra field, or array length. */
function differences(
  published: unknown,
  rebuilt: unknown,
  path: JsonPath,
): Array<{ path: JsonPath; message: string }> {
  if (isObject(published) && isObject(rebuilt)) {
    const missing = Object.keys(rebuilt)
      .filter((key) => !Object.hasOwn(published, key))
      .map((key) => ({ path: [...path, key], message: "is missing" }));
    return [
      ...missing,
      ...Object.keys(published).flatMap((key) =>
        Object.hasOwn(rebuilt, key)
          ? differences(published[key], rebuilt[key], [...path, key])
          : [{ path: [...path, key], message: "is not a field of the summary" }],
      ),
    ];
  }
  if (Array.isArray(published) && Array.isArray(rebuilt)) {
    if (published.length !== rebuilt.length)
      return [{ path, message: `has ${published.length} items; the records give ${rebuilt.length}` }];
    return published.flatMap((item, i) => differences(item, rebuilt[i], [...path, i]));
  }
  return jsonEqual(published, rebuilt)
    ? []
    : [{ path, message: `is ${clip(published)}; the records give ${clip(rebuilt)}` }];
}
