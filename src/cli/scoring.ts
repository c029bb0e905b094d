/** `fabench score`, `fabench gate` and `fabench report`: from run files to the summary, the verdict and the report. */
import { type Command, Option } from "commander";
import type { report } from "../commands/scoring/report.ts";
import type { score } from "../commands/scoring/score.ts";
import {
  allowLiveFileOption,
  catalogsOption,
  conveyorOption,
  corpusOption,
  jsonOption,
  pilotOption,
  planOption,
  protocolOption,
  runFiles,
  runsOption,
  type Registrar,
} from "./options.ts";

import { useSummaryProtocol } from "./summary-protocol.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadReport = () => import("../commands/scoring/report.ts");
const loadScore = () => import("../commands/scoring/score.ts");

export function registerScoring(program: Command, r: Registrar): void {
  program
    .command("score")
    .description(
      "Rescore run files, aggregate, bootstrap, and gate: writes the summary a product decision rests on.",
    )
    .argument("[runs...]", "run files (several are merged; or give each with --runs)")
    .addOption(runsOption())
    .addOption(corpusOption())
    .option("--out <file>", "summary file (default: results/<first run>.summary.json)")
    .addOption(
      new Option("--rng <name>", "bootstrap draws").choices(["seedrandom", "python"]).default("seedrandom"),
    )
    .option(
      "--allow-incomplete",
      "accept an incomplete run set (the summary says so and the gate cannot pass)",
      false,
    )
    .option(
      "--allow-mixed-models",
      "score runs whose provider reported more than one model (the summary lists them)",
      false,
    )
    .option(
      "--judgments <files...>",
      "judgments files from `fabench judge run` (adds the summary's secondary judge section; it never moves the gate)",
    )
    .addOption(allowLiveFileOption())
    .addOption(conveyorOption())
    .addOption(catalogsOption())
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (runs: string[], o: Omit<Parameters<typeof score>[0], "runs"> & { runs: string[] }) =>
      r.setExit(await (await loadScore()).score({ ...o, runs: runFiles(runs, o.runs) }, r.io)),
    );
  program
    .command("gate")
    .description(
      "Re-evaluate a summary's gate against the current conveyor state: exit 0 PASS, 1 FAIL, 3 BLOCKED.",
    )
    .argument("<summary>", "summary file")
    .addOption(conveyorOption())
    .addOption(protocolOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .hook("preAction", (command) => useSummaryProtocol(command, command.args[0]))
    .action(async (summary: string, o: { conveyor: string; protocol: string; json: boolean }) =>
      r.setExit(await (await loadScore()).gate({ ...o, summary }, r.io)),
    );
  registerReport(program, r);
}

/** `fabench report`: the summary as a page, each episode opened from the run files, corpus and manifest. */
function registerReport(program: Command, r: Registrar): void {
  program
    .command("report")
    .description("Render a summary as one self-contained static HTML page (or Markdown for a pull request).")
    .argument("<summary>", "summary file")
    // Repeatable rather than variadic, so `report --runs a.jsonl summary.json` keeps its summary.
    .addOption(runsOption("to show each episode's trajectory and final answer"))
    .option("--out <file>", "output file (default: next to the summary)")
    .option(
      "--coverage <file>",
      "a `fabench simulate coverage --json` output, shown as the coverage footnote",
    )
    .addOption(allowLiveFileOption())
    .addOption(new Option("--format <f>", "html or md").choices(["html", "md"]).default("html"))
    .addOption(protocolOption("the one the summary was scored under"))
    // No default value: a file the user (or --pilot) names must be the one the summary was scored
    // from, while the bundled one is used only when it is (report-sources.ts).
    .addOption(
      new Option(
        "--corpus <file>",
        "corpus file (the one the summary was scored from, for each episode's request and gold facts) (default: the bundled one, if the summary was scored from it)",
      ),
    )
    .addOption(
      new Option(
        "--manifest <file>",
        "frozen condition manifest (the one the run replayed, for each episode's routes and router ranks) (default: the bundled one, if the summary was scored from it)",
      ),
    )
    .addOption(pilotOption())
    .addOption(jsonOption())
    .hook("preAction", (command) => useSummaryProtocol(command, command.args[0]))
    .action(async (summary: string, o: Omit<Parameters<typeof report>[0], "summary">) =>
      r.setExit(await (await loadReport()).report({ ...o, summary }, r.io)),
    );
}
