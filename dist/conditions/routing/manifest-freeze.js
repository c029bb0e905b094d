import { canonicalSha256, compareCodePoints, zodProblems, } from "../../core/index.js";
import { routerConfigSha256 } from "./routers.js";
import { CONDITION_MANIFEST_FORMAT, conditionManifestSchema, } from "./manifest-schema.js";
/** The stages a condition shows, from its declared visibility (never from its name). */
export function conditionStages(visibility, ranking, task) {
    const top = (k) => k === null ? "all" : [...ranking.slice(0, k)].sort(compareCodePoints);
    switch (visibility.kind) {
        case "all_routes":
            return ["all"];
        case "required_routes":
            return [[...task.required_routes].sort(compareCodePoints)];
        case "top_k":
            return [top(visibility.k)];
        case "progressive":
            return visibility.stages.map(top);
    }
}
export function manifestEntry(protocol, task, catalogSize, ranking) {
    const ranks = Object.fromEntries(task.required_routes.map((r) => [r, ranking.indexOf(r) + 1]));
    return {
        semantic_task_id: task.semantic_task_id,
        catalog_size: catalogSize,
        required_route_ranks: ranks,
        conditions: Object.fromEntries(protocol.conditions.map((c) => [c.id, { stages: conditionStages(c.visibility, ranking, task) }])),
    };
}
/** Asks the router for every task × catalog ranking, then builds and checks the manifest. */
export async function freezeConditions(input) {
    const entries = [];
    const catalogs = [...input.catalogs].sort((a, b) => a.size - b.size);
    for (const task of input.tasks)
        for (const { size, catalog } of catalogs) {
            const ranking = await input.router.rank({
                query: task.query,
                catalogSize: size,
                endpoints: catalog.endpoints,
            });
            entries.push(manifestEntry(input.protocol, task, size, ranking));
        }
    const problems = correctiveMissProblems(input.protocol, input.tasks, entries, catalogs[0]?.size);
    if (problems.length > 0)
        return { ok: false, problems };
    const body = {
        format: CONDITION_MANIFEST_FORMAT,
        protocol_id: input.protocol.protocol_id,
        protocol_sha256: input.protocolSha256,
        plan_slots_sha256: input.plan.slots_sha256,
        corpus_tasks_sha256: input.tasksSha256,
        catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
        router: {
            id: input.router.id,
            config_sha256: routerConfigSha256(input.router),
            config: input.router.config,
        },
        conditions: input.protocol.conditions.map((c) => c.id),
        entries,
    };
    return { ok: true, value: { ...body, manifest_sha256: canonicalSha256(body) } };
}
/**
 * A corrective task must miss at least one required route in the first progressive stage of the
 * smallest catalog — confirmed against the actual ranking, not only by counting routes.
 */
function correctiveMissProblems(protocol, tasks, entries, smallest) {
    const progressive = protocol.conditions.find((c) => c.visibility.kind === "progressive");
    if (!progressive || smallest === undefined)
        return [];
    const corrective = new Set(protocol.corrective_strata);
    const problems = [];
    for (const task of tasks) {
        if (!corrective.has(task.answer_task_stratum))
            continue;
        const entry = entries.find((e) => e.semantic_task_id === task.semantic_task_id && e.catalog_size === smallest);
        const first = entry?.conditions[progressive.id]?.stages[0];
        const shown = first === "all" ? null : new Set(first ?? []);
        if (shown === null || task.required_routes.every((r) => shown.has(r)))
            problems.push({
                code: "corrective_miss_not_confirmed",
                message: `${task.semantic_task_id}: the first ${progressive.id} stage of the ${smallest} catalog shows every required route, so the corrective task has no initial miss`,
            });
    }
    return problems;
}
/** Schema and the manifest's own hash. */
export function parseConditionManifest(value, file) {
    const parsed = conditionManifestSchema.safeParse(value);
    if (!parsed.success)
        return { ok: false, problems: zodProblems(parsed.error, "invalid_condition_manifest", file) };
    const { manifest_sha256, ...body } = parsed.data;
    const actual = canonicalSha256(body);
    if (actual !== manifest_sha256)
        return {
            ok: false,
            problems: [
                {
                    code: "condition_manifest_hash_mismatch",
                    file,
                    message: `manifest_sha256 is ${manifest_sha256} but the manifest hashes to ${actual}`,
                },
            ],
        };
    return { ok: true, value: parsed.data };
}
