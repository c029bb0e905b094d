import { formatProblem } from "../core/index.js";
import { EXIT } from "./io.js";
/** The JSON shape of a problem: exactly code, semantic_task_id, location, message. */
export function jsonProblem(p) {
    return { code: p.code, semantic_task_id: p.semantic_task_id, location: p.location, message: p.message };
}
/** `file:line: code: [id: ]message (location)`; plan-level problems point at the plan file. */
export function printProblems(io, problems, files) {
    for (const p of problems) {
        const subject = p.semantic_task_id !== null && !p.message.includes(p.semantic_task_id) ? `${p.semantic_task_id}: ` : "";
        const file = p.location.startsWith("plan ") ? files.plan : files.corpus;
        io.err(`${formatProblem({ code: p.code, message: `${subject}${p.message} (${p.location})`, file, ...(p.line === null ? {} : { line: p.line }) })}\n`);
    }
}
/**
 * A row that is not an object, or has a field of the wrong type, means the file is not a corpus
 * that can be checked: that is unreadable input (2), not a failed validation (1).
 */
export function exitFor(problems) {
    if (problems.length === 0)
        return EXIT.ok;
    return problems.some((p) => p.code === "invalid_row") ? EXIT.input : EXIT.failed;
}
