import { episodeKey, usageError } from "../../core/index.js";
export { episodeKey };
export function parseShard(text) {
    const match = /^(\d+)\/(\d+)$/.exec(text);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || count < 1 || index < 1 || index > count)
        throw usageError("bad_shard", `--shard takes I/N with 1 ≤ I ≤ N, not ${text}`);
    return { index, count };
}
export function globToRegExp(glob) {
    const escaped = glob
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".");
    return new RegExp(`^${escaped}$`);
}
/**
 * Episodes in a fixed order (plan order of tasks, then sizes, conditions, trials). A shard takes
 * whole stratum × language cells: the i-th cell the selection touches (in plan order) belongs to
 * shard (i mod N) + 1, so shards stay balanced whatever the task filter.
 */
export function planEpisodes(tasks, plan, selection, shard) {
    const pattern = selection.tasks === null ? null : globToRegExp(selection.tasks);
    const position = new Map(plan.slots.map((s, i) => [s.semantic_task_id, i]));
    const selected = tasks
        .filter((t) => !pattern || pattern.test(t.semantic_task_id))
        .sort((a, b) => (position.get(a.semantic_task_id) ?? 0) - (position.get(b.semantic_task_id) ?? 0));
    const cells = new Map();
    for (const t of selected) {
        const cell = `${t.answer_task_stratum}|${t.language}`;
        if (!cells.has(cell))
            cells.set(cell, cells.size);
    }
    const episodes = [];
    for (const task of selected) {
        const cell = cells.get(`${task.answer_task_stratum}|${task.language}`) ?? 0;
        if (shard && cell % shard.count !== shard.index - 1)
            continue;
        for (const catalog_size of selection.catalogSizes)
            for (const condition of selection.conditions)
                for (let trial = 1; trial <= selection.trials; trial++)
                    episodes.push({ semantic_task_id: task.semantic_task_id, catalog_size, condition, trial, task });
    }
    return episodes;
}
