/**
 * What `judge run` judges: the run files' records, checked against the inputs given, turned into
 * episodes in the seeded order, and what every line of the judging shares but the judge itself.
 */
import type { Protocol, Task } from "../authoring/index.ts";
import type { Catalog } from "../conditions/catalog/index.ts";
import type { RunRecord } from "../conditions/runner/index.ts";
import { inputError } from "../core/index.ts";
import type { GenerationSettings } from "../providers/index.ts";
import { judgeOrder } from "./order.ts";
import type { JudgePrompt } from "./prompt.ts";
import { forbiddenTerms, makeBlinder } from "./request.ts";
import type { JudgeContext, JudgeEpisode } from "./run.ts";

/** A catalog the benchmark was loaded with: its size and the catalog itself. */
export interface SizedCatalog {
  readonly size: number;
  readonly catalog: Catalog;
}

/** The benchmark `judge run` was given, as loaded: the protocol, its hash and its catalogs. */
export interface JudgedBenchmark {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly catalogs: readonly SizedCatalog[];
}

/**
 * Merged run records, checked against the inputs given (a mismatch or no record at all: exit 2,
 * reported on `file`, the first run file).
 */
export function checkRunInputs(
  records: RunRecord[],
  given: Omit<JudgedBenchmark, "protocol">,
  corpusTasksSha256: string,
  file: string,
): RunRecord[] {
  const metadata = records[0]?.metadata;
  if (!metadata) throw inputError("judge", "empty_runs", "the run files hold no records");
  const differ: string[] = [];
  if (metadata.protocol_sha256 !== given.protocolSha256) differ.push("protocol (--protocol)");
  if (metadata.corpus_tasks_sha256 !== corpusTasksSha256) differ.push("corpus (--corpus)");
  // The catalogs name the routes the judge must not see: they must be the run's own.
  const catalogs = new Map(given.catalogs.map((c) => [c.size, c.catalog.sha256]));
  if (metadata.catalogs.some((c) => catalogs.get(c.size) !== c.sha256)) differ.push("catalogs (--catalogs)");
  if (differ.length > 0)
    throw inputError(
      "judge",
      "run_input_mismatch",
      `the runs were made from another ${differ.join(", ")} than the one given; give the inputs they were run with`,
      { file },
    );
  return records;
}

/** What is judged: the run records, the corpus's tasks they answer, and the frozen prompt. */
export interface JudgingPlanInput {
  readonly records: readonly RunRecord[];
  readonly tasks: readonly Task[];
  readonly prompt: JudgePrompt;
}

/** The `judge run` options the plan reads. */
export interface JudgingChoices {
  /** The shuffle's seed (default: the protocol's statistics.seed). */
  readonly seed?: number;
  readonly temperature: number;
  readonly maxOutputTokens: number;
}

/** What every line of one judging shares, but the judge's identity. */
export type JudgingBase = Omit<JudgeContext, "identity">;

/** The episodes in the seeded order, and the context every line shares but the judge. Pure. */
export function planJudging(
  benchmark: JudgedBenchmark,
  input: JudgingPlanInput,
  choices: JudgingChoices,
): { episodes: JudgeEpisode[]; base: JudgingBase } {
  const { protocol } = benchmark;
  const tasks = new Map<string, Task>(input.tasks.map((t) => [t.semantic_task_id, t]));
  const seed = choices.seed ?? protocol.statistics.seed;
  const episodes = judgeOrder(
    input.records.map((r) => toEpisode(r, tasks)),
    seed,
  );
  const settings: GenerationSettings = {
    temperature: choices.temperature,
    max_output_tokens: choices.maxOutputTokens,
    seed: null,
    prompt_cache: false,
  };
  const blind = makeBlinder(
    forbiddenTerms(
      benchmark.catalogs.map((c) => c.catalog),
      protocol.conditions.map((c) => c.id),
    ),
  );
  const base = {
    judge: protocol.judge,
    prompt: input.prompt,
    protocolSha256: benchmark.protocolSha256,
    blind,
    settings,
    seed,
  };
  return { episodes, base };
}

function toEpisode(record: RunRecord, tasks: ReadonlyMap<string, Task>): JudgeEpisode {
  const task = tasks.get(record.semantic_task_id);
  if (!task) throw new Error(`${record.semantic_task_id} is not in the corpus (its hash was checked; a bug)`);
  return {
    key: {
      semantic_task_id: record.semantic_task_id,
      catalog_size: record.catalog_size,
      condition: record.condition,
      trial: record.trial,
    },
    task,
    status: record.status,
    finalText: record.final_text,
  };
}
