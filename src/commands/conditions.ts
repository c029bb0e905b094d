/** `fabench conditions freeze` and `fabench conditions show`. */
import {
  freezeConditions,
  createRouter,
  routingProfile,
  type ConditionManifest,
  type RoutingProfile,
} from "../conditions/routing/index.ts";
import type { Task } from "../authoring/index.ts";
import {
  promptTurnLimitProblems,
  referenceTurnUsage,
  systemPromptPath,
  turnBudgetProblems,
} from "../conditions/runner/index.ts";
import {
  checkOutput,
  FabenchError,
  formatJsonFile,
  inputError,
  loadUnitConverter,
  type Problem,
  writeFileAtomic,
} from "../core/index.ts";
import { load, loadCheckedCorpus, type BenchmarkInputs, type LoadedBenchmark } from "./benchmark.ts";
import { jsonFilesIn, loadConditionManifest, loadPlan, readTextFile } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { rewriteAdvice } from "./advice.ts";
import { progressReporter } from "./progress.ts";
import { existsSync } from "node:fs";

export interface FreezeOptions extends Omit<BenchmarkInputs, "forbiddenCorpus"> {
  readonly corpus: string;
  readonly router: string;
  readonly routerArgs: readonly string[];
  readonly routerTimeoutMs: number;
  /** Router calls in flight at once (default 4). */
  readonly routerConcurrency?: number;
  readonly out: string;
  readonly check: boolean;
  readonly json: boolean;
}

export async function conditionsFreeze(options: FreezeOptions, io: CliIo): Promise<number> {
  if (!options.check)
    checkOutput(options.out, {
      inputs: [options.protocol, options.plan, options.corpus, ...jsonFilesIn(options.catalogs)],
      regenerates: "manifests/condition-manifest.json",
    });
  const loaded = load({ ...options, forbiddenCorpus: [] });
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const router = createRouter(options.router, {
    args: options.routerArgs,
    timeoutMs: options.routerTimeoutMs,
    path: io.env?.["PATH"] ?? "",
  });
  const result = await freezeConditions({
    ...loaded,
    tasks: corpus.tasks,
    tasksSha256: corpus.tasksSha256,
    router,
    concurrency: options.routerConcurrency ?? 4,
    // Progress goes to stderr: stdout may be the one JSON object of --json.
    onProgress: progressReporter(io, "conditions freeze", () => performance.now(), "rankings"),
  });
  if (!result.ok)
    throw new FabenchError({
      kind: "validation",
      stage: "conditions",
      code: result.problems[0]?.code ?? "freeze_failed",
      message: "",
      problems: result.problems.map((p) => ({ ...p, file: options.corpus })),
    });
  await checkTurnBudget(loaded, corpus.tasks, result.value, options.protocol);
  const text = formatJsonFile(result.value);
  const summary = {
    out: options.out,
    entries: result.value.entries.length,
    router: router.id,
    manifest_sha256: result.value.manifest_sha256,
  };
  if (options.check) {
    const upToDate = existsSync(options.out) && readTextFile(options.out, "conditions").text === text;
    if (options.json) printJson(io, { ok: upToDate, written: false, up_to_date: upToDate, ...summary });
    else if (upToDate)
      io.out(
        `${options.out} is up to date: ${summary.entries} entries, manifest_sha256 ${summary.manifest_sha256}\n`,
      );
    if (!upToDate)
      io.err(
        `${options.out}: condition_manifest_stale: differs from a fresh freeze with router ${router.id}; ${rewriteAdvice("conditions freeze", "--out", options.out, "manifests/condition-manifest.json")}\n`,
      );
    return upToDate ? EXIT.ok : EXIT.failed;
  }
  writeFileAtomic(options.out, text);
  if (options.json) printJson(io, { ok: true, written: true, up_to_date: true, ...summary });
  else
    io.out(
      `wrote ${options.out}: ${summary.entries} task × catalog entries from router ${router.id}, manifest_sha256 ${summary.manifest_sha256}\n`,
    );
  return EXIT.ok;
}

/**
 * The protocol's turn budget against this corpus and manifest (exit 1 when it does not fit): the
 * reference agent finishes every episode with `min_spare_turns` left, and the system prompt states
 * `max_turns`. A manifest is never frozen under a budget that makes a condition fail by construction.
 */
