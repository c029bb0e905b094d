/** `fabench score` and `fabench gate`: from run files to the summary and the verdict. */
import { basename, join } from "node:path";
import type { Protocol, Task } from "../authoring/index.ts";
import { mergeRuns, parseRunBytes, type RunRecord } from "../conditions/index.ts";
import { canonicalSha256, compareCodePoints, FabenchError, formatJsonFile, formatProblem, inputError, loadUnitConverter, readBytes, sha256Hex, usageError, writeFileAtomic } from "../core/index.ts";
import { evaluateGate, gateExitCode, type Gate, type PrerequisiteStatus } from "../gates/index.ts";
import { POOLED, scoreRecord, summarizeEpisodes, type RngName } from "../metrics/index.ts";
import { SUMMARY_FORMAT, type Summary } from "../report/index.ts";
import { load, loadCheckedCorpus } from "./benchmark.ts";
import { prerequisiteFor } from "./conveyor.ts";
import { loadProtocol, readSummary } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";

export interface ScoreOptions {
  readonly runs: readonly string[];
  readonly corpus: string;
  readonly protocol: string;
  readonly plan: string;
  readonly catalogs: string;
  readonly conveyor: string;
  readonly out?: string;
  readonly rng: RngName;
  readonly allowIncomplete: boolean;
  readonly allowMixedModels: boolean;
  readonly json: boolean;
}

/** Model turns by the model the provider reported, keys in code-point order. */
export function reportedModels(records: readonly RunRecord[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) for (const t of r.turns) if (typeof t["model"] === "string") counts.set(t["model"], (counts.get(t["model"]) ?? 0) + 1);
  return Object.fromEntries([...counts.keys()].sort(compareCodePoints).map((k) => [k, counts.get(k) as number]));
}

function readRuns(paths: readonly string[], io: CliIo) {
  const files = paths.map((path) => {
    const bytes = readBytes(path, "run");
    const parsed = parseRunBytes(bytes, path);
    if (parsed.tornBytes > 0) io.err(`${path}: ignoring a torn last line (${parsed.tornBytes} bytes); resume that run to finish it\n`);
    return { path, sha256: sha256Hex(bytes), parsed };
  });
  const merged = mergeRuns(files.map((f) => ({ file: f.path, records: f.parsed.records, lines: f.parsed.lines })));
  if (merged.problems.length > 0) throw new FabenchError({ kind: "input", stage: "score", code: merged.problems[0]?.code ?? "bad_runs", message: "", problems: merged.problems });
  return { files, merged };
}

/** The gate's view of a summary's statistics. */
export function gateFor(protocol: Protocol, stats: Pick<Summary, "bootstrap" | "aggregates" | "complete">, prerequisite: PrerequisiteStatus): Gate {
  return evaluateGate(
    protocol,
    {
      statistic: (selection, condition, metric, kind) => stats.bootstrap.intervals[`${selection}|${condition}|${metric}|${kind}`],
      total: (selection, condition, metric) => stats.aggregates[selection]?.[condition]?.totals[metric] ?? stats.aggregates[selection]?.[condition]?.means[metric] ?? 0,
      complete: stats.complete,
    },
    prerequisite,
  );
}

export type RunInputs = Pick<ScoreOptions, "runs" | "corpus" | "protocol" | "plan" | "catalogs">;

/** Read run files, check they were made from this corpus and protocol, and score every episode. */
export async function scoreRunFiles(options: RunInputs, io: CliIo) {
  if (options.runs.length === 0) throw usageError("no_runs", "give at least one run file");
  const loaded = load({ protocol: options.protocol, plan: options.plan, catalogs: options.catalogs, forbiddenCorpus: [] });
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const { files, merged } = readRuns(options.runs, io);
  const metadata = merged.records[0]?.metadata;
  if (!metadata) throw inputError("score", "empty_runs", "the run files hold no records");
  if (metadata.corpus_tasks_sha256 !== corpus.tasksSha256 || metadata.protocol_sha256 !== loaded.protocolSha256)
    throw inputError("score", "run_input_mismatch", `the runs were made from other inputs (corpus ${metadata.corpus_tasks_sha256.slice(0, 12)}…, protocol ${metadata.protocol_sha256.slice(0, 12)}…)`, { file: options.runs[0] as string });
  const tasks = new Map<string, Task>(corpus.tasks.map((t) => [t.semantic_task_id, t]));
  const units = await loadUnitConverter();
  const rows = merged.records.map((r) => scoreRecord(r, tasks.get(r.semantic_task_id) as Task, units));
  return { loaded, corpus, files, records: merged.records, metadata, tasks, rows };
}

