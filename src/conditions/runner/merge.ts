/** Merging run files: one metadata, no duplicate episode, and (unless allowed) every episode present. */
import { canonicalJson, canonicalSha256, compareCodePoints, type Problem } from "../../core/index.ts";
import { episodeKey } from "./episodes.ts";
import type { RunRecord } from "./record.ts";

export interface MergeSource {
  readonly file: string;
  readonly records: readonly RunRecord[];
  readonly lines: readonly number[];
}

export interface MergeResult {
  readonly records: RunRecord[];
  readonly problems: Problem[];
  /** What is missing, to list: a line for absent tasks (a missing shard), then each absent episode of the tasks present. */
  readonly missing: string[];
  /** How many episodes of the selection no record holds, those of absent tasks included. */
  readonly missingEpisodes: number;
}

export function mergeRuns(sources: readonly MergeSource[]): MergeResult {
  const problems: Problem[] = [];
  const first = sources.flatMap((s) => s.records)[0];
  if (!first)
    return {
      records: [],
      problems: [{ code: "empty_runs", message: "the run files hold no records" }],
      missing: [],
      missingEpisodes: 0,
    };
  const metadata = canonicalJson(first.metadata);
  const firstFile = sources.find((s) => s.records.length > 0)?.file ?? "";
  // Records whose metadata differs, grouped by file and metadata: one problem per differing field.
  const mismatches = new Map<string, { where: Problem; metadata: RunRecord["metadata"]; count: number }>();
  const seen = new Map<string, string>();
  const records: RunRecord[] = [];
  for (const source of sources)
    source.records.forEach((record, i) => {
      const where = { file: source.file, ...(source.lines[i] ? { line: source.lines[i] } : {}) };
      const own = canonicalJson(record.metadata);
      if (own !== metadata) {
        const group = `${source.file}\u0000${own}`;
        const known = mismatches.get(group);
        if (known) known.count++;
        else
          mismatches.set(group, {
            where: { code: "metadata_mismatch", message: "", ...where },
            metadata: record.metadata,
            count: 1,
          });
        return;
      }
      const key = episodeKey(record);
      const previous = seen.get(key);
      if (previous)
        return problems.push({
          code: "duplicate_episode",
          message: `${key} also appears in ${previous}`,
          ...where,
        });
      seen.set(key, `${source.file}:${source.lines[i] ?? "?"}`);
      records.push(record);
    });
  for (const { where, metadata: other, count } of mismatches.values())
    for (const [field, here, there] of differingFields(other, first.metadata, ""))
      problems.push({
        ...where,
        message: `metadata ${field} is ${shown(here)} here but ${shown(there)} in ${firstFile} (${count} record(s) of this file); runs made with different settings cannot be merged`,
      });
  const selection = first.metadata.selection;
  const conditionOrder = new Map(selection.conditions.map((c, i) => [c, i]));
  records.sort(
    (a, b) =>
      compareCodePoints(a.semantic_task_id, b.semantic_task_id) ||
      a.catalog_size - b.catalog_size ||
      (conditionOrder.get(a.condition) ?? 0) - (conditionOrder.get(b.condition) ?? 0) ||
      a.trial - b.trial,
  );
  return { records, problems, ...missingEpisodes(records, first.metadata) };
}

/**
 * Episodes the selection promises that no record holds: each one of the tasks present, and the
 * count of those of the tasks no record names (the metadata has their number, not their ids).
 */
function missingEpisodes(
  records: readonly RunRecord[],
  metadata: RunRecord["metadata"],
): Pick<MergeResult, "missing" | "missingEpisodes"> {
  const have = new Set(records.map(episodeKey));
  const tasks = [...new Set(records.map((r) => r.semantic_task_id))].sort(compareCodePoints);
  const perTask =
    metadata.selection.catalog_sizes.length * metadata.selection.conditions.length * metadata.trials;
  const missing: string[] = [];
  // Every record carries the selection's metadata, so the tasks present are of the selection.
  const absentTasks = Math.max(0, metadata.selection.task_count - tasks.length);
  if (absentTasks > 0 || canonicalSha256(tasks) !== metadata.selection.task_ids_sha256)
    missing.push(
      `tasks: ${tasks.length} of ${metadata.selection.task_count} selected tasks are present (a shard is missing?)${absentTasks > 0 ? `: the other ${absentTasks} task(s) have ${absentTasks * perTask} episode(s)` : ""}`,
    );
  for (const task of tasks)
    for (const size of metadata.selection.catalog_sizes)
      for (const condition of metadata.selection.conditions)
        for (let trial = 1; trial <= metadata.trials; trial++) {
          const key = episodeKey({ semantic_task_id: task, catalog_size: size, condition, trial });
          if (!have.has(key)) missing.push(key);
        }
  const listedEpisodes = missing.length - (missing[0]?.startsWith("tasks: ") ? 1 : 0);
  return { missing, missingEpisodes: absentTasks * perTask + listedEpisodes };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `[path, here, there]` for every leaf where two metadata objects differ, keys in code-point order. */
function differingFields(here: unknown, there: unknown, prefix: string): Array<[string, unknown, unknown]> {
  if (!isPlainObject(here) || !isPlainObject(there))
    return canonicalJson(here) === canonicalJson(there) ? [] : [[prefix, here, there]];
  const keys = [...new Set([...Object.keys(here), ...Object.keys(there)])].sort(compareCodePoints);
  return keys.flatMap((k) => differingFields(here[k], there[k], prefix ? `${prefix}.${k}` : k));
}

/** A value as JSON, cut to a readable length. */
function shown(value: unknown): string {
  const text = value === undefined ? "absent" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
