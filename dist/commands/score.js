/** `fabench score` and `fabench gate`: from run files to the summary and the verdict. */
import { basename, join } from "node:path";
import { mergeRuns, parseRunBytes } from "../conditions/runner/index.js";
import { canonicalSha256, FabenchError, formatJsonFile, formatProblem, inputError, loadUnitConverter, readBytes, sha256Hex, usageError, writeFileAtomic, } from "../core/index.js";
import { gateExitCode, renderGate } from "../gates/index.js";
import { scoreRecord } from "../metrics/index.js";
import { renderHeadline } from "../report/index.js";
import { buildSummary, gateFor } from "../summary/index.js";
import { load, loadCheckedCorpus } from "./benchmark.js";
import { prerequisiteFor } from "./conveyor.js";
import { loadSummaryProtocol, readSummary } from "./inputs.js";
import { EXIT, printJson } from "./io.js";
function readRuns(paths, io) {
    const files = paths.map((path) => {
        const bytes = readBytes(path, "run");
        const parsed = parseRunBytes(bytes, path);
        if (parsed.tornBytes > 0)
            io.err(`${path}: ignoring a torn last line (${parsed.tornBytes} bytes); resume that run to finish it\n`);
        return { path, sha256: sha256Hex(bytes), parsed };
    });
    const merged = mergeRuns(files.map((f) => ({ file: f.path, records: f.parsed.records, lines: f.parsed.lines })));
    if (merged.problems.length > 0)
        throw new FabenchError({
            kind: "input",
            stage: "score",
            code: merged.problems[0]?.code ?? "bad_runs",
            message: "",
            problems: merged.problems,
        });
    return { files, merged };
}
/** Read run files, check they were made from this corpus and protocol, and score every episode. */
export async function scoreRunFiles(options, io) {
    if (options.runs.length === 0)
        throw usageError("no_runs", "give at least one run file");
    const loaded = load({
        protocol: options.protocol,
        plan: options.plan,
        catalogs: options.catalogs,
        forbiddenCorpus: [],
    });
    const corpus = await loadCheckedCorpus(loaded, options.corpus);
    const { files, merged } = readRuns(options.runs, io);
    const metadata = merged.records[0]?.metadata;
    if (!metadata)
        throw inputError("score", "empty_runs", "the run files hold no records");
    if (metadata.corpus_tasks_sha256 !== corpus.tasksSha256 ||
        metadata.protocol_sha256 !== loaded.protocolSha256)
        throw inputError("score", "run_input_mismatch", `the runs were made from other inputs (corpus ${metadata.corpus_tasks_sha256.slice(0, 12)}…, protocol ${metadata.protocol_sha256.slice(0, 12)}…)`, { file: options.runs[0] });
    const tasks = new Map(corpus.tasks.map((t) => [t.semantic_task_id, t]));
    const units = await loadUnitConverter();
    const rows = merged.records.map((r) => scoreRecord(r, tasks.get(r.semantic_task_id), units));
    return { loaded, corpus, files, records: merged.records, metadata, tasks, rows };
}
export async function score(options, io) {
    const { loaded, files, records, metadata, tasks, rows } = await scoreRunFiles(options, io);
    const result = buildSummary({
        protocol: loaded.protocol,
        protocolSha256: loaded.protocolSha256,
        metadata,
        records,
        runFiles: files,
        rows,
        tasks,
        prerequisite: prerequisiteFor(loaded.protocol, options.conveyor),
        rng: options.rng,
        allowIncomplete: options.allowIncomplete,
        allowMixedModels: options.allowMixedModels,
    });
    if (!result.ok) {
        for (const problem of result.problems)
            io.err(`${formatProblem(problem)}\n`);
        if (result.total > result.problems.length)
            io.err(`… and ${result.total - result.problems.length} more\n`);
        io.err(`${result.advice}\n`);
        return EXIT.failed;
    }
    const { summary } = result;
    const out = options.out ??
        join("results", `${basename(options.runs[0]).replace(/\.jsonl$/, "")}.summary.json`);
    writeFileAtomic(out, formatJsonFile(summary));
    if (options.json)
        printJson(io, {
            out,
            complete: summary.complete,
            episodes: summary.episodes,
            infrastructure_errors: summary.infrastructure_errors.total,
            gate_status: summary.gate.status,
            summary_sha256: canonicalSha256(summary),
        });
    else
        io.out(renderHeadline(summary, out));
    return EXIT.ok;
}
export function gate(options, io) {
    const summary = readSummary(options.summary);
    const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, "gate");
    const verdict = gateFor(protocol, summary, prerequisiteFor(protocol, options.conveyor));
    if (options.json)
        printJson(io, verdict);
    else
        io.out(renderGate(verdict));
    return gateExitCode(verdict);
}
