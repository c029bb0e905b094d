/** `fabench judge`: the optional secondary judge of final answers — running it, and how two judgings agree. */
import { type Command } from "commander";
import { DEFAULT_BREAKER } from "../core/circuit-breaker.ts";
import type { judgeAgreement } from "../commands/judge/agreement.ts";
import type { judgeRun } from "../commands/judge/run.ts";
import {
  catalogsOption,
  corpusOption,
  group,
  allowLiveFileOption,
  jsonOption,
  nonNegativeInt,
  planOption,
  positiveInt,
  pilotOption,
  protocolOption,
  runFiles,
  runsOption,
  type Registrar,
} from "./options.ts";
import {
  commandAgentOptions,
  connectionOptions,
  reliabilityOptions,
  samplingOptions,
  spendingOptions,
  withOptions,
} from "./model-options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadJudgeRun = () => import("../commands/judge/run.ts");
const loadJudgeAgreement = () => import("../commands/judge/agreement.ts");

export function registerJudge(program: Command, r: Registrar): void {
  const judge = group(
    program,
    "judge",
    "The optional secondary judge: rates each answer's coherence and completeness, condition-blinded; never part of the gate.",
  );
  const run = judge
    .command("run")
    .description(
      "Rate the final answers run files hold with a model judge, blinded to condition, catalog and route names; one JSON line per episode. The prerequisite lock does not apply: the answers already exist, nothing is inferred.",
    )
    .argument("[runs...]", "run files (several are merged; or give each with --runs)")
    .addOption(runsOption())
    .requiredOption(
      "--judge <spec>",
      "anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH",
    )
    .option("--out <file>", "judgments file (JSON Lines); required unless --estimate")
    .addOption(corpusOption())
    .addOption(catalogsOption("the run's: their route names are blinded"))
    .addOption(protocolOption("names the frozen judge prompt and its SHA-256"))
    .addOption(planOption())
    .addOption(pilotOption())
    .option("--concurrency <n>", "episodes in flight", positiveInt("--concurrency"), 1)
    .option("--resume", "continue an interrupted run file (here: the judgments file)", false)
    .option(
      "--retry-errors",
      "with --resume: run error-coded episodes again (here: send their judge requests again)",
      false,
    )
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
    )
    .option(
      "--seed <n>",
      "seed of the order episodes are judged in (default: the protocol's statistics.seed)",
      nonNegativeInt("--seed"),
    )
    .addOption(allowLiveFileOption());
  withOptions(
    run,
    spendingOptions(),
    connectionOptions(),
    samplingOptions(),
    reliabilityOptions(),
    commandAgentOptions(),
  )
    .addOption(jsonOption())
    .action(
      async (runs: string[], o: Omit<Parameters<typeof judgeRun>[0], "runs" | "env"> & { runs: string[] }) =>
        r.setExit(
          await (await loadJudgeRun()).judgeRun(
            { ...o, runs: runFiles(runs, o.runs), env: r.io.env ?? {} },
            r.io,
          ),
        ),
    );
  registerAgreement(judge, r);
}

/** `judge agreement`: how far two judgments files agree. */
function registerAgreement(judge: Command, r: Registrar): void {
  judge
    .command("agreement")
    .description(
      "How far two judgments files agree on the answers both rated: per dimension, weighted kappa, Spearman's rho, exact agreement.",
    )
    .argument("<a>", "judgments file")
    .argument("<b>", "judgments file")
    .addOption(protocolOption("the protocol both were judged under"))
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (a: string, b: string, o: { json: boolean; protocol: string }) => {
      const options: Parameters<typeof judgeAgreement>[0] = {
        files: [a, b],
        json: o.json,
        protocol: o.protocol,
      };
      r.setExit(await (await loadJudgeAgreement()).judgeAgreement(options, r.io));
    });
}
