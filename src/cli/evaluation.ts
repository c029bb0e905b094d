/** Commands of the evaluation stages: envelope, conditions, run, runs. */
import { type Command, Option } from "commander";
import { conveyorRecord, conveyorStatus } from "../commands/conveyor.ts";
import { conditionsFreeze, conditionsShow, parseCatalogSize } from "../commands/conditions.ts";
import { envelopeSchemaCommand, envelopeScore } from "../commands/envelope.ts";
import { run } from "../commands/run.ts";
import { runsMerge } from "../commands/runs.ts";
import { report } from "../commands/report.ts";
import { gate, score } from "../commands/score.ts";
import { power, simulateCoverage } from "../commands/simulate.ts";
import { LANES, parseShard } from "../conditions/index.ts";
import { METHODS } from "../metrics/index.ts";
import { collect, DEFAULTS, group, list, nonNegative, nonNegativeInt, positiveInt, type Registrar } from "./options.ts";

export function registerEvaluation(program: Command, r: Registrar): void {
  const envelope = group(program, "envelope", "The final-answer envelope: its schema, and scoring one answer.");
  envelope
    .command("schema")
    .description("Print the envelope's JSON Schema (for providers' structured output).")
    .action(() => r.setExit(envelopeSchemaCommand(r.io)));
  envelope
    .command("score")
    .description("Score one agent's final text for one task: every metric, and the verdict and reason for every fact.")
    .argument("[envelope]", "file with the agent's final text, or - for standard input", "-")
    .requiredOption("--corpus <file>", "any file of tasks in the content format")
    .requiredOption("--task <id>", "semantic_task_id of the task")
    .option("--json", "print one JSON object", false)
    .action(async (file: string, o: { corpus: string; task: string; json: boolean }) => r.setExit(await envelopeScore({ ...o, envelope: file }, r.io)));

  const conditions = group(program, "conditions", "The frozen condition manifest: what each condition shows for each task.");
  conditions
    .command("freeze")
    .description("Rank every catalog for every task with a router, and freeze each condition's visible routes.")
    .option("--corpus <file>", "corpus file", DEFAULTS.corpus)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--router <spec>", "keyword, command:PATH or http:URL", "keyword")
    .option("--router-arg <arg>", "argument for a command router (repeatable)", collect, [])
    .option("--router-timeout <ms>", "time limit per router call", positiveInt("--router-timeout"), 30_000)
    .option("--out <path>", "manifest to write", DEFAULTS.conditionManifest)
    .option("--check", "freeze again and exit 1 when --out differs; write nothing", false)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (o: { corpus: string; catalogs: string; router: string; routerArg: string[]; routerTimeout: number; out: string; check: boolean; protocol: string; plan: string; json: boolean }) =>
      r.setExit(await conditionsFreeze({ ...o, routerArgs: o.routerArg, routerTimeoutMs: o.routerTimeout }, r.io)),
    );
  conditions
    .command("show")
    .description("Print the visible routes of each condition for one task, and where each required route ranked.")
    .requiredOption("--task <id>", "semantic_task_id")
    .option("--catalog <size>", "only this catalog size", parseCatalogSize)
    .option("--manifest <path>", "condition manifest", DEFAULTS.conditionManifest)
    .option("--json", "print one JSON object", false)
    .action((o: { task: string; catalog?: number; manifest: string; json: boolean }) => r.setExit(conditionsShow(o, r.io)));

  program
    .command("run")
    .description("Replay the frozen evidence to an agent under each condition; one JSON line per episode.")
    .requiredOption("--agent <spec>", "reference, anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH")
    .option("--out <file>", "run file (JSON Lines); required unless --estimate")
    .option("--corpus <file>", "corpus file", DEFAULTS.corpus)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--conditions-manifest <file>", "frozen condition manifest", DEFAULTS.conditionManifest)
    .option("--conveyor <file>", "prerequisite state (model agents refuse while it is unmet)", DEFAULTS.conveyor)
    .option("--trials <n>", "trials per task × catalog × condition", positiveInt("--trials"), 1)
    .option("--conditions <list>", "comma-separated conditions (default: all)", list)
    .option("--catalog-sizes <list>", "comma-separated catalog sizes (default: all)", (t: string) => list(t).map(positiveInt("--catalog-sizes")))
    .option("--tasks <glob>", "only task ids matching this glob (* and ?)")
    .option("--shard <i/n>", "run only shard I of N (whole stratum × language cells)", parseShard)
    .option("--concurrency <n>", "episodes in flight", positiveInt("--concurrency"), 1)
    .option("--resume", "continue an interrupted run file", false)
    .option("--retry-errors", "with --resume: run error-coded episodes again", false)
    .option("--max-errors <n>", "stop early after this many infrastructure errors", positiveInt("--max-errors"))
    .option("--estimate", "print episodes, model calls, tokens and cost without sending anything", false)
    .option("--prices <file>", "price table (USD per million input / cached input / output tokens per model)")
    .option("--budget-usd <x>", "stop before the next request could take spending past X", nonNegative("--budget-usd"))
    .option("--base-url <url>", "provider base URL (openai-compatible: include /v1)")
    .addOption(new Option("--tool-protocol <p>", "native tool calls, or a text protocol").choices(["native", "text"]).default("native"))
    .addOption(new Option("--openai-api <api>", "OpenAI API").choices(["chat", "responses"]).default("chat"))
    .addOption(new Option("--lane <lane>", "model lane").choices([...LANES]).default("configured-model"))
    .option("--model-revision <rev>", "immutable provider revision (required by --lane pinned-model)")
    .option("--temperature <t>", "sampling temperature", nonNegative("--temperature"), 0)
    .option("--max-output-tokens <n>", "output allowance per model turn", positiveInt("--max-output-tokens"), 2048)
    .option("--seed <n>", "sampling seed, where the provider has one", positiveInt("--seed"))
    .option("--no-prompt-cache", "turn off Anthropic prompt caching of the system prompt and tools")
    .option("--request-timeout <ms>", "time limit per provider request", positiveInt("--request-timeout"), 120_000)
    .option("--max-retries <n>", "retries of a failed request (429, 5xx, time-outs, connection errors)", nonNegativeInt("--max-retries"), 5)
    .option("--retry-base-delay <ms>", "first backoff delay, doubling per retry (Retry-After wins)", nonNegativeInt("--retry-base-delay"), 1000)
    .option("--rpm <n>", "requests per minute", positiveInt("--rpm"))
    .option("--tpm <n>", "tokens per minute", positiveInt("--tpm"))
    .option("--agent-arg <arg>", "argument for a command agent (repeatable)", collect, [])
    .option("--pass-env <name>", "environment variable a command agent may see (repeatable)", collect, [])
    .option("--agent-timeout <ms>", "time limit per command-agent turn", positiveInt("--agent-timeout"), 120_000)
    .option("--batch", "Anthropic Message Batches / OpenAI Batch API: every pending episode advances one turn per batch", false)
    .option("--batch-poll-ms <ms>", "how often to poll a running batch", positiveInt("--batch-poll-ms"), 30_000)
    .option("--batch-resubmit", "on resume, send again the requests of a batch submission whose acceptance is unknown (may pay twice)", false)
    .option("--tokenizer <name>", "o200k_base or cl100k_base", "o200k_base")
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (o: Omit<Parameters<typeof run>[0], "env">) => r.setExit(await run({ ...o, env: process.env }, r.io)));

  const runs = group(program, "runs", "Run files: merge shards.");
  runs
    .command("merge")
    .description("Merge run files (shards) into one, checking metadata, duplicates and completeness.")
    .argument("<files...>", "run files")
    .requiredOption("--out <file>", "merged run file")
    .option("--allow-incomplete", "write even when episodes of the selection are missing", false)
    .option("--json", "print one JSON object", false)
    .action((files: string[], o: { out: string; allowIncomplete: boolean; json: boolean }) => r.setExit(runsMerge({ files, ...o }, r.io)));

  const conveyor = group(program, "conveyor", "The prerequisite stages (#432 and what it needs) and their evidence.");
  conveyor
    .command("status")
    .description("Print the prerequisite chain and what each stage still lacks.")
    .option("--conveyor <file>", "conveyor state", DEFAULTS.conveyor)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--json", "print one JSON object", false)
    .action((o: { conveyor: string; protocol: string; json: boolean }) => r.setExit(conveyorStatus(o, r.io)));
  conveyor
    .command("record")
    .description("Record a stage's result (--state) or a frozen artifact it needs (--artifact-name), hashing the artifact itself.")
    .argument("<stage>", "stage id, e.g. #432")
    .option("--state <state>", "pending, running, succeeded or failed")
    .option("--artifact-name <name>", "a frozen artifact the stage needs, e.g. held_out_condition_manifest")
    .requiredOption("--artifact <file>", "the evidence file; its bytes are hashed")
    .requiredOption("--source-revision <sha>", "40-hex git revision that produced it")
    .option("--run-id <id>", "run identifier")
    .option("--conveyor <file>", "conveyor state", DEFAULTS.conveyor)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--json", "print one JSON object", false)
    .action((stage: string, o: Omit<Parameters<typeof conveyorRecord>[0], "stage">) => r.setExit(conveyorRecord({ ...o, stage }, r.io)));

  program
    .command("score")
    .description("Rescore run files, aggregate, bootstrap, and gate: writes the summary a product decision rests on.")
    .argument("<runs...>", "run files (several are merged)")
    .option("--corpus <file>", "corpus file", DEFAULTS.corpus)
    .option("--out <file>", "summary file (default results/<first run>.summary.json)")
    .addOption(new Option("--rng <name>", "bootstrap draws").choices(["seedrandom", "python"]).default("seedrandom"))
    .option("--allow-incomplete", "score an incomplete set (the summary says so and the gate cannot pass)", false)
    .option("--allow-mixed-models", "score runs whose provider reported more than one model (the summary lists them)", false)
    .option("--conveyor <file>", "prerequisite state", DEFAULTS.conveyor)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (runs: string[], o: Omit<Parameters<typeof score>[0], "runs">) => r.setExit(await score({ ...o, runs }, r.io)));
  program
    .command("gate")
    .description("Re-evaluate a summary's gate against the current conveyor state: exit 0 PASS, 1 FAIL, 3 BLOCKED.")
    .argument("<summary>", "summary file")
    .option("--conveyor <file>", "prerequisite state", DEFAULTS.conveyor)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--json", "print one JSON object", false)
    .action((summary: string, o: { conveyor: string; protocol: string; json: boolean }) => r.setExit(gate({ ...o, summary }, r.io)));
  program
    .command("report")
    .description("Render a summary as one self-contained static HTML page (or Markdown for a pull request).")
    .argument("<summary>", "summary file")
    .option("--runs <files...>", "run files, to show each episode's final answer", [])
    .option("--out <file>", "output file (default: next to the summary)")
    .option("--coverage <file>", "a `fabench simulate coverage --json` output, shown as the coverage footnote")
    .addOption(new Option("--format <f>", "html or md").choices(["html", "md"]).default("html"))
    .option("--json", "print one JSON object", false)
    .action((summary: string, o: Omit<Parameters<typeof report>[0], "summary">) => r.setExit(report({ ...o, summary }, r.io)));
  const simulate = group(program, "simulate", "Monte Carlo studies of the protocol's statistics.");
  simulate
    .command("coverage")
    .description("Coverage, width and margin pass rates of every interval method on the protocol's design, per scenario.")
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--scenarios <file>", "more scenarios ({\"scenarios\": [...]}) added to the built-in ones")
    .option("--datasets <n>", "datasets per scenario", positiveInt("--datasets"), 1000)
    .option("--iterations <b>", "bootstrap iterations per dataset", positiveInt("--iterations"), 1000)
    .option("--seed <s>", "simulation seed", nonNegativeInt("--seed"), 20260929)
    .option("--repeats <n>", "repeated measures per task (default: catalog sizes × 3 trials)", positiveInt("--repeats"))
    .option("--json", "print one JSON object", false)
    .action((o: Parameters<typeof simulateCoverage>[0]) => r.setExit(simulateCoverage(o, r.io)));
  program
    .command("power")
    .description("From pilot runs or a pilot summary: the chance the gate's interval rule passes at true delta 0 and −0.01, for this design and larger ones.")
    .option("--runs <files...>", "pilot run files, rescored here (their per-task deltas are the assumed population)", [])
    .option("--summary <file>", "pilot summary, instead of --runs")
    .option("--corpus <file>", "corpus file (with --runs)", DEFAULTS.corpus)
    .option("--catalogs <dir>", "folder of the catalog files (with --runs)", DEFAULTS.catalogs)
    .option("--plan <path>", "authoring plan (with --runs)", DEFAULTS.plan)
    .option("--condition <id>", "deployable condition (default: the first)")
    .option("--metric <name>", "metric whose delta is gated", "required_fact_recall")
    .option("--tasks-per-cell <list>", "designs to try", (t: string) => list(t).map(positiveInt("--tasks-per-cell")), [4, 6, 8, 12, 16])
    .option("--trials <list>", "trial counts to try (default: the pilot's)", (t: string) => list(t).map(positiveInt("--trials")))
    .option("--margin <m>", "the gate's margin (default 0.02)", nonNegative("--margin"))
    .addOption(new Option("--method <name>", "interval method (default: the protocol's gate_interval)").choices(METHODS))
    .option("--datasets <n>", "simulated datasets per design", positiveInt("--datasets"), 400)
    .option("--iterations <b>", "bootstrap iterations per dataset", positiveInt("--iterations"), 1000)
    .option("--seed <s>", "simulation seed", nonNegativeInt("--seed"), 20260929)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--json", "print one JSON object", false)
    .action(async (o: Parameters<typeof power>[0]) => r.setExit(await power(o, r.io)));
}
