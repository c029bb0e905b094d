/** `fabench pilot init DIR`: a labelled pilot protocol and every file derived from it, under DIR. */
import type { Command } from "commander";
import type { pilotInit } from "../commands/pilot.ts";
import {
  authoredOption,
  catalogsOption,
  conveyorOption,
  corpusOption,
  group,
  jsonOption,
  protocolOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadPilot = () => import("../commands/pilot.ts");

export function registerPilot(program: Command, r: Registrar): void {
  const pilot = group(
    program,
    "pilot",
    "A pilot: answer inference before the prerequisite succeeds, for power and cost planning — never for the claim.",
  );
  pilot
    .command("init")
    .description(
      "Write a pilot protocol (the preregistered one without its prerequisite gate, labelled PILOT) and its plan, corpus, condition manifest and conveyor into a new folder; the frozen files are only read.",
    )
    .argument("<dir>", "new folder for the pilot's files")
    .addOption(protocolOption("the one the pilot is made from"))
    .addOption(corpusOption("its generator revision is kept"))
    .addOption(authoredOption())
    .addOption(catalogsOption())
    .addOption(conveyorOption("copied, relabelled for the pilot"))
    .option(
      "--with-search",
      "also declare the tool-search conditions SEARCH-BM25, SEARCH-REGEX, NATIVE-SEARCH-BM25 and NATIVE-SEARCH-REGEX (not preregistered)",
    )
    .addOption(jsonOption())
    .action(async (dir: string, o: Omit<Parameters<typeof pilotInit>[0], "dir">) =>
      r.setExit(await (await loadPilot()).pilotInit({ ...o, dir }, r.io)),
    );
}
