/**
 * Per-task pooled paired deltas of one metric from episode scores, and the trial-noise variance of
 * one delta: Σ over the two conditions of (pooled variance of an episode within its task and
 * catalog size) ÷ (mean episodes per task). Repeats are grouped by catalog size first, so a task
 * that does worse on the larger catalog has a catalog effect — part of its own delta, which more
 * trials do not average away — not trial noise.
 */
export function pilotDeltas(episodes, baseline, condition, metric) {
    // task → condition → catalog size → values
    const perTask = new Map();
    for (const e of episodes) {
        const v = e.metrics[metric];
        if (v === null || v === undefined)
            continue;
        const byCondition = perTask.get(e.semantic_task_id) ?? new Map();
        const bySize = byCondition.get(e.condition) ?? new Map();
        bySize.set(e.catalog_size, [...(bySize.get(e.catalog_size) ?? []), v]);
        byCondition.set(e.condition, bySize);
        perTask.set(e.semantic_task_id, byCondition);
    }
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const all = (bySize) => (bySize ? [...bySize.values()].flat() : []);
    const mean = (xs) => (xs.length > 0 ? sum(xs) / xs.length : null);
    const deltas = [];
    const paired = [];
    for (const byCondition of perTask.values()) {
        const a = mean(all(byCondition.get(condition)));
        const b = mean(all(byCondition.get(baseline)));
        if (a !== null && b !== null) {
            deltas.push(a - b);
            paired.push(byCondition);
        }
    }
    const noiseOf = (id) => {
        let squares = 0;
        let df = 0;
        let episodesSeen = 0;
        for (const byCondition of paired)
            for (const xs of byCondition.get(id).values()) {
                const m = mean(xs);
                squares += sum(xs.map((x) => (x - m) ** 2));
                df += xs.length - 1;
                episodesSeen += xs.length;
            }
        return df > 0 ? squares / df / (episodesSeen / paired.length) : 0;
    };
    return { deltas, noise: paired.length > 0 ? noiseOf(condition) + noiseOf(baseline) : 0 };
}
