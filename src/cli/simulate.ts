/** `fabench simulate` and `fabench power`: Monte Carlo studies of the protocol's statistics. */
import { type Command, Option } from "commander";
import type { power } from "../commands/simulate/power.ts";
import type { simulateCoverage } from "../commands/simulate/coverage.ts";
import { INTERVAL_METHODS } from "../authoring/interval-methods.ts";
import {
  allowLiveFileOption,
  catalogsOption,
  corpusOption,
  group,
  jsonOption,
  pilotOption,
  list,
  nonNegative,
  nonNegativeInt,
  planOption,
  positiveInt,
  protocolOption,
  runsOption,
  type Registrar,
} from "./options.ts";

import { useSummaryProtocol } from "./summary-protocol.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadPower = () => import("../commands/simulate/power.ts");
const loadSimulate = () => import("../commands/simulate/coverage.ts");

export function registerSimulate(program: Command, r: Registrar): void {
  const simulate = group(program, "simulate", "Monte Carlo studies of the protocol's statistics.");
  registerCoverage(simulate, r);
  registerPower(program, r);
}

/** `simulate coverage`: every interval method's coverage and margin pass rates on the design. */
function registerCoverage(simulate: Command, r: Registrar): void {
  simulate
    .command("coverage")
    .description(
      "Coverage, width and margin pass rates (at the truth, re-centred to −margin and to 0) of every interval method on the protocol's design, per scenario; --select applies the protocol's gate-interval rule.",
    )
    .addOption(protocolOption())
    .addOption(pilotOption())
    .option("--scenarios <file>", 'more scenarios ({"scenarios": [...]}) added to the built-in ones')
    .option(
      "--datasets <n>",
      "simulated datasets (per scenario) (default: 1000; with --select, the rule's min_datasets: fewer is refused, more is not the rule's run)",
      positiveInt("--datasets"),
    )
    .option(
      "--iterations <b>",
      "bootstrap iterations per dataset (default: 1000; with --select, the rule's)",
      positiveInt("--iterations"),
    )
    .option(
      "--seed <s>",
      "simulation seed (default: the protocol's bootstrap seed; with --select, the rule's)",
      nonNegativeInt("--seed"),
    )
    .option(
      "--repeats <n>",
      "repeated measures averaged into each simulated task's delta (one per catalog size × trial); the trial noise, a scenario's noise_sd, is divided by √n (default: the protocol's catalog sizes × 3 trials)",
      positiveInt("--repeats"),
    )
    .option(
      "--tasks-per-cell <n>",
      "tasks per cell of the simulated design (default: the protocol's tasks_per_cell)",
      positiveInt("--tasks-per-cell"),
    )
    .option(
      "--select",
      "apply the protocol's statistics.gate_interval_rule: every method on the rule's scenarios, with its datasets, iterations and seed; print each method's verdict per scenario and the method the rule picks",
    )
    .option(
      "--check-protocol",
      "run the selection and exit 1 unless the protocol's statistics.gate_interval is the rule's pick",
    )
    .addOption(jsonOption())
    .action(async (o: Parameters<typeof simulateCoverage>[0]) =>
      r.setExit(await (await loadSimulate()).simulateCoverage(o, r.io)),
    );
}

/** `fabench power`: from pilot runs or a summary, the chance the gate's interval rule passes. */
function registerPower(program: Command, r: Registrar): void {
  program
    .command("power")
    .description(
      "From pilot runs or a pilot summary: the chance the gate's interval rule passes at true delta 0 and −0.01 with each interval method, for this design and larger ones.",
    )
    .addOption(runsOption("pilot run files, rescored here: their per-task deltas are the assumed population"))
    .option("--summary <file>", "pilot summary, instead of --runs")
    .addOption(allowLiveFileOption())
    .addOption(corpusOption("with --runs"))
    .addOption(catalogsOption("with --runs"))
    .addOption(planOption("with --runs"))
    .option("--condition <id>", "deployable condition (default: the first)")
    .option("--metric <name>", "metric whose delta is gated", "required_fact_recall")
    .option(
      "--tasks-per-cell <list>",
      "designs to try",
      (t: string) => list(t).map(positiveInt("--tasks-per-cell")),
      [4, 6, 8, 12, 16],
    )
    .option("--trials <list>", "trial counts to try (default: the pilot's)", (t: string) =>
      list(t).map(positiveInt("--trials")),
    )
    .option(
      "--margin <m>",
      "the margin of the delta check (default: the protocol's threshold for --metric)",
      nonNegative("--margin"),
    )
    .addOption(
      new Option(
        "--method <name>",
        "interval method whose figures are marked and whose 80 % power line comes first; every method is shown (default: the protocol's gate_interval)",
      ).choices(INTERVAL_METHODS),
    )
    .option("--datasets <n>", "simulated datasets (per design)", positiveInt("--datasets"), 400)
    .option("--iterations <b>", "bootstrap iterations per dataset", positiveInt("--iterations"), 1000)
    .option(
      "--seed <s>",
      "simulation seed (default: the protocol's bootstrap seed)",
      nonNegativeInt("--seed"),
    )
    .addOption(protocolOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    // A pilot summary names its protocol, as for gate and report (#35).
    .hook("preAction", (command) =>
      useSummaryProtocol(command, command.getOptionValue("summary") as string | undefined),
    )
    .action(async (o: Parameters<typeof power>[0]) => r.setExit(await (await loadPower()).power(o, r.io)));
}
