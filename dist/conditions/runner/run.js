import { taskSizeKey } from "../../core/index.js";
import { runEpisode } from "../execution/loop.js";
import { episodeKey } from "./episodes.js";
export function manifestIndex(manifest) {
    return new Map(manifest.entries.map((e) => [taskSizeKey(e), e]));
}
export async function runMatrix(input, deps) {
    const entries = manifestIndex(input.manifest);
    const queue = [...input.episodes];
    let finished = 0;
    let errors = 0;
    let stopReason = null;
    const worker = async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
            if (stopReason === null && deps.shouldStop())
                stopReason = "interrupted";
            if (stopReason !== null) {
                queue.length = 0;
                return;
            }
            const record = await runOne(next, input, entries, deps);
            // A request the budget refused was never sent: the episode is left for a later --resume.
            if (record.error_code === "budget_exhausted") {
                stopReason = "budget_exhausted";
                continue;
            }
            deps.append(record);
            finished += 1;
            if (record.status === "error")
                errors += 1;
            if (input.maxErrors !== null && errors >= input.maxErrors)
                stopReason ??= "max_errors";
            deps.progress(finished, input.episodes.length);
        }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, input.episodes.length)) }, worker));
    return {
        finished,
        errors,
        stopped: finished < input.episodes.length,
        stopReason: finished < input.episodes.length ? (stopReason ?? "interrupted") : null,
    };
}
async function runOne(episode, input, entries, deps) {
    const entry = entries.get(taskSizeKey(episode));
    const stages = entry?.conditions[episode.condition]?.stages;
    const catalog = input.catalogs.get(episode.catalog_size);
    if (!stages || !catalog)
        throw new Error(`no manifest entry or catalog for ${episodeKey(episode)} (checked before the run; a bug)`);
    const startedAt = deps.now().toISOString();
    const started = deps.clock();
    const outcome = await runEpisode({ task: episode.task, endpoints: catalog.endpoints, catalogSize: episode.catalog_size, stages }, input.agent.startEpisode(episode.task, episodeKey(episode)), input.settings, input.tokens);
    return {
        ...identity(episode.task, episode),
        ...outcome,
        turns: outcome.turns,
        attempts: outcome.attempts,
        timings: { started_at: startedAt, duration_ms: Math.round((deps.clock() - started) * 1000) / 1000 },
        shard: input.shard,
        metadata: input.metadata,
    };
}
function identity(task, episode) {
    return {
        semantic_task_id: task.semantic_task_id,
        answer_task_stratum: task.answer_task_stratum,
        language: task.language,
        catalog_size: episode.catalog_size,
        condition: episode.condition,
        trial: episode.trial,
    };
}
