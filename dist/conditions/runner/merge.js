/** Merging run files: one metadata, no duplicate episode, and (unless allowed) every episode present. */
import { canonicalJson, canonicalSha256, compareCodePoints } from "../../core/index.js";
import { episodeKey } from "./episodes.js";
export function mergeRuns(sources) {
    const problems = [];
    const first = sources.flatMap((s) => s.records)[0];
    if (!first)
        return {
            records: [],
            problems: [{ code: "empty_runs", message: "the run files hold no records" }],
            missing: [],
        };
    const metadata = canonicalJson(first.metadata);
    const seen = new Map();
    const records = [];
    for (const source of sources)
        source.records.forEach((record, i) => {
            const where = { file: source.file, ...(source.lines[i] ? { line: source.lines[i] } : {}) };
            if (canonicalJson(record.metadata) !== metadata)
                return problems.push({
                    code: "metadata_mismatch",
                    message: "this record's metadata differs from the first record's; these runs cannot be merged",
                    ...where,
                });
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
    const selection = first.metadata.selection;
    const conditionOrder = new Map(selection.conditions.map((c, i) => [c, i]));
    records.sort((a, b) => compareCodePoints(a.semantic_task_id, b.semantic_task_id) ||
        a.catalog_size - b.catalog_size ||
        (conditionOrder.get(a.condition) ?? 0) - (conditionOrder.get(b.condition) ?? 0) ||
        a.trial - b.trial);
    return { records, problems, missing: missingEpisodes(records, first.metadata) };
}
/** Episodes the selection promises that no record holds, and whether whole tasks are missing. */
function missingEpisodes(records, metadata) {
    const have = new Set(records.map(episodeKey));
    const tasks = [...new Set(records.map((r) => r.semantic_task_id))].sort(compareCodePoints);
    const missing = [];
    if (tasks.length !== metadata.selection.task_count ||
        canonicalSha256(tasks) !== metadata.selection.task_ids_sha256)
        missing.push(`tasks: ${tasks.length} of ${metadata.selection.task_count} selected tasks are present (a shard is missing?)`);
    for (const task of tasks)
        for (const size of metadata.selection.catalog_sizes)
            for (const condition of metadata.selection.conditions)
                for (let trial = 1; trial <= metadata.trials; trial++) {
                    const key = episodeKey({ semantic_task_id: task, catalog_size: size, condition, trial });
                    if (!have.has(key))
                        missing.push(key);
                }
    return missing;
}
