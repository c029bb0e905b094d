/**
 * What a summary refuses to average (§6): records of another task set or methodology, repeated
 * run ids, tasks the set does not have or records it lacks, trial counts that differ or skip,
 * and conditions (lane, revisions, endpoint, runtime, limit, execution) that change within a
 * model. Every refusal is listed, each at the line of a record that shows it.
 */
import { canonicalJson, type Problem } from "../core/index.ts";
import type { DiscoverCallRecord, RecordFile } from "./records.ts";
import type { TaskSet } from "./tasks.ts";

/** Metadata that must be one value within a model, in the reference implementation's order. */
export const COMPARABLE_METADATA = [
  "lane",
  "model_revision",
  "adapter_revision",
  "toolkit_revision",
  "task_set_sha256",
  "api_base_url",
  "api_revision",
  "catalog_revision",
  "catalog_observation_sha256",
  "runtime",
  "discovery_limit",
  "execute",
] as const;

interface Located {
  readonly record: DiscoverCallRecord;
  readonly line: number;
}

export function refusals(taskSet: TaskSet, input: RecordFile): Problem[] {
  const file = input.file;
  const located: Located[] = input.records.map((record, i) => ({ record, line: input.lines[i] as number }));
  const at = (line: number, code: string, message: string): Problem => ({ code, file, line, message });
  const problems: Problem[] = [];

  for (const [digest, group] of groupBy(located, (r) => r.record.metadata.task_set_sha256))
    if (digest !== taskSet.sha256)
      problems.push(
        at(
          first(group).line,
          "task_set_mismatch",
          `${plural(group.length, "record")} name task set ${digest}, but ${taskSet.file} has SHA-256 ${taskSet.sha256}; score records with the task file they were run with`,
        ),
      );

  const versions = groupBy(located, (r) => r.record.benchmark_version);
  if (versions.size > 1)
    problems.push(
      at(
        first([...versions.values()][1] ?? []).line,
        "mixed_methodology",
        `records of several methodologies (${describeGroups(versions)}); a summary covers one`,
      ),
    );

  const runIds = new Map<string, number>();
  for (const { record, line } of located) {
    const earlier = runIds.get(record.run_id);
    if (earlier !== undefined)
      problems.push(
        at(line, "duplicate_run_id", `run id ${record.run_id} is already used on line ${earlier}`),
      );
    else runIds.set(record.run_id, line);
  }

  const known = new Set(taskSet.tasks.map((task) => task.id));
  for (const [taskId, group] of groupBy(located, (r) => r.record.task_id))
    if (!known.has(taskId))
      problems.push(
        at(
          first(group).line,
          "unknown_task",
          `${plural(group.length, "record")} of task ${taskId}, which ${taskSet.file} does not have`,
        ),
      );

  for (const [model, group] of groupBy(located, (r) => r.record.model))
    problems.push(...modelRefusals(model, group, taskSet, file));
  return problems;
}

/** One model's records: every task, the same trials 1..n of each, one set of conditions. */
function modelRefusals(model: string, records: Located[], taskSet: TaskSet, file: string): Problem[] {
  const problems: Problem[] = [];
  const byTask = groupBy(records, (r) => r.record.task_id);
  let expected: { task: string; count: number } | undefined;
  for (const task of taskSet.tasks) {
    const group = byTask.get(task.id);
    if (group === undefined) {
      problems.push({
        code: "missing_task",
        file,
        message: `model ${model} has no record of task ${task.id}`,
      });
      continue;
    }
    const line = first(group).line;
    expected ??= { task: task.id, count: group.length };
    if (group.length !== expected.count)
      problems.push({
        code: "unequal_trials",
        file,
        line,
        message: `model ${model} has ${plural(group.length, "trial")} of task ${task.id} but ${expected.count} of ${expected.task}; every task needs the same number`,
      });
    const trials = group.map((r) => r.record.trial).sort((a, b) => a - b);
    if (trials.some((trial, index) => trial !== index + 1))
      problems.push({
        code: "nonconsecutive_trials",
        file,
        line,
        message: `model ${model} has trials ${trials.join(", ")} of task ${task.id}; expected 1 to ${trials.length}, once each`,
      });
  }
  for (const field of COMPARABLE_METADATA) {
    const values = groupBy(records, (r) => canonicalJson(r.record.metadata[field]));
    if (values.size > 1)
      problems.push({
        code: "mixed_metadata",
        file,
        line: first([...values.values()][1] ?? []).line,
        message: `model ${model} mixes metadata.${field} values (${describeGroups(values)}); records of different conditions are not averaged`,
      });
  }
  return problems;
}

/** Groups in order of first appearance. */
function groupBy(items: readonly Located[], key: (item: Located) => string): Map<string, Located[]> {
  const groups = new Map<string, Located[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function first(group: readonly Located[]): Located {
  return group[0] as Located;
}

/** `v1 ×3 from line 1, v2 ×1 from line 4` */
function describeGroups(groups: Map<string, Located[]>): string {
  return [...groups]
    .map(([value, group]) => `${value} ×${group.length} from line ${first(group).line}`)
    .join(", ");
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
