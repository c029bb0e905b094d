/**
 * The command line: parses arguments, dispatches to one command function, and maps errors to
 * exit codes in one place (0 ok, 1 failed validation or check, 2 usage or unreadable input,
 * 3 blocked, 70 internal error). No logic lives here.
 */
import { Command, CommanderError, Option } from "commander";
import { catalogBuild } from "./commands/catalog.ts";
import { corpusCheck, corpusGenerate } from "./commands/content.ts";
import { corpusValidate } from "./commands/corpus.ts";
import { envelopeSchemaCommand, envelopeScore } from "./commands/envelope.ts";
import { EXIT, type CliIo } from "./commands/io.ts";
import { planGenerate } from "./commands/plan.ts";
import { FabenchError, formatProblem, usageError } from "./core/index.ts";

export const DEFAULTS = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
} as const;

const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
};

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command("fabench")
    .description("Final-answer quality under capability routing: plan, validate, run, score and gate the benchmark.")
    .version("0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      outputError: (text, write) => write(text.replace(/^error: /, "fabench: usage_error: ")),
    });

  const plan = program.command("plan").description("The authoring plan: task slots frozen before any content exists.");
  plan
    .command("generate")
    .description("Build the slot plan from the protocol and write it (or, with --check, compare it).")
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--out <path>", "plan file to write or check", DEFAULTS.plan)
    .option("--check", "exit 1 when the plan file differs from a fresh build; write nothing", false)
    .option("--json", "print one JSON object", false)
    .action((o: { protocol: string; out: string; check: boolean; json: boolean }) => setExit(planGenerate(o, io)));

  const corpus = program.command("corpus").description("Authored corpora: identity validation before freezing.");
  corpus
    .command("validate")
    .description("Check a corpus's identity against the plan: every slot once, no drift, unique non-empty queries.")
    .argument("<corpus>", "corpus file: JSON array, JSON object with tasks or rows, or JSONL")
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .addOption(new Option("--freeze-out <path>", "when valid, write a freeze manifest with the plan, corpus, identity and query hashes"))
    .action((corpusPath: string, o: { plan: string; json: boolean; freezeOut?: string }) =>
      setExit(corpusValidate({ corpus: corpusPath, plan: o.plan, json: o.json, ...(o.freezeOut === undefined ? {} : { freezeOut: o.freezeOut }) }, io)),
    );

  // A group without a subcommand is an incomplete command line: show its help on stderr, exit 2.
  const collect = (value: string, previous: string[]) => [...previous, value];
  corpus
    .command("generate")
    .description("Generate the bundled corpus (one task per plan slot, deterministic); written only if it passes every check.")
    .option("--out <path>", "corpus file", DEFAULTS.corpus)
    .option("--source-revision <sha>", "40-hex git revision of the generator (default: git HEAD)")
    .option("--forbidden-corpus <file>", "an earlier benchmark surface; any normalised query overlap is an error (repeatable)", collect, [])
    .option("--check", "regenerate with the revision recorded in --out and exit 1 when the bytes differ; write nothing", false)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--json", "print one JSON object", false)
    .action(async (o: { out: string; sourceRevision?: string; forbiddenCorpus: string[]; check: boolean; protocol: string; plan: string; catalogs: string; json: boolean }) => {
      if (o.sourceRevision !== undefined && !/^[0-9a-f]{40}$/.test(o.sourceRevision))
        throw usageError("bad_source_revision", `--source-revision takes 40 lowercase hex digits, not ${o.sourceRevision}`);
      setExit(await corpusGenerate(o, io));
    });
  corpus
    .command("check")
    .description("Every identity and content check on a corpus: hashes, routes, evidence, facts, tolerances, units, contracts.")
    .argument("<corpus>", "corpus file (a frozen corpus file, a JSON list of tasks, or JSONL)")
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--forbidden-corpus <file>", "an earlier benchmark surface; any normalised query overlap is an error (repeatable)", collect, [])
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (corpusPath: string, o: { catalogs: string; forbiddenCorpus: string[]; protocol: string; plan: string; json: boolean }) =>
      setExit(await corpusCheck({ ...o, corpus: corpusPath }, io)),
    );

  const catalog = program.command("catalog").description("The nested endpoint catalogs the conditions show.");
  catalog
    .command("build")
    .description("Write the nested catalogs (base endpoints, then distractors), or check the checked-in ones.")
    .option("--protocol <path>", "preregistered protocol (for the default sizes)", DEFAULTS.protocol)
    .option("--sizes <list>", "comma-separated catalog sizes (default: the protocol's)")
    .option("--out-dir <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--check", "exit 1 when a checked-in catalog differs from a fresh build; write nothing", false)
    .option("--json", "print one JSON object", false)
    .action((o: { protocol: string; sizes?: string; outDir: string; check: boolean; json: boolean }) => setExit(catalogBuild(o, io)));

  const envelope = program.command("envelope").description("The final-answer envelope: its schema, and scoring one answer.");
  envelope
    .command("schema")
    .description("Print the envelope's JSON Schema (for providers' structured output).")
    .action(() => setExit(envelopeSchemaCommand(io)));
  envelope
    .command("score")
    .description("Score one agent's final text for one task: every metric, and the verdict and reason for every fact.")
    .argument("[envelope]", "file with the agent's final text, or - for standard input", "-")
    .requiredOption("--corpus <file>", "any file of tasks in the content format")
    .requiredOption("--task <id>", "semantic_task_id of the task")
    .option("--json", "print one JSON object", false)
    .action(async (file: string, o: { corpus: string; task: string; json: boolean }) => setExit(await envelopeScore({ ...o, envelope: file }, io)));

  for (const group of [plan, corpus, catalog, envelope]) group.action(() => group.help({ error: true }));
  return program;
}

/** Runs the CLI on `argv` (without the node and script names) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    return handleError(error, io);
  }
}

function handleError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Help and version are successful exits; everything else commander rejects is usage.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof FabenchError) {
    for (const problem of error.problems) io.err(`${formatProblem(problem)}\n`);
    return error.kind === "validation" ? EXIT.failed : error.kind === "internal" ? EXIT.internal : EXIT.usage;
  }
  const detail = error instanceof Error ? error.message : String(error);
  io.err(`fabench: internal_error: ${detail} (a bug in fabench; rerun with FABENCH_DEBUG=1 for a stack trace)\n`);
  if (process.env["FABENCH_DEBUG"] && error instanceof Error) io.err(`${error.stack ?? ""}\n`);
  return EXIT.internal;
}
