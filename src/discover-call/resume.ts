/**
 * `--resume`: which trials an earlier, stopped run of the same plan has recorded. A record is kept
 * only when it is whole and belongs to this run — same model, same metadata apart from the fields
 * the final write fills in, a task and trial of this plan, not a repeat. Anything else is refused
 * with its line, never dropped, because continuing would mix two runs in one file. The one
 * exception is a cut-off last line, which is what a writer killed mid-append leaves: it is dropped
 * and its trial runs again. A finished trial, failed or not, is never run again: its record is
 * the measurement.
 */
import { canonicalJson, inputError, type Problem } from "../core/index.ts";
import type { SeenRevisions } from "./api-revisions.ts";
import { problemsError } from "./jsonl.ts";
import { BENCHMARK_VERSION, checkRecords, type RawMetadata, type RawRecord } from "./records.ts";
import { OBSERVED_FIELDS, PENDING, trialKey } from "./run.ts";
import type { PlannedTrial } from "./trial.ts";

export interface ResumeInput {
  readonly file: string;
  /** The file's bytes; empty when it does not exist. */
  readonly bytes: Uint8Array;
  readonly plan: readonly PlannedTrial[];
  readonly model: string;
  /** This run's metadata (observed fields `pending`). */
  readonly metadata: RawMetadata;
}

export interface ResumeState {
  /** The kept records, in plan order. */
  readonly kept: RawRecord[];
  /** Bytes of a cut-off last line that was dropped (0: none). */
  readonly tornBytes: number;
  /** Revisions an earlier process filled in (a killed one left `pending`: nothing known). */
  readonly seen: SeenRevisions;
}

const NEWLINE = 0x0a;

/** The bytes up to the last newline, unless the part after it is itself a whole record. */
function withoutTornTail(bytes: Uint8Array, file: string): { whole: Uint8Array; tornBytes: number } {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const tail = bytes.subarray(end);
  if (tail.length === 0 || tail.every((b) => b === 0x20 || b === 0x09 || b === 0x0d))
    return { whole: bytes, tornBytes: 0 };
  if (checkRecords(tail, file).ok) return { whole: bytes, tornBytes: 0 };
  return { whole: bytes.subarray(0, end), tornBytes: tail.length };
}

/** Names of the metadata fields that differ, the observed ones aside. */
function differingFields(found: RawMetadata, expected: RawMetadata): string[] {
  const skip = new Set<string>(OBSERVED_FIELDS);
  const names = new Set([...Object.keys(found), ...Object.keys(expected)]);
  return [...names].filter(
    (name) =>
      !skip.has(name) &&
      canonicalJson((found as Record<string, unknown>)[name] ?? null) !==
        canonicalJson((expected as Record<string, unknown>)[name] ?? null),
  );
}

/** Values an earlier process recorded for one revision field: `mixed:a,b` is both. */
function revisionValues(value: string): string[] {
  if (value === PENDING || value === "unreported") return [];
  return value.startsWith("mixed:") ? value.slice("mixed:".length).split(",") : [value];
}

export function readResumeState(input: ResumeInput): ResumeState {
  const { file, plan, model, metadata } = input;
  const { whole, tornBytes } = withoutTornTail(input.bytes, file);
  const blank = whole.every((b) => b === NEWLINE || b === 0x20 || b === 0x09 || b === 0x0d);
  if (blank) return { kept: [], tornBytes, seen: { api: [], catalog: [] } };
  const checked = checkRecords(whole, file);
  if (!checked.ok) throw problemsError(file, checked.problems);
  if (checked.value.kind !== "raw")
    throw inputError(
      "discover-call",
      "not_a_raw_run",
      "holds public records; --resume continues a raw run file",
      {
        file,
      },
    );

  const order = new Map(plan.map((p, index) => [trialKey(p.task.id, p.trial), index]));
  const seenAt = new Map<string, number>();
  const problems: Problem[] = [];
  const kept: { index: number; record: RawRecord }[] = [];
  checked.value.records.forEach((value, i) => {
    const record = value as RawRecord;
    const line = checked.value.lines[i] as number;
    const at = (code: string, message: string) => problems.push({ code, file, line, message });
    const key = trialKey(record.task_id, record.trial);
    const index = order.get(key);
    const differing = differingFields(record.metadata, metadata);
    if (record.model !== model) at("resume_mismatch", `recorded with --model ${record.model}, not ${model}`);
    else if (record.benchmark_version !== BENCHMARK_VERSION)
      at("resume_mismatch", `a ${record.benchmark_version} record; this runner writes ${BENCHMARK_VERSION}`);
    else if (differing.length > 0)
      at(
        "resume_mismatch",
        `recorded with other settings: ${differing.join(", ")} ${differing.length === 1 ? "differs" : "differ"} from this run's`,
      );
    else if (index === undefined)
      at("resume_mismatch", `task ${record.task_id} trial ${record.trial} is not in this run's plan`);
    else if (seenAt.has(key))
      at(
        "duplicate_trial",
        `task ${record.task_id} trial ${record.trial} is already on line ${seenAt.get(key)}`,
      );
    else {
      seenAt.set(key, line);
      kept.push({ index, record });
    }
  });
  if (problems.length > 0) throw problemsError(file, problems);
  const records = kept.sort((a, b) => a.index - b.index).map((k) => k.record);
  const seen = {
    api: records.flatMap((r) => revisionValues(r.metadata.api_revision)),
    catalog: records.flatMap((r) => revisionValues(r.metadata.catalog_revision)),
  };
  return { kept: records, tornBytes, seen };
}
