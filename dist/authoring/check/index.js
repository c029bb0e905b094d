import { normalizeQuery } from "../../core/index.js";
import { tasksSha256 } from "../corpus-file.js";
import { validateIdentity } from "../identity.js";
import { taskSchema } from "../task.js";
import { issuePath } from "../../core/index.js";
import { evidenceRules } from "./evidence.js";
import { factRules } from "./facts.js";
import { hasHeader, headerProblems } from "./header.js";
import { independenceProblems } from "./independence.js";
import { routeRules } from "./routes.js";
/** Every content rule, by name; each is a small function in its own file group. */
export const CONTENT_RULES = { ...routeRules, ...evidenceRules, ...factRules };
export function checkCorpus(input) {
    const { corpus } = input;
    const identity = validateIdentity(corpus.rows, input.plan);
    const errors = identity.errors.map((e) => ({ ...e }));
    if (hasHeader(corpus.document))
        for (const p of headerProblems({ ...input, document: corpus.document }))
            errors.push({ ...p, semantic_task_id: null, location: "header", line: 1 });
    for (const row of corpus.rows)
        errors.push(...taskProblems(row, input));
    errors.push(...crossTaskProblems(corpus.rows));
    const ok = errors.length === 0;
    return {
        ok,
        task_count: corpus.rows.length,
        tasks_sha256: ok ? tasksSha256(corpus.rows.map((r) => r.value)) : null,
        errors,
    };
}
/** The independence rules over every schema-valid task, each problem reported on the later row of its pair. */
function crossTaskProblems(rows) {
    const valid = rows.flatMap((row) => {
        const parsed = taskSchema.safeParse(row.value);
        return parsed.success ? [{ row, task: parsed.data }] : [];
    });
    return independenceProblems(valid.map((v) => v.task)).map((p) => {
        const { row, task } = valid[p.index];
        return {
            code: p.code,
            semantic_task_id: task.semantic_task_id,
            location: row.location,
            line: row.line,
            message: p.message,
        };
    });
}
function taskProblems(row, input) {
    const value = row.value;
    if (typeof value !== "object" || value === null || Array.isArray(value))
        return []; // identity reported it
    const rawId = value["semantic_task_id"];
    const id = typeof rawId === "string" ? rawId : null;
    const at = (code, message) => ({
        code,
        semantic_task_id: id,
        location: row.location,
        line: row.line,
        message,
    });
    const parsed = taskSchema.safeParse(value);
    if (!parsed.success)
        return parsed.error.issues.map((i) => at("invalid_task", `${issuePath(i.path)}: ${i.message}`));
    const task = parsed.data;
    const problems = Object.values(CONTENT_RULES).flatMap((rule) => rule(task, input.context).map((p) => at(p.code, p.message)));
    const prior = input.priorQueries.get(normalizeQuery(task.query));
    if (prior !== undefined)
        problems.push(at("prior_query_overlap", `the query normalises to a query of the earlier surface ${prior}`));
    return problems;
}
