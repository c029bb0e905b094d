/** `fabench run` and `fabench runs`: replaying the benchmark to an agent, and run files. */
import { type Command, Option } from "commander";
import { DEFAULT_BREAKER } from "../core/circuit-breaker.ts";
import { usageError } from "../core/index.ts";
import type { run } from "../commands/run/run.ts";
import { exitOnInterrupt } from "../commands/shell/interrupt.ts";
import { LANES, PROBES } from "../conditions/agents/lanes.ts";
import { DEFAULT_TOKENIZER, TOKENIZERS } from "../conditions/execution/tokens.ts";
import { PROGRESSIVE_TRIGGERS } from "../conditions/execution/widening.ts";
import { parseShard } from "../conditions/runner/episodes.ts";
import {
  catalogSizesOption,
  catalogsOption,
  conveyorOption,
  corpusOption,
  deprecatedAlias,
  group,
  allowLiveFileOption,
  jsonOption,
  pilotOption,
  list,
  manifestOption,
  planOption,
  nonNegativeInt,
  positiveInt,
  protocolOption,
  runFiles,
  runsOption,
  type Registrar,
} from "./options.ts";
import {
  commandAgentOptions,
  connectionOptions,
  toolSearchOptions,
  reliabilityOptions,
  samplingOptions,
  spendingOptions,
  withOptions,
} from "./model-options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadRun = () => import("../commands/run/run.ts");
const loadRuns = () => import("../commands/run/runs.ts");

/** One line per probe agent under run's options: deterministic like reference, no model, no lock. */
function probeHelp(): string {
  const width = Math.max(...Object.keys(PROBES).map((n) => `probe:${n}`.length));
  const lines = Object.entries(PROBES).map(([name, text]) => `  ${`probe:${name}`.padEnd(width)}  ${text}`);
  return `\nProbe agents (deterministic like reference: no model, no lock; each has one flaw):\n${lines.join("\n")}\n`;
}

export function registerRun(program: Command, r: Registrar): void {
  registerRunCommand(program, r);
  registerRuns(program, r);
}

/** `fabench run`: the option groups in help order, then the action and the probe list. */
function registerRunCommand(program: Command, r: Registrar): void {
  const runCommand = program
    .command("run")
    .description("Replay the frozen evidence to an agent under each condition; one JSON line per episode.");
  addEpisodeOptions(runCommand);
  addModelOptions(runCommand);
  addBatchOptions(runCommand);
  runCommand
    .option("--tokenizer <name>", TOKENIZERS.join(" or "), DEFAULT_TOKENIZER)
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async ({
        manifest,
        condition,
        catalogSize,
        task,
        ...o
      }: Omit<Parameters<typeof run>[0], "env" | "conditionsManifest" | "conditions" | "catalogSizes" | "tasks"> & {
        manifest: string;
        condition?: string[];
        catalogSize?: number[];
        task?: string;
      }) => {
        // Loading the command takes a moment; an interrupt meanwhile exits at once, as in its setup.
        const loading = exitOnInterrupt(r.io, "before the first episode");
        const loaded = await loadRun();
        loading.remove(); // run's first step installs the same handler
        const selection = {
          ...(condition === undefined ? {} : { conditions: condition }),
          ...(catalogSize === undefined ? {} : { catalogSizes: catalogSize }),
          ...(task === undefined ? {} : { tasks: task }),
        };
        r.setExit(
          await loaded.run({ ...o, ...selection, conditionsManifest: manifest, env: r.io.env ?? {} }, r.io),
        );
      },
    );
  deprecatedAlias(runCommand, "--conditions-manifest", "--manifest");
  deprecatedAlias(runCommand, "--conditions", "--condition");
  deprecatedAlias(runCommand, "--catalog-sizes", "--catalog-size");
  deprecatedAlias(runCommand, "--tasks", "--task");
  runCommand.addHelpText("after", probeHelp());
}