async function checkTurnBudget(
  loaded: LoadedBenchmark,
  tasks: readonly Task[],
  manifest: ConditionManifest,
  protocolPath: string,
): Promise<void> {
  const promptPath = systemPromptPath(protocolPath, loaded.protocol);
  const usage = await referenceTurnUsage({
    protocol: loaded.protocol,
    tasks,
    manifest,
    catalogs: new Map(loaded.catalogs.map((c) => [c.size, c.catalog])),
    units: await loadUnitConverter(),
  });
  const problems: Problem[] = [
    ...turnBudgetProblems(loaded.protocol, usage).map((p) => ({ ...p, file: protocolPath })),
    ...promptTurnLimitProblems(readTextFile(promptPath, "protocol").text, loaded.protocol).map((p) => ({
      ...p,
      file: promptPath,
    })),
  ];
  if (problems.length > 0)
    throw new FabenchError({
      kind: "validation",
      stage: "conditions",
      code: problems[0]?.code ?? "turn_budget_too_small",
      message: "",
      problems,
    });
}

export interface ShowOptions {
  readonly manifest: string;
  readonly task: string;
  readonly catalog?: number;
  readonly json: boolean;
}

export function conditionsShow(options: ShowOptions, io: CliIo): number {
  const manifest = loadConditionManifest(options.manifest).value;
  const entries = manifest.entries.filter(
    (e) =>
      e.semantic_task_id === options.task &&
      (options.catalog === undefined || e.catalog_size === options.catalog),
  );
  if (entries.length === 0)
    throw inputError(
      "conditions",
      "unknown_task",
      `no entry for ${options.task}${options.catalog ? ` at catalog size ${options.catalog}` : ""}`,
      { file: options.manifest },
    );
  if (options.json) printJson(io, { router: manifest.router.id, entries });
  else io.out(entries.map((e) => renderEntry(manifest, e)).join("\n"));
  return EXIT.ok;
}

function renderEntry(manifest: ConditionManifest, entry: ConditionManifest["entries"][number]): string {
  const lines = [
    `${entry.semantic_task_id} — catalog ${entry.catalog_size}, router ${manifest.router.id}`,
    "required route ranks (1 = best):",
  ];
  for (const [route, rank] of Object.entries(entry.required_route_ranks))
    lines.push(`  ${route.padEnd(24)} ${rank}`);
  for (const [condition, { stages }] of Object.entries(entry.conditions)) {
    lines.push(`${condition}:`);
    stages.forEach((stage, i) => {
      const shown =
        stage === "all" ? `all ${entry.catalog_size} routes` : `${stage.length} routes: ${stage.join(", ")}`;
      lines.push(`  stage ${i + 1}: ${shown}`);
    });
  }
  return `${lines.join("\n")}\n`;
}

export interface ProfileOptions {
  readonly manifest: string;
  readonly plan: string;
  readonly json: boolean;
}

/** `fabench conditions profile`: how much of what each task needs each condition shows first, and how often a hard negative wins. */
export function conditionsProfile(options: ProfileOptions, io: CliIo): number {
  const manifest = loadConditionManifest(options.manifest).value;
  const plan = loadPlan(options.plan).value;
  if (manifest.plan_slots_sha256 !== plan.slots_sha256)
    throw inputError("conditions", "plan_mismatch", "the condition manifest was frozen from another plan", {
      file: options.manifest,
    });
  const cells = new Map(
    plan.slots.map((s) => [s.semantic_task_id, { stratum: s.answer_task_stratum, language: s.language }]),
  );
  const profile = routingProfile(manifest, cells);
  if (options.json) printJson(io, profile);
  else io.out(renderProfile(profile));
  return EXIT.ok;
}

function renderProfile(p: RoutingProfile): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `router ${p.router}: required routes visible in each condition's first stage (share of routes / share of tasks with all of them)`,
    "",
  ];
  const pooled = p.coverage.filter((r) => r.scope === "all");
  const sizes = [...new Set(pooled.map((r) => r.catalog_size))];
  lines.push(`${"condition".padEnd(16)}${sizes.map((s) => `catalog ${s}`.padStart(20)).join("")}`);
  for (const condition of [...new Set(pooled.map((r) => r.condition))])
    lines.push(
      `${condition.padEnd(16)}${sizes
        .map((s) => {
          const r = pooled.find((x) => x.condition === condition && x.catalog_size === s);
          return r
            ? `${f(r.required_route_coverage)} / ${f(r.all_required_visible)}`.padStart(20)
            : "".padStart(20);
        })
        .join("")}`,
    );
  lines.push("", "a route that is not required ranks above a required one (share of tasks):");
  for (const r of p.outranked)
    lines.push(
      `  catalog ${String(r.catalog_size).padEnd(5)} ${r.scope === "all" ? "all tasks" : `${r.scope} ${r.group}`}`.padEnd(
        64,
      ) + f(r.outranked),
    );
  return `${lines.join("\n")}\n`;
}
