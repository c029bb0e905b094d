/** `fabench run`: replay the benchmark's evidence to an agent under every selected condition. */
import { existsSync } from "node:fs";
import { episodeKey, loadTokenCounter, planEpisodes, referenceAgent, RunWriter, runMatrix, TurnTokenCounter, type Agent, type Shard } from "../conditions/index.ts";
import type { Plan, Task } from "../authoring/index.ts";
import { canonicalSha256, compareCodePoints, usageError } from "../core/index.ts";
import { load, loadCheckedCorpus } from "./benchmark.ts";
import { loadConditionManifest, readTextFile } from "./inputs.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";
import { progressReporter } from "./progress.ts";
import { catalogFiles, checkManifest, checkOutputNotInput, checkSelection, prepareResume, runMetadata, systemPromptPath } from "./run-setup.ts";

export interface RunOptions {
  readonly agent: string;
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly conditionsManifest: string;
  readonly out: string;
  readonly trials: number;
  readonly conditions?: readonly string[];
  readonly catalogSizes?: readonly number[];
  readonly tasks?: string;
  readonly shard?: Shard;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly tokenizer: string;
  readonly json: boolean;
}

function createAgent(spec: string, requestMoreTools: string): Agent {
  if (spec === "reference") return referenceAgent(requestMoreTools);
  throw usageError("unknown_agent", `--agent takes reference (model agents are not built yet), not ${spec}`);
}

export async function run(options: RunOptions, io: CliIo): Promise<number> {
  const loaded = load({ protocol: options.protocol, plan: options.plan, catalogs: options.catalogs, forbiddenCorpus: [] });
  const { protocol } = loaded;
  const promptPath = systemPromptPath(options.protocol, protocol);
  checkOutputNotInput(options.out, [options.protocol, options.plan, options.corpus, options.conditionsManifest, promptPath, ...catalogFiles(options.catalogs, protocol.catalog_sizes)]);
  if (existsSync(options.out) && !options.resume) throw usageError("output_exists", `${options.out} exists; add --resume to continue it, or choose a new --out`);
  const agent = createAgent(options.agent, protocol.agent_loop.request_more_tools_token);
  const corpus = await loadCheckedCorpus(loaded, options.corpus);
  const manifest = loadConditionManifest(options.conditionsManifest).value;
  checkManifest(manifest, loaded, corpus, options.conditionsManifest);

  const conditions = options.conditions ?? protocol.conditions.map((c) => c.id);
  const catalogSizes = options.catalogSizes ?? protocol.catalog_sizes;
  const selection = { conditions, catalogSizes, trials: options.trials, tasks: options.tasks ?? null };
  const episodes = planEpisodes(corpus.tasks, loaded.plan, selection, options.shard ?? null);
  checkSelection(manifest, protocol, episodes, conditions, catalogSizes);

  const systemPrompt = readTextFile(promptPath, "protocol").text;
  const counter = await loadTokenCounter(options.tokenizer);
  const metadata = runMetadata({
    loaded,
    corpus,
    manifest,
    agent: agent.identity,
    tokenizer: counter.name,
    systemPrompt,
    trials: options.trials,
    selection: { conditions: [...conditions], catalog_sizes: [...catalogSizes], tasks: options.tasks ?? null, ...selectedTasks(corpus.tasks, loaded.plan, selection) },
  });
  const resume = options.resume ? prepareResume(options.out, metadata, episodes) : { done: new Set<string>(), droppedTornBytes: 0 };
  const pending = episodes.filter((e) => !resume.done.has(episodeKey(e)));
  if (resume.droppedTornBytes > 0) io.err(`${options.out}: dropped a torn last line (${resume.droppedTornBytes} bytes) left by an interrupted run\n`);

  let stopping = false;
  const removeHandler = io.onInterrupt?.(() => {
    stopping = true;
    io.err("\ninterrupt: finishing the episodes in flight, then stopping\n");
  });
  const writer = new RunWriter(options.out);
  const clock = () => performance.now();
  let result;
  try {
    result = await runMatrix(
      {
        episodes: pending,
        agent,
        catalogs: new Map(loaded.catalogs.map((c) => [c.size, c.catalog])),
        manifest,
        settings: { maxTurns: protocol.agent_loop.max_turns, systemPrompt, incompleteMessage: protocol.agent_loop.incomplete_task_message, requestMoreTools: protocol.agent_loop.request_more_tools_token },
        tokens: new TurnTokenCounter(counter),
        metadata,
        shard: options.shard ? `${options.shard.index}/${options.shard.count}` : null,
        concurrency: options.concurrency,
      },
      { now: () => new Date(), clock, append: (r) => writer.append(r), progress: progressReporter(io, `run ${options.out}`, clock), shouldStop: () => stopping },
    );
  } finally {
    writer.close();
    removeHandler?.();
  }
  const summary = { ok: !result.stopped, out: options.out, planned: episodes.length, skipped: resume.done.size, written: result.finished, errors: result.errors, stopped: result.stopped };
  if (options.json) printJson(io, summary);
  else io.out(`${options.out}: ${result.finished} episode(s) written, ${resume.done.size} already finished, ${result.errors} infrastructure error(s)\n`);
  if (result.stopped) {
    io.err(`stopped early; continue with the same command and --resume\n`);
    return 130;
  }
  return EXIT.ok;
}

/** The tasks the selection covers before sharding: their count and the hash of their sorted ids. */
function selectedTasks(tasks: readonly Task[], plan: Plan, selection: Parameters<typeof planEpisodes>[2]) {
  const ids = [...new Set(planEpisodes(tasks, plan, { ...selection, trials: 1 }, null).map((e) => e.semantic_task_id))].sort(compareCodePoints);
  return { task_count: ids.length, task_ids_sha256: canonicalSha256(ids) };
}
