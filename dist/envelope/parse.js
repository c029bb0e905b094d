export const MALFORMED_REASONS = [
    "empty",
    "not_json",
    "not_object",
    "wrong_keys",
    "wrong_type",
    "bad_fact",
];
const ROOT_KEYS = ["answer", "facts", "sources"];
const FACT_KEYS = ["key", "source_id", "unit", "value"];
export function parseEnvelope(text) {
    const trimmed = text.trim();
    if (trimmed === "")
        return malformed("empty", "the final text is empty");
    const value = parseWholeOrSpan(trimmed);
    if (value === NOT_JSON)
        return malformed("not_json", "neither the text nor its {…} span is JSON");
    if (typeof value !== "object" || value === null || Array.isArray(value))
        return malformed("not_object", `the JSON is ${value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`}, not an object`);
    const root = value;
    if (!sameKeys(root, ROOT_KEYS))
        return malformed("wrong_keys", `the keys are [${Object.keys(root).join(", ")}]; expected exactly answer, facts, sources`);
    if (typeof root["answer"] !== "string")
        return malformed("wrong_type", "answer must be a string");
    if (!Array.isArray(root["facts"]))
        return malformed("wrong_type", "facts must be a list");
    const sources = root["sources"];
    if (!Array.isArray(sources) || !sources.every((s) => typeof s === "string"))
        return malformed("wrong_type", "sources must be a list of strings");
    const facts = root["facts"];
    for (const [index, fact] of facts.entries()) {
        const problem = factProblem(fact);
        if (problem !== null)
            return malformed("bad_fact", `facts[${index}]: ${problem}`);
    }
    return {
        ok: true,
        envelope: { answer: root["answer"], facts: facts, sources: sources },
    };
}
const NOT_JSON = Symbol("not_json");
function parseWholeOrSpan(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        const start = text.indexOf("{");
        const end = text.lastIndexOf("}");
        if (start === -1 || end <= start)
            return NOT_JSON;
        try {
            return JSON.parse(text.slice(start, end + 1));
        }
        catch {
            return NOT_JSON;
        }
    }
}
function factProblem(fact) {
    if (typeof fact !== "object" || fact === null || Array.isArray(fact))
        return "a fact must be an object";
    const record = fact;
    if (!sameKeys(record, FACT_KEYS))
        return `the keys are [${Object.keys(record).join(", ")}]; expected exactly key, value, unit, source_id`;
    if (typeof record["key"] !== "string" || record["key"] === "")
        return "key must be a non-empty string";
    if (record["unit"] !== null && typeof record["unit"] !== "string")
        return "unit must be a string or null";
    if (typeof record["source_id"] !== "string" || record["source_id"] === "")
        return "source_id must be a non-empty string";
    return null;
}
function sameKeys(record, expected) {
    const keys = Object.keys(record);
    return keys.length === expected.length && expected.every((k) => Object.hasOwn(record, k));
}
function malformed(reason, detail) {
    return { ok: false, reason, detail };
}
