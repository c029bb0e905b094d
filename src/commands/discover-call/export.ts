/**
 * `fabench discover-call export`: the frozen #424 corpus as a Discover → Call task set (JSON Lines),
 * written atomically, or compared byte for byte with `--check`. Each reference candidate's
 * parameters are the ones the #424 reference agent sends for the task's first required response,
 * so the export and the final-answer benchmark agree on what satisfies a response's rules.
 */
import { existsSync } from "node:fs";
import { type Task } from "../../authoring/index.ts";
import { referenceArguments } from "../../conditions/agents/index.ts";
import type { Endpoint } from "../../conditions/catalog/index.ts";
import { renderTool } from "../../conditions/execution/index.ts";
import {
  bundledPath,
  checkOutput,
  formatProblem,
  inputError,
  jsonFilesIn,
  readTextFile,
  sha256Hex,
  writeFileAtomic,
} from "../../core/index.ts";
import {
  exportTasks,
  firstResponse,
  formatTaskSet,
  parseTaskSet,
  type SkippedTask,
} from "../../discover-call/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { rewriteAdvice } from "../shell/advice.ts";
import { loadFrozenCorpus } from "../../world/index.ts";

export interface DiscoverCallExportOptions {
  /** A frozen corpus (`fabench-corpus/v1`); it names the catalogs its routes come from. */
  readonly corpus: string;
  readonly out: string;
  readonly check: boolean;
  readonly json: boolean;
  /** The folder of those catalogs; the bundled tasks/catalogs when absent. */
  readonly catalogs?: string;
}

export function discoverCallExport(options: DiscoverCallExportOptions, io: CliIo): number {
  const catalogs = options.catalogs ?? bundledPath("tasks/catalogs");
  if (!options.check)
    checkOutput(options.out, {
      inputs: [options.corpus, ...jsonFilesIn(catalogs)],
      regenerates: "tasks/discover-call/final-answer-v4.jsonl",
    });
  const { tasks, catalogs: named } = loadFrozenCorpus(options.corpus, catalogs);
  // The smallest catalog the corpus names: every larger one nests it.
  const endpoints = new Map((named[0]?.catalog.endpoints ?? []).map((e) => [e.route_id, e]));
  const exported = exportTasks(tasks, referenceParameters(endpoints, options.corpus));
  const text = formatTaskSet(exported.tasks);
  // Never write what the task-set reader would refuse (an export with no task at all, say).
  parseTaskSet(Buffer.from(text), options.out);
  const summary = {
    out: options.out,
    corpus_task_count: tasks.length,
    task_count: exported.tasks.length,
    constraint_count: exported.constraintCount,
    skipped_count: exported.skipped.length,
    skipped: exported.skipped,
    task_set_sha256: sha256Hex(Buffer.from(text)),
  };
  const figures = `${summary.task_count} tasks, ${summary.constraint_count} constraints (${skippedText(tasks.length, exported.skipped)}), task_set_sha256 ${summary.task_set_sha256}`;
  if (!options.check) {
    writeFileAtomic(options.out, text);
    if (options.json) printJson(io, { ok: true, written: true, ...summary });
    else io.out(`wrote ${options.out}: ${figures}\n`);
    return EXIT.ok;
  }
  const current = existsSync(options.out) ? readTextFile(options.out, "discover-call").text : null;
  const upToDate = current === text;
  if (options.json) printJson(io, { ok: upToDate, written: false, up_to_date: upToDate, ...summary });
  if (upToDate) {
    if (!options.json) io.out(`${options.out} is up to date: ${figures}\n`);
    return EXIT.ok;
  }
  const why =
    current === null
      ? "the task-set file does not exist"
      : `differs from a fresh export of ${options.corpus}`;
  io.err(
    `${formatProblem({ code: "task_set_stale", message: `${why}; ${rewriteAdvice("discover-call export", "--out", options.out, "tasks/discover-call/final-answer-v4.jsonl")}`, file: options.out })}\n`,
  );
  return EXIT.failed;
}

function skippedText(total: number, skipped: readonly SkippedTask[]): string {
  if (skipped.length === 0) return `every one of the ${total} corpus tasks`;
  const reasons = new Map<string, number>();
  for (const s of skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const counts = [...reasons].map(([reason, count]) => `${reason}: ${count}`).join(", ");
  return `${skipped.length} of ${total} corpus tasks left out — ${counts}`;
}

/**
 * The arguments the #424 reference agent sends for a task's first required response when its
 * tool is visible: the required parameters, then each rule's value (`eq`: its value; `nonempty`: a text).
 */
function referenceParameters(endpoints: ReadonlyMap<string, Endpoint>, corpus: string) {
  return (task: Task): Record<string, unknown> => {
    const response = firstResponse(task.executor_fixture.responses);
    const route = response?.route_id ?? "";
    const endpoint = endpoints.get(route);
    if (response === undefined || endpoint === undefined)
      throw inputError(
        "corpus",
        "unknown_route",
        `${task.semantic_task_id}: the first required response's route ${route} is in none of the corpus's catalogs`,
        { file: corpus },
      );
    return referenceArguments(response, renderTool(endpoint), new Map());
  };
}
