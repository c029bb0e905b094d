/**
 * Publication (§7): a run's raw records in, its public records out. Raw records stay private; a
 * public record keeps the trial's identity, lifecycle and scores, and replaces what could disclose
 * the catalog, a tenant or a parameter value by counts, digests and attestations:
 * - discovery: the number of results and the SHA-256 of their ordered ids, and whether the
 *   selection was among them; inspection: whether the selected tool came back;
 * - parameterization: the required-parameter and constraint accuracies, recomputed here from the
 *   raw parameters (an attestation the raw record brings is never trusted), then the values go;
 * - selection: the tool id when the policy approves it, else null and the id's SHA-256;
 * - error: its stage and reason code, never its message;
 * - metadata: an allowlist, the recomputed catalog observation digest and the policy's id;
 * - source_record_sha256: the SHA-256 of the raw record's JSON text.
 * Output is byte for byte what the reference implementation's publisher writes for the same raw
 * records: same fields, same key order, same digests. Pure: records in, records or problems out.
 */
import { formatJsonFile, type Problem, type Result, sha256Hex } from "../core/index.ts";
import { problemsError, readJsonLines } from "./jsonl.ts";
import { type PublicationPolicy, rewriteLane } from "./policy.ts";
import { validatePublication } from "./publication-check.ts";
import { checkPublicRecord } from "./publication-rules.ts";
import {
  type PublicMetadata,
  type PublicRecord,
  type RawMetadata,
  type RawRecord,
  type RecordFile,
  recordKind,
} from "./records.ts";
import { scoreRecord, summarizeRecords } from "./score.ts";
import type { DiscoverCallSummary } from "./summary.ts";
import type { DiscoverCallTask, TaskSet } from "./tasks.ts";

export {
  MIN_OFFICIAL_TRIALS,
  type PublicationCheckOptions,
  validatePublication,
} from "./publication-check.ts";

/** SHA-256 of `JSON.stringify(value)`: how every digest of a public record is taken. */
const digestOfJson = (value: unknown) => sha256Hex(JSON.stringify(value));

/** The digest of every trial's discovery results, in record order (§5): what the run observed. */
export function catalogObservationSha256(records: readonly RawRecord[]): string {
  return digestOfJson(
    records.map((r) => ({
      task_id: r.task_id,
      trial: r.trial,
      result_tool_ids: r.discovery.result_tool_ids,
    })),
  );
}

