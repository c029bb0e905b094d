/** `fabench compare`: two summaries of the same world, B − A per condition with paired intervals. */
import { type Command, Option } from "commander";
import type { compare } from "../commands/compare.ts";
import { positiveInt, collect, jsonOption, pilotOption, protocolOption, type Registrar } from "./options.ts";
import { useSummaryProtocol } from "./summary-protocol.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas.
const loadCompare = () => import("../commands/compare.ts");

export function registerCompare(program: Command, r: Registrar): void {
  program
    .command("compare")
    .description(
      "Compare two summaries of the same protocol, plan, corpus and catalogs (two routers, models or prompts): B − A per condition and catalog size with the summary's paired bootstrap intervals. A comparison, not a gate.",
    )
    .argument("<a>", "summary A (the reference side)")
    .argument("<b>", "summary B (the side compared with A)")
    .option("--out <file>", "the comparison as one self-contained HTML page")
    .addOption(
      new Option(
        "--manifest <file>",
        "frozen condition manifest (repeatable: each run's, matched to its summary by hash, to show both routers' ranks of the required routes)",
      )
        .argParser(collect)
        .default([]),
    )
    .addOption(
      new Option(
        "--catalog-size <n>",
        "only this catalog size (the text shows its tables instead of the pooled ones)",
      ).argParser(positiveInt("--catalog-size")),
    )
    .addOption(protocolOption("the one the summaries were scored under"))
    .addOption(pilotOption())
    .addOption(jsonOption())
    // A pilot's summary names its protocol file: compare finds it as gate and report do.
    .hook("preAction", (command) => useSummaryProtocol(command, command.args[0]))
    .action(async (a: string, b: string, o: Omit<Parameters<typeof compare>[0], "a" | "b">) =>
      r.setExit(await (await loadCompare()).compare({ ...o, a, b }, r.io)),
    );
}
