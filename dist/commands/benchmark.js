/** Loading the benchmark's frozen inputs — protocol, plan, catalogs, corpus — and checking they agree. */
import { checkCorpus, parseCorpusText, taskSchema, } from "../authoring/index.js";
import { canonicalSha256, FabenchError, inputError, loadUnitConverter } from "../core/index.js";
import { loadCatalogs, loadPlan, loadPriorQueries, loadProtocol, readTextFile, } from "./inputs.js";
export function load(options) {
    const protocol = loadProtocol(options.protocol).value;
    const plan = loadPlan(options.plan).value;
    const protocolSha256 = canonicalSha256(protocol);
    if (plan.protocol_sha256 !== protocolSha256)
        throw inputError("plan", "plan_protocol_mismatch", `the plan was built from protocol ${plan.protocol_sha256}, not ${options.protocol} (${protocolSha256}); run \`fabench plan generate\``, { file: options.plan });
    return {
        protocol,
        protocolSha256,
        plan,
        catalogs: loadCatalogs(options.catalogs, protocol.catalog_sizes),
        priorQueries: loadPriorQueries(options.forbiddenCorpus),
    };
}
/** The content rules' view of the protocol and catalogs. */
export async function checkContext(loaded) {
    const smallest = [...loaded.catalogs].sort((a, b) => a.size - b.size)[0];
    const endpoints = smallest?.catalog.endpoints ?? [];
    const progressive = loaded.protocol.conditions.find((c) => c.visibility.kind === "progressive")?.visibility;
    return {
        routeIds: smallest ? new Set(endpoints.map((e) => e.route_id)) : null,
        routeParameters: new Map(endpoints.map((e) => [e.route_id, new Set(Object.keys(e.parameters.properties))])),
        correctiveStrata: new Set(loaded.protocol.corrective_strata),
        firstStageSize: progressive?.kind === "progressive" ? (progressive.stages[0] ?? null) : null,
        units: await loadUnitConverter(),
    };
}
export async function runCheck(loaded, text, file) {
    return checkCorpus({
        corpus: parseCorpusText(text, file),
        protocol: loaded.protocol,
        protocolSha256: loaded.protocolSha256,
        plan: loaded.plan,
        catalogs: loaded.catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
        context: await checkContext(loaded),
        priorQueries: loaded.priorQueries,
    });
}
/** A corpus that passes every identity and content check, or a validation error listing its problems. */
export async function loadCheckedCorpus(loaded, path) {
    const file = readTextFile(path, "corpus");
    const report = await runCheck(loaded, file.text, path);
    if (!report.ok || report.tasks_sha256 === null)
        throw new FabenchError({
            kind: "validation",
            stage: "corpus",
            code: "corpus_check_failed",
            message: "",
            problems: report.errors.map((e) => toProblem(e, path)),
        });
    const tasks = parseCorpusText(file.text, path).rows.map((r) => taskSchema.parse(r.value));
    return { tasks, tasksSha256: report.tasks_sha256, fileSha256: file.fileSha256, path };
}
function toProblem(e, file) {
    return {
        code: e.code,
        message: `${e.semantic_task_id ? `${e.semantic_task_id}: ` : ""}${e.message}`,
        file,
        ...(e.line === null ? {} : { line: e.line }),
    };
}