/** The public records of a raw record file, or every reason they cannot be published. */
export function publishRecords(
  raw: RecordFile,
  taskSet: TaskSet,
  policy: PublicationPolicy,
): Result<PublicRecord[]> {
  const file = raw.file;
  const at = (index: number, code: string, message: string): Problem => ({
    code,
    file,
    line: raw.lines[index] as number,
    message,
  });
  if (raw.kind !== "raw")
    return {
      ok: false,
      problems: [
        {
          code: "not_raw_records",
          file,
          message: "these are public records; publish reads a run's raw records",
        },
      ],
    };
  const records = raw.records as RawRecord[];
  const observed = catalogObservationSha256(records);
  const problems: Problem[] = [];
  const declared = records.findIndex(
    (r) =>
      r.metadata.catalog_observation_sha256 !== "pending" &&
      r.metadata.catalog_observation_sha256 !== observed,
  );
  if (declared >= 0)
    problems.push(
      at(
        declared,
        "catalog_observation_mismatch",
        `metadata.catalog_observation_sha256 is not the digest of these records' discovery results (${observed}); were records added, removed or reordered?`,
      ),
    );

  const tasks = new Map(taskSet.tasks.map((task) => [task.id, task]));
  const approvedUrls = new Set(policy.approved_api_base_urls);
  const approvedTools = new Set(policy.approved_selected_tool_ids);
  const published: PublicRecord[] = [];
  records.forEach((record, index) => {
    const task = tasks.get(record.task_id);
    if (task === undefined) {
      problems.push(at(index, "unknown_task", `task ${record.task_id} is not in ${taskSet.file}`));
      return;
    }
    // The URL itself is not repeated: a private origin is what must not spread.
    if (!approvedUrls.has(record.metadata.api_base_url)) {
      problems.push(
        at(
          index,
          "unapproved_api_base_url",
          `metadata.api_base_url is not one of the API base URLs policy ${policy.policy_id} approves`,
        ),
      );
      return;
    }
    const result = publicRecord(record, task, policy, approvedTools, observed);
    for (const finding of checkPublicRecord(result, policy))
      problems.push(at(index, finding.code, finding.message));
    published.push(result);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: published };
}

/** One public record, its keys in the reference publisher's order. */
function publicRecord(
  record: RawRecord,
  task: DiscoverCallTask,
  policy: PublicationPolicy,
  approvedTools: ReadonlySet<string>,
  catalogObservation: string,
): PublicRecord {
  const selected = record.selection.tool_id;
  const approved = selected !== null && approvedTools.has(selected);
  const discovered = record.discovery.result_tool_ids;
  const scores = scoreRecord(task, record);
  const observed = record.call.result_nonempty ?? record.call.result_valid;
  return {
    schema_version: record.schema_version,
    benchmark_version: record.benchmark_version,
    run_id: record.run_id,
    model: record.model,
    metadata: publicMetadata(record.metadata, policy, catalogObservation),
    task_id: record.task_id,
    trial: record.trial,
    started_at: record.started_at,
    status: record.status,
    discovery: {
      result_count: discovered.length,
      snapshot_sha256: digestOfJson(discovered),
      selection_grounded: selected !== null && discovered.includes(selected),
    },
    selection: {
      tool_id: approved ? selected : null,
      ...(selected !== null && !approved ? { tool_id_sha256: sha256Hex(selected) } : {}),
    },
    inspection: {
      selection_grounded: selected !== null && record.inspection.returned_tool_ids.includes(selected),
    },
    parameterization: {
      required_parameter_accuracy: scores.required_parameter_accuracy,
      constraint_accuracy: scores.constraint_accuracy,
    },
    call: {
      attempted: record.call.attempted,
      success: record.call.success,
      ...(observed === undefined ? {} : { result_nonempty: observed }),
    },
    // A missing reason becomes `unclassified`: a public failure always names one.
    ...(record.error === undefined
      ? {}
      : { error: { stage: record.error.stage, reason_code: record.error.reason_code ?? "unclassified" } }),
    finished_at: record.finished_at,
    source_record_sha256: digestOfJson(record),
  };
}

/**
 * The allowlisted metadata. A `pinned-model` lane stays only with a real model revision; other
 * lanes go through the policy's rewrites (`oracle` → `reference`, an unpinned `pinned-model` →
 * `configured-model`). The lane is a raw lane here: the record rules refuse one no policy maps.
 */
function publicMetadata(
  metadata: RawMetadata,
  policy: PublicationPolicy,
  catalogObservation: string,
): PublicMetadata {
  const pinned = metadata.lane === "pinned-model" && metadata.model_revision !== "unreported";
  return {
    lane: (pinned ? "pinned-model" : rewriteLane(policy, metadata.lane)) as PublicMetadata["lane"],
    model_revision: metadata.model_revision,
    adapter_revision: metadata.adapter_revision,
    toolkit_revision: metadata.toolkit_revision,
    task_set_sha256: metadata.task_set_sha256,
    api_base_url: metadata.api_base_url,
    api_revision: metadata.api_revision,
    catalog_revision: metadata.catalog_revision,
    catalog_observation_sha256: catalogObservation,
    runtime: {
      node: metadata.runtime.node,
      platform: metadata.runtime.platform,
      arch: metadata.runtime.arch,
    },
    discovery_limit: metadata.discovery_limit,
    execute: metadata.execute,
    publication_policy: policy.policy_id,
  };
}

/** The text of a public run file: one record a line. */
export function formatPublicRuns(records: readonly PublicRecord[]): string {
  return `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
}

export interface PublicationInput {
  readonly raw: RecordFile;
  readonly taskSet: TaskSet;
  readonly policy: PublicationPolicy;
  /** ISO 8601 time of publication, from the caller's clock. */
  readonly generatedAt: string;
  /** Apply the official-run rules (default true). */
  readonly official?: boolean;
  /** The summary's file name, for problems. */
  readonly summaryFile?: string;
}

export interface Publication {
  readonly records: PublicRecord[];
  readonly summary: DiscoverCallSummary;
  /** The two files' text: a record a line, and the summary as indented JSON. */
  readonly runsText: string;
  readonly summaryText: string;
}

/**
 * Everything publication writes, or every reason not to write it: the public records, their
 * summary (scored from the public records, as a reader of the artefacts would score them), and
 * the validator's verdict on both — the publisher refuses what the validator would refuse.
 * Problems name the raw file's lines.
 */
export function preparePublication(input: PublicationInput): Result<Publication> {
  const { raw, taskSet, policy } = input;
  const published = publishRecords(raw, taskSet, policy);
  if (!published.ok) return published;
  const records = published.value;
  const summary = summarizeRecords({
    taskSet,
    records: { file: raw.file, kind: "public", records, lines: raw.lines },
    generatedAt: input.generatedAt,
  });
  if (!summary.ok) return summary;
  const problems = validatePublication(records, summary.value, taskSet, policy, {
    runsFile: raw.file,
    summaryFile: input.summaryFile ?? "summary",
    lines: raw.lines,
    official: input.official ?? true,
  });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      records,
      summary: summary.value,
      runsText: formatPublicRuns(records),
      summaryText: formatJsonFile(summary.value),
    },
  };
}

/**
 * The JSON values of a public run file and their lines, for the validator, which checks each value
 * itself. Lines that are not JSON, an empty file, or a file of raw records (none has a source
 * digest or a parameterization) are unreadable input: a FabenchError (input, exit 2).
 */
export function readPublicRuns(bytes: Uint8Array, file: string): { values: unknown[]; lines: number[] } {
  const { rows, problems } = readJsonLines(bytes, file);
  if (problems.length > 0) throw problemsError(file, problems);
  if (rows.length === 0)
    throw problemsError(file, [{ code: "no_records", file, message: "the file holds no records" }]);
  if (rows.every((row) => recordKind(row.value) === "raw"))
    throw problemsError(file, [
      {
        code: "not_public_records",
        file,
        message:
          "these are raw records (none has source_record_sha256 or parameterization); publish them first",
      },
    ]);
  return { values: rows.map((row) => row.value), lines: rows.map((row) => row.line) };
}
