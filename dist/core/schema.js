import { jsonPathLines } from "./json-syntax.js";
/** `tasks[3].required_facts[0].unit`-style path of a zod issue. */
export function issuePath(path) {
    let out = "";
    for (const part of path) {
        if (typeof part === "number")
            out += `[${part}]`;
        else
            out += out === "" ? String(part) : `.${String(part)}`;
    }
    return out === "" ? "(root)" : out;
}
export function zodProblems(error, code, file) {
    return error.issues.map((issue) => ({
        code,
        message: `${issuePath(issue.path)}: ${issue.message}`,
        ...(file === undefined ? {} : { file }),
        jsonPath: issue.path.filter((p) => typeof p !== "symbol"),
    }));
}
/** Gives every problem that has a JSON path and no line the line of that path in `text` (one scan). */
export function withJsonLines(problems, text) {
    const located = problems.filter((p) => p.jsonPath !== undefined && p.line === undefined);
    if (located.length === 0)
        return [...problems];
    const lines = jsonPathLines(text, located.map((p) => p.jsonPath));
    const lineOf = new Map(located.map((p, i) => [p, lines[i]]));
    return problems.map((p) => (lineOf.has(p) ? { ...p, line: lineOf.get(p) } : p));
}
