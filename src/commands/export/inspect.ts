/** `fabench export inspect`: a scored run as one Inspect AI eval log (JSON), one sample per episode. */
import { checkOutput, writeFileAtomic } from "../../core/index.ts";
import { inspectLog } from "../../export/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { type ExportOptions, inputPaths, readExportInputs } from "./inputs.ts";

export function exportInspect(options: ExportOptions, io: CliIo): number {
  checkOutput(options.out, { inputs: inputPaths(options) });
  const log = inspectLog(readExportInputs(options, io, "export"));
  writeFileAtomic(options.out, `${JSON.stringify(log)}\n`);
  const summary = {
    out: options.out,
    samples: log.samples.length,
    task: log.eval.task,
    model: log.eval.model,
  };
  if (options.json) printJson(io, summary);
  else
    io.out(
      `wrote ${options.out}: ${summary.samples} sample(s) of ${summary.task} (model ${summary.model}); open it with \`inspect view\` or Inspect's log viewer\n`,
    );
  return EXIT.ok;
}
