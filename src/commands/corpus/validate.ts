/** `fabench corpus validate`: identity validation of an authored corpus against the plan. */
import { buildIdentityFreeze, parseCorpusText, validateIdentity } from "../../authoring/index.ts";
import { checkOutput, readTextFile, writeJsonAtomic } from "../../core/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { exitFor, jsonErrors, printProblems } from "../shell/problems.ts";
import { loadPlan } from "../../world/index.ts";

export interface CorpusValidateOptions {
  readonly corpus: string;
  readonly plan: string;
  readonly json: boolean;
  readonly freezeOut?: string;
}

export function corpusValidate(options: CorpusValidateOptions, io: CliIo): number {
  if (options.freezeOut !== undefined)
    checkOutput(options.freezeOut, { inputs: [options.corpus, options.plan], flag: "--out" });
  const plan = loadPlan(options.plan);
  const corpus = readTextFile(options.corpus, "corpus");
  const { rows } = parseCorpusText(corpus.text, options.corpus);
  const report = validateIdentity(rows, plan.value);

  if (options.json) printJson(io, { ...report, ...jsonErrors(report.errors) });
  else printProblems(io, report.errors, { corpus: options.corpus, plan: options.plan });

  if (!report.ok) {
    const note = options.freezeOut === undefined ? "" : `; nothing written to ${options.freezeOut}`;
    if (!options.json)
      io.err(
        `${options.corpus}: ${report.errors.length} identity problem(s) in ${report.row_count} rows${note}\n`,
      );
    return exitFor(report.errors);
  }
  if (options.freezeOut !== undefined)
    writeJsonAtomic(
      options.freezeOut,
      buildIdentityFreeze({
        plan: plan.value,
        planFileSha256: plan.fileSha256,
        corpusFileSha256: corpus.fileSha256,
        report,
      }),
    );
  if (!options.json) {
    io.out(
      `${options.corpus}: ok, ${report.row_count} rows fill ${report.authoring_slot_count} slots, ${report.normalized_query_count} distinct queries\n`,
    );
    io.out(
      `identity_sha256 ${report.identity_sha256}\nquery_content_sha256 ${report.query_content_sha256}\n`,
    );
    if (options.freezeOut !== undefined) io.out(`wrote ${options.freezeOut}\n`);
  }
  return EXIT.ok;
}
