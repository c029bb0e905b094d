/** `fabench export csv`: one row per scored episode, for a dataframe. */
import { checkOutput, writeFileAtomic } from "../../core/index.ts";
import { episodesCsv } from "../../export/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { type ExportOptions, inputPaths, readExportInputs } from "./inputs.ts";

export function exportCsv(options: ExportOptions, io: CliIo): number {
  checkOutput(options.out, { inputs: inputPaths(options) });
  const inputs = readExportInputs(options, io, "export");
  writeFileAtomic(options.out, episodesCsv(inputs.summary, inputs.records));
  const rows = inputs.summary.episode_scores.length;
  if (options.json) printJson(io, { out: options.out, rows });
  else io.out(`wrote ${options.out}: ${rows} row(s), one per episode, and a header\n`);
  return EXIT.ok;
}
