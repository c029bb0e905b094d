/** `fabench conditions freeze` and `fabench conditions show`. */
import {
  freezeConditions,
  createRouter,
  renderManifestEntry,
  renderRoutingProfile,
  routingProfile,
  type ConditionManifest,
  watchUnranked,
} from "../conditions/routing/index.ts";
import type { Task } from "../authoring/index.ts";
import {
  promptTurnLimitProblems,
  referenceTurnUsage,
  turnBudgetProblems,
} from "../conditions/runner/index.ts";
import {
  checkOutput,
  FabenchError,
  formatJsonFile,
  inputError,
  jsonFilesIn,
  loadUnitConverter,
  type Problem,
  readTextFile,
  writeFileAtomic,
} from "../core/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { worldHooks } from "./shell/world-hooks.ts";
import { rewriteAdvice } from "./shell/advice.ts";
import { progressReporter } from "./shell/progress.ts";
import { existsSync } from "node:fs";
import {
  loadSystemPrompt,
  loadWorld,
  type BenchmarkPaths,
  type Benchmark,
  loadConditionManifest,
  loadPlan,
  systemPromptPath,
} from "../world/index.ts";

export interface FreezeOptions extends Omit<BenchmarkPaths, "forbiddenCorpus"> {
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
  const router = createRouter(options.router, {
    args: options.routerArgs,
    timeoutMs: options.routerTimeoutMs,
    path: io.env?.["PATH"] ?? "",
  });
  const loaded = await loadWorld(options, worldHooks(io, options.json));
  const watch = watchUnranked(router);
  const result = await freezeConditions({
    ...loaded,
    tasks: loaded.corpus.tasks,
    tasksSha256: loaded.corpus.tasksSha256,
    router: watch.router,
    concurrency: options.routerConcurrency ?? 4,
    // Progress goes to stderr: stdout may be the one JSON object of --json.
    onProgress: progressReporter(io, "conditions freeze", () => performance.now(), "rankings"),
  });
  for (const line of watch.warnings(options.out)) io.err(`warning: ${line}\n`);
  if (!result.ok)
    throw new FabenchError({
      kind: "validation",
      stage: "conditions",
      code: result.problems[0]?.code ?? "freeze_failed",
      message: "",
      problems: result.problems.map((p) => ({ ...p, file: options.corpus })),
    });
  await checkTurnBudget(loaded, loaded.corpus.tasks, result.value, options.protocol);
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
  loaded: Benchmark,
  tasks: readonly Task[],
  manifest: ConditionManifest,
  protocolPath: string,
): Promise<void> {
  const promptPath = systemPromptPath(protocolPath, loaded.protocol);
  const prompt = loadSystemPrompt(protocolPath, loaded.protocol);
  const usage = await referenceTurnUsage({
    protocol: loaded.protocol,
    tasks,
    manifest,
    catalogs: new Map(loaded.catalogs.map((c) => [c.size, c.catalog])),
    units: await loadUnitConverter(),
  });
  const problems: Problem[] = [
    ...turnBudgetProblems(loaded.protocol, usage).map((p) => ({ ...p, file: protocolPath })),
    ...promptTurnLimitProblems(prompt, loaded.protocol).map((p) => ({
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
  else io.out(entries.map((e) => renderManifestEntry(manifest, e)).join("\n"));
  return EXIT.ok;
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
  else io.out(renderRoutingProfile(profile));
  return EXIT.ok;
}
