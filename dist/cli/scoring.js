/** `fabench score`, `fabench gate` and `fabench report`: from run files to the summary, the verdict and the report. */
import { Option } from "commander";
import { report } from "../commands/report.js";
import { gate, score } from "../commands/score.js";
import { DEFAULTS } from "./options.js";
export function registerScoring(program, r) {
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
        .action(async (runs, o) => r.setExit(await score({ ...o, runs }, r.io)));
    program
        .command("gate")
        .description("Re-evaluate a summary's gate against the current conveyor state: exit 0 PASS, 1 FAIL, 3 BLOCKED.")
        .argument("<summary>", "summary file")
        .option("--conveyor <file>", "prerequisite state", DEFAULTS.conveyor)
        .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
        .option("--json", "print one JSON object", false)
        .action((summary, o) => r.setExit(gate({ ...o, summary }, r.io)));
    program
        .command("report")
        .description("Render a summary as one self-contained static HTML page (or Markdown for a pull request).")
        .argument("<summary>", "summary file")
        .option("--runs <files...>", "run files, to show each episode's final answer", [])
        .option("--out <file>", "output file (default: next to the summary)")
        .option("--coverage <file>", "a `fabench simulate coverage --json` output, shown as the coverage footnote")
        .addOption(new Option("--format <f>", "html or md").choices(["html", "md"]).default("html"))
        .option("--protocol <path>", "the protocol the summary was scored under", DEFAULTS.protocol)
        .option("--json", "print one JSON object", false)
        .action((summary, o) => r.setExit(report({ ...o, summary }, r.io)));
}