export async function score(options: ScoreOptions, io: CliIo): Promise<number> {
  const { loaded, corpus, files, records, metadata, tasks, rows } = await scoreRunFiles(options, io);
  // Complete means the whole benchmark: every corpus task × catalog × condition × trial.
  const missing = missingFromBenchmark(records, corpus.tasks.map((t) => t.semantic_task_id), loaded.protocol, metadata.trials);
  const complete = missing.length === 0;
  if (!complete && !options.allowIncomplete) {
    for (const key of missing.slice(0, 20)) io.err(`${formatProblem({ code: "missing_episode", message: key })}\n`);
    if (missing.length > 20) io.err(`… and ${missing.length - 20} more\n`);
    io.err(`${missing.length} episode(s) missing: refusing an incomplete set; add --allow-incomplete to score it anyway (the gate cannot then pass)\n`);
    return EXIT.failed;
  }
  // The run's metadata names one model; a provider that answered with several (an alias moved
  // mid-run) makes the episodes incomparable, like mixing lanes or settings.
  const models = reportedModels(records);
  if (Object.keys(models).length > 1 && !options.allowMixedModels) {
    for (const [model, turns] of Object.entries(models)) io.err(`${formatProblem({ code: "mixed_reported_models", message: `${turns} turn(s) answered by ${model}` })}\n`);
    io.err(`the provider reported ${Object.keys(models).length} different models: refusing to score them as one run; add --allow-mixed-models to score it anyway (the summary says so)\n`);
    return EXIT.failed;
  }
  const stats = summarizeEpisodes(rows, tasks, loaded.protocol, options.rng);
  const { coreMs: _core, ...statistics } = stats;
  const errors = rows.filter((r) => r.status === "error");
  const byCode: Record<string, number> = {};
  for (const r of errors) byCode[r.error_code ?? "unknown"] = (byCode[r.error_code ?? "unknown"] ?? 0) + 1;
  const base = { ...statistics, complete };
  const summary: Summary = {
    format: SUMMARY_FORMAT,
    complete,
    missing_episodes: missing.length,
    protocol_id: loaded.protocol.protocol_id,
    protocol_sha256: loaded.protocolSha256,
    run: metadata,
    run_files: files.map((f) => ({ path: f.path, sha256: f.sha256 })),
    episodes: rows.length,
    infrastructure_errors: { total: errors.length, by_code: byCode },
    reported_models: models,
    ...statistics,
    gate: gateFor(loaded.protocol, base, prerequisiteFor(loaded.protocol, options.conveyor)),
    episode_scores: rows,
  };
  const out = options.out ?? join("results", `${basename(options.runs[0] as string).replace(/\.jsonl$/, "")}.summary.json`);
  writeFileAtomic(out, formatJsonFile(summary));
  if (options.json) printJson(io, { out, complete, episodes: rows.length, infrastructure_errors: errors.length, gate_status: summary.gate.status, summary_sha256: canonicalSha256(summary) });
  else io.out(renderHeadline(summary, out));
  return EXIT.ok;
}

function renderHeadline(summary: Summary, out: string): string {
  const pooled = summary.aggregates[POOLED] ?? {};
  const models = Object.keys(summary.reported_models);
  const lines = [`wrote ${out}: ${summary.episodes} episodes${summary.complete ? "" : " (INCOMPLETE)"}, ${summary.infrastructure_errors.total} infrastructure error(s)`];
  if (models.length > 1) lines.push(`WARNING: the provider reported ${models.length} models (${models.join(", ")}); scored as one run because --allow-mixed-models was given`);
  lines.push("", "pooled means        recall  numeric  unit   provenance  unsupported  schema tokens");
  for (const [condition, a] of Object.entries(pooled)) {
    const f = (m: string, digits = 3) => (a.means[m] === null || a.means[m] === undefined ? "–" : (a.means[m] as number).toFixed(digits));
    lines.push(`${condition.padEnd(18)}  ${f("required_fact_recall").padStart(6)}  ${f("numeric_value_accuracy").padStart(7)}  ${f("unit_accuracy").padStart(5)}  ${f("provenance_accuracy").padStart(10)}  ${f("unsupported_fact_rate").padStart(11)}  ${f("tool_schema_tokens", 0).padStart(13)}`);
  }
  lines.push("", `gate: ${summary.gate.status}${summary.gate.status === "BLOCKED" ? ` (${summary.gate.prerequisite.blocking.map((b) => `${b.stage} ${b.reason}`).join("; ")})` : ""}`);
  return `${lines.join("\n")}\n`;
}

export interface GateOptions {
  readonly summary: string;
  readonly protocol: string;
  readonly conveyor: string;
  readonly json: boolean;
}

export function gate(options: GateOptions, io: CliIo): number {
  const summary = readSummary(options.summary);
  const protocol = loadProtocol(options.protocol).value;
  if (summary.protocol_sha256 !== canonicalSha256(protocol)) throw inputError("gate", "protocol_mismatch", "the summary was scored under another protocol", { file: options.summary });
  const verdict = gateFor(protocol, summary, prerequisiteFor(protocol, options.conveyor));
  if (options.json) printJson(io, verdict);
  else io.out(renderGate(verdict));
  return gateExitCode(verdict);
}

export function renderGate(g: Gate): string {
  const lines = [`verdict: ${g.status}${g.complete ? "" : " (incomplete run set: cannot pass)"}`];
  if (!g.prerequisite.satisfied) lines.push("blocked by:", ...g.prerequisite.blocking.map((b) => `  ${b.stage}: ${b.reason}`));
  for (const [condition, v] of Object.entries(g.conditions)) {
    lines.push("", `${condition}: ${v.passed ? "passes" : "fails"} on point estimates; ${v.interval_passed ? "passes" : "fails"} with intervals`);
    for (const [name, c] of Object.entries(v.checks)) {
      const num = (x: number | null) => (x === null ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));
      const ci = c.ci95 ? ` [${num(c.ci95[0])}, ${num(c.ci95[1])}]` : "";
      lines.push(`  ${c.passed ? "ok  " : "FAIL"} ${name.padEnd(36)} value ${num(c.value).padStart(9)}  FULL ${num(c.full).padStart(9)}  delta/ratio ${num(c.delta).padStart(9)}${ci}  threshold ${c.threshold}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function missingFromBenchmark(records: readonly { semantic_task_id: string; catalog_size: number; condition: string; trial: number }[], taskIds: readonly string[], protocol: Protocol, trials: number): string[] {
  const have = new Set(records.map((r) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`));
  const missing: string[] = [];
  for (const task of taskIds)
    for (const size of protocol.catalog_sizes)
      for (const condition of protocol.conditions)
        for (let trial = 1; trial <= trials; trial++) {
          const key = `${task}|${size}|${condition.id}|${trial}`;
          if (!have.has(key)) missing.push(key);
        }
  return missing;
}
