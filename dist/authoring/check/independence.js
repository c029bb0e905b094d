/**
 * Independence rules across tasks. The bootstrap treats the tasks of a cell as independent units;
 * a corpus whose tasks are one sentence with a number changed gives intervals far narrower than a
 * real model deserves. These rules catch copies a reader would call the same question:
 *
 * - `template_reuse`: two queries equal once numbers, identifiers and quoted names are masked;
 * - `near_duplicate_query`: within a stratum, masked queries whose character 3-gram Jaccard
 *   similarity exceeds 0.5;
 * - `duplicate_task_content`: two tasks with the same required routes, fact keys and fact values.
 */
import { canonicalJson, compareCodePoints, normalizeQuery } from "../../core/index.js";
export const NEAR_DUPLICATE_JACCARD = 0.5;
/** A quoted span in any of the corpus's languages: "…", '…', “…”, ‘…’, «…», „…“, 「…」, 『…』. */
const QUOTED = /"[^"]*"|'[^'\s][^']*'|“[^”]*”|‘[^’]*’|«[^»]*»|„[^“”]*[“”]|「[^」]*」|『[^』]*』/gu;
/** An ASCII token with joiners (MAT-4471-TI, P-2021-0187, ana@lab.example.org, 3.5, 2024-118). */
const TOKEN = /[A-Za-z0-9](?:[A-Za-z0-9_.\-/@+]*[A-Za-z0-9])?/g;
/** Numbers become ‹n›, tokens holding a digit or an @ become ‹id›; words stay. */
function maskToken(token) {
    if (/^\d+(?:[.,]\d+)*$/.test(token))
        return " ‹n› ";
    return /[\d@]/.test(token) ? " ‹id› " : token;
}
/** The query with quoted names, identifiers and numbers replaced by placeholders, then normalised. */
export function maskQuery(query) {
    return normalizeQuery(query.replace(QUOTED, " ‹q› ").replace(TOKEN, maskToken));
}
function trigrams(text) {
    const chars = [...text];
    const grams = new Set();
    for (let i = 0; i + 3 <= chars.length; i++)
        grams.add(chars.slice(i, i + 3).join(""));
    return grams;
}
export function jaccard(a, b) {
    let shared = 0;
    for (const g of a)
        if (b.has(g))
            shared += 1;
    const union = a.size + b.size - shared;
    return union === 0 ? 1 : shared / union;
}
/** What makes two tasks the same content: routes in order, fact keys and their values. */
export function contentKey(task) {
    const facts = [...task.required_facts]
        .sort((a, b) => compareCodePoints(a.key, b.key))
        .map((f) => [f.key, f.value]);
    return canonicalJson({ routes: task.required_routes, facts });
}
/** Every pair that breaks a rule, reported on the later task of the pair. */
export function independenceProblems(tasks) {
    const problems = [];
    const masked = tasks.map((t) => maskQuery(t.query));
    const grams = masked.map(trigrams);
    const firstTemplate = new Map();
    const firstContent = new Map();
    for (const [i, task] of tasks.entries()) {
        const template = masked[i];
        const earlier = firstTemplate.get(template);
        if (earlier !== undefined)
            problems.push({
                code: "template_reuse",
                index: i,
                message: `the query is the query of ${tasks[earlier]?.semantic_task_id} with only numbers, identifiers or quoted names changed`,
            });
        else {
            firstTemplate.set(template, i);
            for (let j = 0; j < i; j++) {
                if (tasks[j]?.answer_task_stratum !== task.answer_task_stratum || masked[j] === template)
                    continue;
                const similarity = jaccard(grams[i], grams[j]);
                if (similarity > NEAR_DUPLICATE_JACCARD) {
                    problems.push({
                        code: "near_duplicate_query",
                        index: i,
                        message: `the masked query shares ${similarity.toFixed(2)} of its character 3-grams with the query of ${tasks[j]?.semantic_task_id} (limit ${NEAR_DUPLICATE_JACCARD})`,
                    });
                    break;
                }
            }
        }
        const key = contentKey(task);
        const same = firstContent.get(key);
        if (same !== undefined)
            problems.push({
                code: "duplicate_task_content",
                index: i,
                message: `same required routes, fact keys and fact values as ${tasks[same]?.semantic_task_id}`,
            });
        else
            firstContent.set(key, i);
    }
    return problems;
}
