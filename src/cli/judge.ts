/** `fabench judge`: the optional secondary judge of final answers — running it, and how two judgings agree. */
import { type Command, Option } from "commander";
import type { judgeAgreement } from "../commands/judge-agreement.ts";
import type { judgeRun } from "../commands/judge-run.ts";
import {
  catalogsOption,
  collect,
  corpusOption,
  group,
  jsonOption,
  nonNegative,
  nonNegativeInt,
  planOption,
  positiveInt,
  pilotOption,
  protocolOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadJudgeRun = () => import("../commands/judge-run.ts");
const loadJudgeAgreement = () => import("../commands/judge-agreement.ts");

/*
 * The provider and command-agent flags below mean what they mean for `fabench run` and carry its
 * descriptions word for word (test/cli/help-consistency.test.ts holds every command to that);
 * `run` declares its own inline, so they are written out here rather than shared.
 */

export function registerJudge(program: Command, r: Registrar): void {
  const judge = group(
    program,
    "judge",
    "The optional secondary judge: rates each answer's coherence and completeness, condition-blinded; never part of the gate.",
  );
  judge
    .command("run")
    .description(
      "Rate the final answers run files hold with a model judge, blinded to condition, catalog and route names; one JSON line per episode. The prerequisite lock does not apply: the answers already exist, nothing is inferred.",
    )
    .argument("<runs...>", "run files (several are merged)")
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
      "--seed <n>",
      "seed of the order episodes are judged in (default: the protocol's statistics.seed)",
      nonNegativeInt("--seed"),
    )
    .option("--estimate", "print episodes, model calls, tokens and cost without sending anything", false)
    .option("--prices <file>", "price table (USD per million input / cached input / output tokens per model)")
    .option(
      "--budget-usd <x>",
      "stop before the next request could take spending past X",
      nonNegative("--budget-usd"),
    )
    .option("--base-url <url>", "provider base URL (openai-compatible: include /v1)")
    .option(
      "--api-key-env <name>",
      "environment variable holding the API key (default: ANTHROPIC_API_KEY for anthropic:, OPENAI_API_KEY for openai:, none for openai-compatible:)",
    )
    .option(
      "--max-response-bytes <n>",
      "largest provider reply read; a larger one is an episode error (response_too_large)",
      positiveInt("--max-response-bytes"),
      1_000_000,
    )
    .addOption(new Option("--openai-api <api>", "OpenAI API").choices(["chat", "responses"]).default("chat"))
    .option("--temperature <t>", "sampling temperature", nonNegative("--temperature"), 0)
    .option(
      "--max-output-tokens <n>",
      "output allowance per model turn",
      positiveInt("--max-output-tokens"),
      2048,
    )
    .option(
      "--request-timeout <ms>",
      "time limit per provider request",
      positiveInt("--request-timeout"),
      120_000,
    )
    .option(
      "--max-retries <n>",
      "retries of a failed request (429, 5xx, time-outs, connection errors)",
      nonNegativeInt("--max-retries"),
      5,
    )
    .option(
      "--retry-base-delay <ms>",
      "first backoff delay, doubling per retry (Retry-After wins)",
      nonNegativeInt("--retry-base-delay"),
      1000,
    )
    .option("--rpm <n>", "requests per minute", positiveInt("--rpm"))
    .option("--tpm <n>", "tokens per minute", positiveInt("--tpm"))
    .option("--agent-arg <arg>", "argument for a command agent (repeatable)", collect, [])
    .option("--pass-env <name>", "environment variable a command agent may see (repeatable)", collect, [])
    .option(
      "--agent-timeout <ms>",
      "time limit per command-agent turn",
      positiveInt("--agent-timeout"),
      120_000,
    )
    .addOption(jsonOption())
    .action(async (runs: string[], o: Omit<Parameters<typeof judgeRun>[0], "runs" | "env">) =>
      r.setExit(await (await loadJudgeRun()).judgeRun({ ...o, runs, env: r.io.env ?? {} }, r.io)),
    );
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
