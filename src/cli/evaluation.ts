/** Commands of the evaluation stages: envelope, conditions, run, runs. */
import type { Command } from "commander";
import { conveyorRecord, conveyorStatus } from "../commands/conveyor.ts";
import { conditionsFreeze, conditionsShow, parseCatalogSize } from "../commands/conditions.ts";
import { envelopeSchemaCommand, envelopeScore } from "../commands/envelope.ts";
import { run } from "../commands/run.ts";
import { runsMerge } from "../commands/runs.ts";
import { parseShard } from "../conditions/index.ts";
import { collect, DEFAULTS, group, list, positiveInt, type Registrar } from "./options.ts";

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
    .requiredOption("--agent <spec>", "reference")
    .requiredOption("--out <file>", "run file (JSON Lines)")
    .option("--corpus <file>", "corpus file", DEFAULTS.corpus)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--conditions-manifest <file>", "frozen condition manifest", DEFAULTS.conditionManifest)
    .option("--trials <n>", "trials per task × catalog × condition", positiveInt("--trials"), 1)
    .option("--conditions <list>", "comma-separated conditions (default: all)", list)
    .option("--catalog-sizes <list>", "comma-separated catalog sizes (default: all)", (t: string) => list(t).map(positiveInt("--catalog-sizes")))
    .option("--tasks <glob>", "only task ids matching this glob (* and ?)")
    .option("--shard <i/n>", "run only shard I of N (whole stratum × language cells)", parseShard)
    .option("--concurrency <n>", "episodes in flight", positiveInt("--concurrency"), 1)
    .option("--resume", "continue an interrupted run file", false)
    .option("--tokenizer <name>", "o200k_base or cl100k_base", "o200k_base")
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (o: Parameters<typeof run>[0]) => r.setExit(await run(o, r.io)));

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
}
