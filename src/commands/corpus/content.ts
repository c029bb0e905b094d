import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  AUTHORED_FORMAT,
  authoredFileSchema,
  generateCorpus,
  type AuthoredFile,
} from "../../authoring/index.ts";
import {
  checkOutput,
  FabenchError,
  formatJsonFile,
  inputError,
  jsonFilesIn,
  loadWithSchema,
  readTextFile,
  toolRevision,
  usageError,
  writeFileAtomic,
} from "../../core/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { rewriteAdvice } from "../shell/advice.ts";
import { exitFor, jsonErrors, jsonWarnings, printProblems, printWarnings } from "../shell/problems.ts";
import { loadBenchmark, runCheck, type BenchmarkPaths } from "../../world/index.ts";

export interface CorpusGenerateOptions extends BenchmarkPaths {
  readonly out: string;
  /** Folder of the hand-authored task files, one `<stratum>.json` per stratum of the protocol. */
  readonly authored: string;
  readonly sourceRevision?: string;
  readonly check: boolean;
  readonly json: boolean;
}

export interface CorpusCheckOptions extends BenchmarkPaths {
  readonly corpus: string;
  readonly json: boolean;
}

export async function corpusCheck(options: CorpusCheckOptions, io: CliIo): Promise<number> {
  const loaded = loadBenchmark(options);
  const report = await runCheck(loaded, readTextFile(options.corpus, "corpus").text, options.corpus);
  if (options.json)
    printJson(io, {
      ok: report.ok,
      task_count: report.task_count,
      tasks_sha256: report.tasks_sha256,
      field_name_share: report.field_name_share,
      ...jsonErrors(report.errors),
      ...jsonWarnings(report.warnings),
    });
  else {
    printProblems(io, report.errors, { corpus: options.corpus, plan: options.plan });
    if (report.ok)
      io.out(
        `${options.corpus}: ok, ${report.task_count} tasks pass every identity and content check; tasks_sha256 ${report.tasks_sha256}\n`,
      );
    else io.err(`${options.corpus}: ${report.errors.length} problem(s) in ${report.task_count} tasks\n`);
    const share = report.field_name_share;
    io.out(
      `field names: ${share.named_as_form_key} of ${share.required_facts} required facts sit in a record field named as their form key (share ${share.share ?? "n/a"})\n`,
    );
    printWarnings(io, report.warnings, { corpus: options.corpus, plan: options.plan });
  }
  return exitFor(report.errors);
}

export async function corpusGenerate(options: CorpusGenerateOptions, io: CliIo): Promise<number> {
  if (!options.check)
    checkOutput(options.out, {
      inputs: [
        options.protocol,
        options.plan,
        ...jsonFilesIn(options.catalogs),
        ...jsonFilesIn(options.authored),
      ],
      regenerates: "tasks/final-answer-corpus.json",
    });
  const loaded = loadBenchmark(options);
  const authored = readAuthored(options.authored, loaded.protocol.answer_task_strata);
  const existing = existsSync(options.out) ? readTextFile(options.out, "corpus") : null;
  const sourceRevision = options.check
    ? recordedRevision(existing?.text ?? null, options.out)
    : (options.sourceRevision ?? checkoutRevision());
  const corpus = generateCorpus({
    ...loaded,
    catalogs: loaded.catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    sourceRevision,
    authored,
  });
  const text = formatJsonFile(corpus);
  // Nothing is written unless the generated corpus passes the full checker.
  const report = await runCheck(loaded, text, options.out);
  if (!report.ok) {
    printProblems(io, report.errors, { corpus: options.out, plan: options.plan });
    io.err(`${options.out}: the generated corpus fails its own checks; nothing written\n`);
    return EXIT.failed;
  }
  const upToDate = existing?.text === text;
  if (!options.check) writeFileAtomic(options.out, text);
  const summary = {
    ok: !options.check || upToDate,
    written: !options.check,
    up_to_date: upToDate,
    out: options.out,
    task_count: corpus.task_count,
    tasks_sha256: corpus.tasks_sha256,
    generator_source_revision: sourceRevision,
  };
  if (options.json) printJson(io, summary);
  else if (!options.check)
    io.out(`wrote ${options.out}: ${corpus.task_count} tasks, tasks_sha256 ${corpus.tasks_sha256}\n`);
  else if (upToDate)
    io.out(`${options.out} is up to date: ${corpus.task_count} tasks, tasks_sha256 ${corpus.tasks_sha256}\n`);
  if (options.check && !upToDate) {
    io.err(
      `${options.out}: corpus_stale: differs from a fresh generation with the recorded source revision; ${rewriteAdvice("corpus generate", "--out", options.out, "tasks/final-answer-corpus.json")}\n`,
    );
    return EXIT.failed;
  }
  return EXIT.ok;
}

/** One authored file per stratum; a missing one is named with every other missing one (exit 2). */
function readAuthored(dir: string, strata: readonly string[]): AuthoredFile[] {
  const paths = strata.map((s) => join(dir, `${s}.json`));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0)
    throw new FabenchError({
      kind: "input",
      stage: "corpus",
      code: "authored_file_missing",
      message: "",
      problems: missing.map((file) => ({
        code: "authored_file_missing",
        file,
        message: "no authored task file for this stratum",
      })),
    });
  return paths.map((path, i) => {
    const file = loadWithSchema(path, "corpus", authoredFileSchema, "invalid_authored_file", AUTHORED_FORMAT);
    if (file.stratum !== strata[i])
      throw inputError("corpus", "authored_stratum_mismatch", `the file says stratum ${file.stratum}`, {
        file: path,
      });
    return file;
  });
}

function recordedRevision(text: string | null, file: string): string {
  if (text === null)
    throw inputError("corpus", "unreadable_file", "no such file; nothing to check", { file });
  try {
    const revision = (JSON.parse(text) as { generator_source_revision?: unknown }).generator_source_revision;
    if (typeof revision === "string" && /^[0-9a-f]{40}$/.test(revision)) return revision;
  } catch {
    /* reported below */
  }
  throw inputError(
    "corpus",
    "invalid_corpus_header",
    "the corpus records no 40-hex generator_source_revision",
    { file },
  );
}

/** The revision of the fabench checkout whose sources generate the corpus (never the working directory's repository). */
function checkoutRevision(): string {
  const revision = toolRevision();
  if (revision === null)
    throw usageError(
      "no_source_revision",
      "fabench is not running from its own git checkout; give --source-revision SHA (40 hex digits)",
    );
  return revision;
}
