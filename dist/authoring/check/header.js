/** The corpus file's provenance: every recorded hash must match what it was built from. */
import { issuePath } from "../../core/index.js";
import { corpusHeaderSchema, freezeIdentitySha256, tasksSha256 } from "../corpus-file.js";
/** True when the document is a corpus file with a header (not a bare list of tasks). */
export function hasHeader(document) {
    return (typeof document === "object" &&
        document !== null &&
        !Array.isArray(document) &&
        Object.hasOwn(document, "format"));
}
export function headerProblems(input) {
    const parsed = corpusHeaderSchema.safeParse(input.document);
    if (!parsed.success)
        return parsed.error.issues.map((i) => ({
            code: "invalid_corpus_header",
            message: `${issuePath(i.path)}: ${i.message}`,
        }));
    const header = parsed.data;
    const problems = [];
    const mismatch = (code, what, recorded, actual) => problems.push({ code, message: `${what} is recorded as ${String(recorded)} but is ${String(actual)}` });
    if (header.protocol_sha256 !== input.protocolSha256)
        mismatch("protocol_hash_mismatch", "protocol_sha256", header.protocol_sha256, input.protocolSha256);
    if (header.plan_slots_sha256 !== input.plan.slots_sha256)
        mismatch("plan_hash_mismatch", "plan_slots_sha256", header.plan_slots_sha256, input.plan.slots_sha256);
    for (const catalog of input.catalogs ?? []) {
        const recorded = header.catalogs.find((c) => c.size === catalog.size)?.sha256 ?? "missing";
        if (recorded !== catalog.sha256)
            mismatch("catalog_hash_mismatch", `the ${catalog.size} catalog's sha256`, recorded, catalog.sha256);
    }
    const conditions = input.protocol.conditions.map((c) => c.id);
    if (header.conditions.join(",") !== conditions.join(","))
        mismatch("conditions_mismatch", "conditions", header.conditions.join(","), conditions.join(","));
    // Recomputed from the actual plan and protocol, so a wrong recorded field gets its own code only.
    const freeze = freezeIdentitySha256(header.generator_source_revision, input.plan.slots_sha256, conditions);
    if (header.freeze_identity_sha256 !== freeze)
        mismatch("freeze_identity_mismatch", "freeze_identity_sha256", header.freeze_identity_sha256, freeze);
    if (header.task_count !== header.tasks.length)
        mismatch("task_count_mismatch", "task_count", header.task_count, header.tasks.length);
    const tasks = tasksSha256(header.tasks);
    if (header.tasks_sha256 !== tasks)
        mismatch("tasks_hash_mismatch", "tasks_sha256", header.tasks_sha256, tasks);
    return problems;
}
