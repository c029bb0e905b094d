/**
 * Deduplicating a run file that two writers appended to at once (before run files were locked):
 * the first complete record of each episode is kept, in file order; every later record of that
 * episode is dropped and reported.
 */
import { canonicalJson, type Problem } from "../../core/index.ts";
import { episodeKey } from "./episodes.ts";
import type { RunRecord } from "./record.ts";

/** One record dropped as a later duplicate of a kept one. */
export interface DroppedDuplicate {
  /** 1-based line of the dropped record. */
  readonly line: number;
  readonly key: string;
  /** 1-based line of the record kept for that episode. */
  readonly kept_line: number;
  /** Whether it differs from the kept record in anything but `timings`. */
  readonly differs: boolean;
}

export interface DedupeResult {
  /** Indexes of the kept records, in file order. */
  readonly kept: number[];
  readonly dropped: DroppedDuplicate[];
  /** Kept records that are error-coded while a later duplicate of theirs completed. */
  readonly keptErrorsCompletedLater: number;
  /** Records whose metadata differs from the first record's: of another run, not duplicates. */
  readonly problems: Problem[];
}

/** `records[i]` is on line `lines[i]` of `file`. */
export function dedupeRuns(
  file: string,
  records: readonly RunRecord[],
  lines: readonly number[],
): DedupeResult {
  const first = records[0];
  const metadata = first ? canonicalJson(first.metadata) : "";
  const keptAt = new Map<string, number>();
  const kept: number[] = [];
  const dropped: DroppedDuplicate[] = [];
  const problems: Problem[] = [];
  const errorsCompletedLater = new Set<number>();
  records.forEach((record, i) => {
    const line = lines[i] ?? i + 1;
    if (first && canonicalJson(record.metadata) !== metadata) {
      const fields = Object.keys({ ...first.metadata, ...record.metadata }).filter(
        (k) =>
          canonicalJson((record.metadata as Record<string, unknown>)[k]) !==
          canonicalJson((first.metadata as Record<string, unknown>)[k]),
      );
      problems.push({
        code: "metadata_mismatch",
        file,
        line,
        message: `metadata ${fields.join(", ")} differ from line ${lines[0] ?? 1}'s: this record belongs to another run, so it is no duplicate; records of different runs cannot share one run file`,
      });
      return;
    }
    const key = episodeKey(record);
    const at = keptAt.get(key);
    if (at === undefined) {
      keptAt.set(key, i);
      kept.push(i);
      return;
    }
    const original = records[at] as RunRecord;
    dropped.push({
      line,
      key,
      kept_line: lines[at] ?? at + 1,
      differs: outcome(record) !== outcome(original),
    });
    if (original.status === "error" && record.status === "completed") errorsCompletedLater.add(at);
  });
  return { kept, dropped, keptErrorsCompletedLater: errorsCompletedLater.size, problems };
}

/** A record without its timings: what two runs of one episode share when they agree. */
function outcome(record: RunRecord): string {
  const { timings: _timings, ...rest } = record;
  return canonicalJson(rest);
}
