import { canonicalSha256, normalizeQuery, sortByCodePoint } from "../core/index.js";
export const IDENTITY_ERROR_CODES = [
    "invalid_row",
    "missing_semantic_task_id",
    "duplicate_semantic_task_id",
    "unknown_semantic_task_id",
    "missing_slot",
    "row_count_mismatch",
    "stratum_drift",
    "language_drift",
    "empty_query",
    "duplicate_normalized_query",
];
const STRING_FIELDS = ["answer_task_stratum", "language", "query"];
export function validateIdentity(rows, plan) {
    const pass = {
        slots: new Map(plan.slots.map((s) => [s.semantic_task_id, s])),
        firstSeen: new Map(),
        queries: new Map(),
        accepted: [],
        errors: [],
    };
    for (const row of rows)
        checkRow(row, pass);
    const { errors } = pass;
    plan.slots.forEach((slot, index) => {
        if (!pass.firstSeen.has(slot.semantic_task_id))
            errors.push({
                code: "missing_slot",
                semantic_task_id: slot.semantic_task_id,
                location: `plan slots[${index}]`,
                line: null,
                message: `no row for planned slot ${slot.semantic_task_id}`,
            });
    });
    if (rows.length !== plan.slots.length)
        errors.push({
            code: "row_count_mismatch",
            semantic_task_id: null,
            location: "corpus",
            line: null,
            message: `the corpus has ${rows.length} rows but the plan has ${plan.slots.length} slots`,
        });
    const ok = errors.length === 0;
    return {
        ok,
        row_count: rows.length,
        authoring_slot_count: plan.slots.length,
        normalized_query_count: pass.queries.size,
        identity_sha256: ok ? identitySha256(pass.accepted) : null,
        query_content_sha256: ok ? queryContentSha256(pass.accepted) : null,
        errors,
    };
}
function report(pass, row, code, id, message) {
    pass.errors.push({ code, semantic_task_id: id, location: row.location, line: row.line, message });
}
function checkRow(row, pass) {
    const value = row.value;
    if (typeof value !== "object" || value === null || Array.isArray(value))
        return report(pass, row, "invalid_row", null, `a row must be an object, not ${describe(value)}`);
    const record = value;
    const id = record["semantic_task_id"];
    if (id === undefined || id === null || id === "")
        return report(pass, row, "missing_semantic_task_id", null, "the row has no semantic_task_id");
    if (typeof id !== "string")
        return report(pass, row, "invalid_row", null, `semantic_task_id must be a string, not ${describe(id)}`);
    let wellTyped = true;
    for (const field of STRING_FIELDS) {
        if (typeof record[field] === "string")
            continue;
        wellTyped = false;
        report(pass, row, "invalid_row", id, `${field} must be a string, not ${record[field] === undefined ? "missing" : describe(record[field])}`);
    }
    const previous = pass.firstSeen.get(id);
    if (previous)
        return report(pass, row, "duplicate_semantic_task_id", id, `${id} already appears at ${previous.location}`);
    pass.firstSeen.set(id, row);
    const { answer_task_stratum: stratum, language, query } = record;
    const slot = pass.slots.get(id);
    if (!slot)
        report(pass, row, "unknown_semantic_task_id", id, `${id} is not a slot of the authoring plan`);
    if (slot && typeof stratum === "string" && stratum !== slot.answer_task_stratum)
        report(pass, row, "stratum_drift", id, `answer_task_stratum is ${stratum} but the plan says ${slot.answer_task_stratum}`);
    if (slot && typeof language === "string" && language !== slot.language)
        report(pass, row, "language_drift", id, `language is ${language} but the plan says ${slot.language}`);
    if (typeof query === "string")
        checkQuery(pass, row, id, query);
    if (wellTyped)
        pass.accepted.push({
            semantic_task_id: id,
            answer_task_stratum: stratum,
            language: language,
            query: query,
        });
}
function checkQuery(pass, row, id, query) {
    const normalized = normalizeQuery(query);
    if (normalized === "")
        return report(pass, row, "empty_query", id, "the query is empty after normalisation");
    const owner = pass.queries.get(normalized);
    if (owner !== undefined)
        return report(pass, row, "duplicate_normalized_query", id, `the query of ${id} normalises to the same text as the query of ${owner}`);
    pass.queries.set(normalized, id);
}
/** sha256 of rows sorted by id (code point), each `{semantic_task_id, answer_task_stratum, language}`. */
export function identitySha256(rows) {
    return canonicalSha256(sortByCodePoint(rows, (r) => r.semantic_task_id).map((r) => ({
        semantic_task_id: r.semantic_task_id,
        answer_task_stratum: r.answer_task_stratum,
        language: r.language,
    })));
}
/** The same with `{semantic_task_id, query}`, the raw (un-normalised) query. */
export function queryContentSha256(rows) {
    return canonicalSha256(sortByCodePoint(rows, (r) => r.semantic_task_id).map((r) => ({
        semantic_task_id: r.semantic_task_id,
        query: r.query,
    })));
}
function describe(value) {
    if (value === null)
        return "null";
    if (Array.isArray(value))
        return "a list";
    return `a ${typeof value}`;
}
