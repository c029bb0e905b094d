/**
 * The keys that join records across stages. A run file, a summary and a report must agree on what
 * names an episode; building the string in one place is what keeps them agreeing.
 */
/** `task|size|condition|trial` */
export function episodeKey(e) {
    return `${e.semantic_task_id}|${e.catalog_size}|${e.condition}|${e.trial}`;
}
/** `task|size`: one condition-manifest entry (what every condition shows for a task at a catalog size). */
export function taskSizeKey(e) {
    return `${e.semantic_task_id}|${e.catalog_size}`;
}
