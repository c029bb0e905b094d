/**
 * Turns a corpus file's text into rows with their locations. A corpus may be a JSON array, a
 * JSON object with `tasks` or `rows`, or JSON Lines (by extension, or when the text is not one
 * JSON value but its lines are).
 */
import { arrayElementStarts, inputError, LineIndex, parseJsonLines, parseJsonText } from "../core/index.js";
const STAGE = "corpus";
export function parseCorpusText(text, file) {
    if (/\.(jsonl|ndjson)$/i.test(file))
        return fromJsonLines(text, file);
    let document;
    try {
        document = parseJsonText(text, file, STAGE);
    }
    catch (error) {
        if (looksLikeJsonLines(text))
            return fromJsonLines(text, file);
        throw error;
    }
    if (Array.isArray(document))
        return { format: "json-array", rows: fromArray(document, text, null), document };
    if (typeof document === "object" && document !== null) {
        const record = document;
        const keys = ["tasks", "rows"].filter((k) => Object.hasOwn(record, k));
        const key = keys[0];
        if (keys.length === 2)
            throw inputError(STAGE, "ambiguous_task_list", "the object has both tasks and rows; keep one", {
                file,
            });
        if (key === undefined)
            throw inputError(STAGE, "no_task_list", "the object has neither tasks nor rows", { file });
        const list = record[key];
        if (!Array.isArray(list))
            throw inputError(STAGE, "no_task_list", `${key} is not a list`, { file });
        return { format: "json-object", rows: fromArray(list, text, key), document };
    }
    const kind = document === null ? "null" : typeof document;
    throw inputError(STAGE, "not_a_corpus", `the top-level value is ${kind}; expected a list of tasks, an object with tasks or rows, or JSON Lines`, { file });
}
function fromArray(list, text, key) {
    const starts = arrayElementStarts(text, key);
    const lines = new LineIndex(text);
    return list.map((value, index) => ({
        value,
        location: `index ${index}`,
        line: lines.lineOf(starts[index] ?? 0),
    }));
}
function fromJsonLines(text, file) {
    const rows = parseJsonLines(text, file, STAGE).map(({ line, value }) => ({
        value,
        location: `line ${line}`,
        line,
    }));
    return { format: "jsonl", rows, document: null };
}
/** Two or more non-blank lines and the first one is a JSON object on its own. */
function looksLikeJsonLines(text) {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (lines.length < 2)
        return false;
    try {
        const first = JSON.parse(lines[0] ?? "");
        return typeof first === "object" && first !== null && !Array.isArray(first);
    }
    catch {
        return false;
    }
}
