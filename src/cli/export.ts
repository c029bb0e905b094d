/** `fabench export`: a scored run in formats other tools open (Inspect AI's log viewer, a dataframe). */
import type { Command } from "commander";
import type { ExportOptions } from "../commands/export/inputs.ts";
import {
  allowLiveFileOption,
  corpusOption,
  group,
  jsonOption,
  pilotOption,
  protocolOption,
  type Registrar,
  runFiles,
  runsOption,
} from "./options.ts";
import { useSummaryProtocol } from "./summary-protocol.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas.
const loadInspect = () => import("../commands/export/inspect.ts");
const loadCsv = () => import("../commands/export/csv.ts");

type Parsed = Omit<ExportOptions, "runs"> & { readonly runs: string[] };

/** The options both exports share: the run files, the summary holding their scores, the corpus, the protocol. */
function exportCommand(parent: Command, name: string, description: string, out: string): Command {
  return (
    parent
      .command(name)
      .description(description)
      .argument("[runs...]", "run files the summary was scored from (several are merged)")
      .addOption(runsOption("as the positional ones"))
      .requiredOption(
        "--summary <file>",
        "the summary `fabench score` wrote from these run files (the scores)",
      )
      .requiredOption("--out <file>", out)
      .addOption(corpusOption("the requests and gold facts; must be the one the run was made from"))
      .addOption(protocolOption("the one the summary was scored under; gives the system prompt"))
      .addOption(pilotOption())
      .addOption(allowLiveFileOption())
      .addOption(jsonOption())
      // A pilot's summary names its protocol file: the export finds the pilot (corpus, protocol) as report does.
      .hook("preAction", (command) => useSummaryProtocol(command, command.getOptionValue("summary")))
  );
}

export function registerExport(program: Command, r: Registrar): void {
  const exporting = group(
    program,
    "export",
    "Write a scored run in a format other tools open: an Inspect AI eval log, or CSV.",
  );
  exportCommand(
    exporting,
    "inspect",
    "One Inspect AI eval log (JSON): one sample per episode with its messages, tool calls, per-metric scores and metadata.",
    "the eval log (.json)",
  ).action(async (runs: string[], o: Parsed) =>
    r.setExit((await loadInspect()).exportInspect({ ...o, runs: runFiles(runs, o.runs) }, r.io)),
  );
  exportCommand(
    exporting,
    "csv",
    "One CSV row per episode (RFC 4180): identity, status, every metric, agent, model and router.",
    "the CSV file",
  ).action(async (runs: string[], o: Parsed) =>
    r.setExit((await loadCsv()).exportCsv({ ...o, runs: runFiles(runs, o.runs) }, r.io)),
  );
}
