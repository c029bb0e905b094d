/** `fabench runs merge`: shards into one run file. */
import { mergeRuns, parseRunBytes } from "../conditions/runner/index.ts";
import { checkOutput, FabenchError, formatProblem, readBytes, writeFileAtomic } from "../core/index.ts";
import { EXIT, printJson, type CliIo } from "./io.ts";

export interface MergeOptions {
  readonly files: readonly string[];
  readonly out: string;
  readonly allowIncomplete: boolean;
  readonly json: boolean;
}

export function runsMerge(options: MergeOptions, io: CliIo): number {
  checkOutput(options.out, { inputs: options.files });
  const sources = options.files.map((file) => {
    const parsed = parseRunBytes(readBytes(file, "run"), file);
    if (parsed.tornBytes > 0)
      io.err(
        `${file}: ignoring a torn last line (${parsed.tornBytes} bytes); resume that run first to finish it\n`,
      );
    return { file, records: parsed.records, lines: parsed.lines };
  });
  const merged = mergeRuns(sources);
  if (merged.problems.length > 0)
    throw new FabenchError({
      kind: "validation",
      stage: "run",
      code: merged.problems[0]?.code ?? "merge_failed",
      message: "",
      problems: merged.problems,
    });
  const complete = merged.missing.length === 0;
  if (!complete && !options.allowIncomplete) {
    for (const key of merged.missing.slice(0, 20))
      io.err(`${formatProblem({ code: "missing_episode", message: key })}\n`);
    if (merged.missing.length > 20) io.err(`… and ${merged.missing.length - 20} more\n`);
    io.err(
      `${options.out}: not written: ${merged.missing.length} episode(s) missing; add --allow-incomplete to write anyway\n`,
    );
    return EXIT.failed;
  }
  writeFileAtomic(options.out, merged.records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  if (options.json)
    printJson(io, {
      ok: true,
      out: options.out,
      records: merged.records.length,
      complete,
      missing: merged.missing.length,
    });
  else
    io.out(
      `wrote ${options.out}: ${merged.records.length} episodes from ${options.files.length} file(s)${complete ? ", complete" : `, ${merged.missing.length} missing`}\n`,
    );
  return EXIT.ok;
}
