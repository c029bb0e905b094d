/**
 * `fabench discover-call run|score|publish|validate`: the Discover → Call contract benchmark (issue
 * #17). Its outputs are `--out` like every other command's (#35); the reference implementation's
 * names (`--output`, `--output-runs`, `--output-summary`) still work as deprecated aliases, so its
 * documented command lines carry over.
 */
import { type Command, Option } from "commander";
import type { DiscoverCallRunOptions } from "../commands/discover-call/run.ts";
import type {
  DiscoverCallPublishOptions,
  DiscoverCallValidateOptions,
} from "../commands/discover-call/publish.ts";
import type { DiscoverCallExportOptions } from "../commands/discover-call/export.ts";
import type { DiscoverCallScoreOptions } from "../commands/discover-call/score.ts";
import {
  bundledOutOption,
  catalogsOption,
  collect,
  corpusOption,
  DEFAULTS,
  deprecatedAlias,
  group,
  pilotOption,
  jsonOption,
  positiveInt,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas or SDKs.
const loadRun = () => import("../commands/discover-call/run.ts");
const loadScore = () => import("../commands/discover-call/score.ts");

const loadPublish = () => import("../commands/discover-call/publish.ts");
const loadExport = () => import("../commands/discover-call/export.ts");

const LANE_NAMES = "reference, configured-model, pinned-model or current-model";

export function registerDiscoverCall(program: Command, r: Registrar): void {
  const discoverCall = group(
    program,
    "discover-call",
    "The Discover → Call contract benchmark: can an agent use discover → inspect → call correctly?",
  );
  registerRun(discoverCall, r);
  registerScore(discoverCall, r);
  registerPublish(discoverCall, r);
  registerExport(discoverCall, r);
  registerValidate(discoverCall, r);
}

/** `discover-call run`: every task × trial through the adapter; one raw record per trial. */
function registerRun(discoverCall: Command, r: Registrar): void {
  const run = discoverCall
    .command("run")
    .description(
      "Run every task × trial through discover, select, inspect, parameterize and (with --execute) call; one raw record per trial.",
    );
  addRecordIdentityOptions(run);
  addTrialBudgetOptions(run);
  run
    .requiredOption("--out <file>", "raw record file (JSON Lines; private: it holds parameters)")
    .option("--resume", "continue an interrupted run file", false)
    .option("--concurrency <n>", "trials in flight", positiveInt("--concurrency"), 1)
    .option(
      "--adapter-base-url <url>",
      "provider base URL of a built-in model adapter (openai-compatible: include /v1)",
    )
    .option(
      "--adapter-api-key-env <name>",
      "environment variable holding a built-in model adapter's provider key (default: ANTHROPIC_API_KEY for anthropic:, OPENAI_API_KEY for openai:)",
    )
    .addOption(new Option("--openai-api <api>", "OpenAI API").choices(["chat", "responses"]).default("chat"))
    .action(
      async ({
        out,
        ...o
      }: Omit<DiscoverCallRunOptions, "adapterArg" | "output"> & { adapterArg: string[]; out: string }) =>
        r.setExit(await (await loadRun()).discoverCallRun({ ...o, output: out }, r.io)),
    );
  deprecatedAlias(run, "--output", "--out");
}

/** What every record carries about who ran it: model, lane, tasks, adapter and the revisions. */
function addRecordIdentityOptions(run: Command): void {
  run
    .requiredOption("--model <name>", "model label every record carries (also sent with execute)")
    .requiredOption("--lane <lane>", `model lane (${LANE_NAMES})`)
    .requiredOption("--tasks <file>", "task set (JSON Lines)")
    .requiredOption(
      "--adapter <spec>",
      "adapter executable (protocol v1), or anthropic:MODEL, openai:MODEL, openai-compatible:MODEL",
    )
    .option("--adapter-arg <arg>", "argument for the adapter executable (repeatable)", collect, [])
    .option(
      "--pass-env <name>",
      "environment variable an adapter executable may see besides PATH, HOME, locale, TMPDIR, TZ (repeatable; e.g. its provider key)",
      collect,
      [],
    )
    .requiredOption("--adapter-revision <rev>", "immutable revision of the adapter's code and configuration")
    .option(
      "--model-revision <rev>",
      "immutable provider revision (required by --lane reference and pinned-model)",
    )
    .option(
      "--toolkit-revision <sha>",
      "commit SHA of this fabench, 40 or 64 hex (default: its git HEAD, from a clean checkout only)",
    );
}

/** How much a run does and how long it waits: trials, limits, time limits, the API and the breaker. */
function addTrialBudgetOptions(run: Command): void {
  run
    .option("--trials <n>", "trials per task", positiveInt("--trials"), 3)
    .option("--limit <n>", "discovery limit: results asked of discover", positiveInt("--limit"), 10)
    .option("--execute", "make the billed calls (without it: a dry run that stops before call)", false)
    .option(
      "--max-calls <n>",
      "at most N billed calls in this invocation; the run stops before a trial that could exceed it",
      positiveInt("--max-calls"),
    )
    .option(
      "--adapter-timeout-ms <ms>",
      "time limit per adapter stage",
      positiveInt("--adapter-timeout-ms"),
      120_000,
    )
    .option(
      "--base-url <url>",
      "Discover → Call API base URL (default: QVERIS_BASE_URL, else https://qveris.ai/api/v1)",
    )
    .option(
      "--request-timeout <ms>",
      "time limit per provider request (here each Discover → Call API request, headers and the whole body)",
      positiveInt("--request-timeout"),
      120_000,
    )
    .option(
      "--breaker <n>",
      "stop after this many infrastructure errors in a row with the same code (trials that fail at the API with no connection, a timeout, 429 or 5xx are not recorded, and --resume runs them)",
      positiveInt("--breaker"),
      3,
    );
}

/** `discover-call score`: the summary JSON of raw or public records. */
function registerScore(discoverCall: Command, r: Registrar): void {
  const score = discoverCall
    .command("score")
    .description("Score raw or public records against their task set: the summary JSON.")
    .requiredOption("--tasks <file>", "task set (JSON Lines)")
    .requiredOption("--runs <file>", "record file (JSON Lines, raw or public)")
    .option("--out <file>", "summary file (default: stdout)")
    .action(async ({ out, ...o }: Omit<DiscoverCallScoreOptions, "output"> & { out?: string }) =>
      r.setExit(
        (await loadScore()).discoverCallScore({ ...o, ...(out === undefined ? {} : { output: out }) }, r.io),
      ),
    );
  deprecatedAlias(score, "--output", "--out");
}

/** `discover-call publish`: raw records into public records and their summary. */
function registerPublish(discoverCall: Command, r: Registrar): void {
  const publish = discoverCall
    .command("publish")
    .description("Turn raw records into public records and their summary, written together.")
    .requiredOption("--tasks <file>", "task set (JSON Lines)")
    .requiredOption("--runs <file>", "raw record file (JSON Lines)")
    .requiredOption("--out-runs <file>", "public record file to write")
    .requiredOption("--out-summary <file>", "summary file to write")
    .option("--policy <file>", "publication policy (default: fabench's own)")
    .action(
      async ({
        outRuns,
        outSummary,
        ...o
      }: Omit<DiscoverCallPublishOptions, "outputRuns" | "outputSummary"> & {
        outRuns: string;
        outSummary: string;
      }) =>
        r.setExit(
          (await loadPublish()).discoverCallPublish(
            {
              ...o,
              outputRuns: outRuns,
              outputSummary: outSummary,
            },
            r.io,
          ),
        ),
    );
  deprecatedAlias(publish, "--output-runs", "--out-runs");
  deprecatedAlias(publish, "--output-summary", "--out-summary");
}

/** `discover-call export`: the #424 corpus as a discover-call task set. */
function registerExport(discoverCall: Command, r: Registrar): void {
  discoverCall
    .command("export")
    .description(
      "Write the #424 corpus as a discover-call task set: each task's first step, its eq rules as constraints, the reference route as the candidate.",
    )
    .addOption(corpusOption())
    .addOption(catalogsOption())
    .addOption(bundledOutOption("task set to write or check", DEFAULTS.discoverCallTasks))
    .option("--check", "export again and exit 1 when --out differs; write nothing", false)
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (o: DiscoverCallExportOptions) =>
      r.setExit((await loadExport()).discoverCallExport(o, r.io)),
    );
}

/** `discover-call validate`: public records and their summary against the task set and the policy. */
function registerValidate(discoverCall: Command, r: Registrar): void {
  discoverCall
    .command("validate")
    .description("Check public records and their summary against the task set and the publication policy.")
    .requiredOption("--tasks <file>", "task set (JSON Lines)")
    .requiredOption("--runs <file>", "public record file (JSON Lines)")
    .requiredOption("--summary <file>", "summary file")
    .option("--policy <file>", "publication policy (default: fabench's own)")
    .action(async (o: DiscoverCallValidateOptions) =>
      r.setExit((await loadPublish()).discoverCallValidate(o, r.io)),
    );
}