/** Which episodes run and when the run stops early: the agent, inputs, selection, resume, breaker. */
function addEpisodeOptions(runCommand: Command): void {
  runCommand
    .requiredOption(
      "--agent <spec>",
      "reference, probe:NAME (a built-in agent with one flaw, listed below), careful-reader (gold-free heuristic), anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH",
    )
    .option("--out <file>", "run file (JSON Lines); required unless --estimate")
    .addOption(corpusOption())
    .addOption(catalogsOption())
    .addOption(manifestOption())
    .addOption(conveyorOption("model agents refuse while it is unmet"))
    .option("--trials <n>", "trials per task × catalog × condition", positiveInt("--trials"), 1)
    .option("--condition <list>", "only these conditions, comma-separated (default: all)", list)
    .addOption(catalogSizesOption())
    .option("--task <glob>", "only task ids matching this glob (* and ?)")
    .option("--shard <i/n>", "run only shard I of N (whole stratum × language cells)", parseShard)
    .option("--concurrency <n>", "episodes in flight", positiveInt("--concurrency"), 1)
    .addOption(
      new Option(
        "--progressive-trigger <t>",
        "what widens SR-PROGRESSIVE: observable (a request for more tools, a call to a hidden route) or gold (the origin harness's trigger, reads the gold: recorded, labelled, never gated)",
      )
        .choices([...PROGRESSIVE_TRIGGERS])
        .default("observable"),
    )
    .option("--resume", "continue an interrupted run file", false)
    .option("--retry-errors", "with --resume: run error-coded episodes again", false)
    .option(
      "--max-errors <n>",
      "stop early after this many infrastructure errors",
      positiveInt("--max-errors"),
    )
    .option(
      "--breaker <n>",
      "stop after this many infrastructure errors in a row with the same code (0: never)",
      nonNegativeInt("--breaker"),
      DEFAULT_BREAKER,
    );
}

/** How a model agent is called: spending, connection, protocol, lane, sampling, reliability. */
function addModelOptions(runCommand: Command): void {
  withOptions(runCommand, spendingOptions(), connectionOptions(), toolSearchOptions());
  runCommand
    .addOption(
      new Option("--tool-protocol <p>", "native tool calls, or a text protocol")
        .choices(["native", "text"])
        .default("native"),
    )
    .addOption(new Option("--lane <lane>", "model lane").choices([...LANES]).default("configured-model"))
    .option("--model-revision <rev>", "immutable provider revision (required by --lane pinned-model)");
  withOptions(runCommand, samplingOptions());
  runCommand
    .option("--seed <n>", "sampling seed, where the provider has one", positiveInt("--seed"))
    .option("--no-prompt-cache", "turn off Anthropic prompt caching of the system prompt and tools");
  withOptions(runCommand, reliabilityOptions(), commandAgentOptions());
}

/** Batch APIs: every pending episode advances one turn per batch. */
function addBatchOptions(runCommand: Command): void {
  runCommand
    .option(
      "--batch",
      "Anthropic Message Batches / OpenAI Batch API: every pending episode advances one turn per batch",
      false,
    )
    .option(
      "--batch-poll-ms <ms>",
      "how often to poll a running batch",
      positiveInt("--batch-poll-ms"),
      30_000,
    )
    .option(
      "--batch-resubmit",
      "on resume, send again the requests of a batch submission whose acceptance is unknown (may pay twice)",
      false,
    );
}

/** `fabench runs merge|dedupe`: run files. */
function registerRuns(program: Command, r: Registrar): void {
  const runs = group(program, "runs", "Run files: merge shards, drop duplicate episodes.");
  runs
    .command("merge")
    .description("Merge run files (shards) into one, checking metadata, duplicates and completeness.")
    .argument("[files...]", "run files (or give each with --runs)")
    .addOption(runsOption())
    .requiredOption("--out <file>", "merged run file")
    .option(
      "--allow-incomplete",
      "accept an incomplete run set (write even when episodes of the selection are missing)",
      false,
    )
    .addOption(allowLiveFileOption())
    .addOption(jsonOption())
    .action(
      async (
        files: string[],
        {
          runs,
          ...o
        }: { runs: string[]; out: string; allowIncomplete: boolean; allowLiveFile: boolean; json: boolean },
      ) => r.setExit(await (await loadRuns()).runsMerge({ files: runFiles(files, runs), ...o }, r.io)),
    );
  runs
    .command("dedupe")
    .description(
      "Keep the first complete record of each episode of a run file two writers appended to at once; report what was dropped.",
    )
    .argument("[file]", "run file (or give it with --runs)")
    .addOption(runsOption())
    .requiredOption("--out <file>", "deduplicated run file")
    .addOption(allowLiveFileOption())
    .addOption(jsonOption())
    .action(
      async (
        file: string | undefined,
        { runs, ...o }: { runs: string[]; out: string; allowLiveFile: boolean; json: boolean },
      ) => {
        const files = runFiles(file === undefined ? [] : [file], runs);
        if (files.length > 1)
          throw usageError("one_run_file", `runs dedupe reads one run file, not ${files.length}`);
        r.setExit(await (await loadRuns()).runsDedupe({ file: files[0] as string, ...o }, r.io));
      },
    );
}
