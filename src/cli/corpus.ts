/** `fabench corpus`: generation, identity validation and the content check. */
import { type Command, Option } from "commander";
import { usageError } from "../core/index.ts";
import { bundledInput } from "./bundled-defaults.ts";
import {
  authoredOption,
  bundledOr,
  bundledOutOption,
  catalogsOption,
  collect,
  DEFAULTS,
  deprecatedAlias,
  group,
  pilotFile,
  pilotOption,
  pilotOutput,
  jsonOption,
  manifestOption,
  planOption,
  protocolOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadContent = () => import("../commands/corpus/content.ts");
const loadCorpus = () => import("../commands/corpus/validate.ts");
const loadSensitivity = () => import("../commands/corpus/sensitivity.ts");

export function registerCorpus(program: Command, r: Registrar): void {
  const corpus = group(
    program,
    "corpus",
    "Authored corpora: generation, identity validation and the full content check.",
  );
  registerValidate(corpus, r);
  registerGenerate(corpus, r);
  registerCheck(corpus, r);
  registerSensitivity(corpus, r);
}

/** `corpus validate`: the corpus's identity against the plan, optionally writing a freeze manifest. */
function registerValidate(corpus: Command, r: Registrar): void {
  const validate = corpus
    .command("validate")
    .description(
      "Check a corpus's identity against the plan: every slot once, no drift, unique non-empty queries.",
    )
    .argument("[corpus]", CORPUS_ARGUMENT)
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .addOption(
      new Option(
        "--out <file>",
        "when valid, write a freeze manifest with the plan, corpus, identity and query hashes",
      ),
    )
    .action(
      async (
        corpusPath: string | undefined,
        o: { plan: string; json: boolean; out?: string; pilot?: string },
      ) =>
        r.setExit(
          await (await loadCorpus()).corpusValidate(
            {
              corpus: corpusArgument(corpusPath, o.pilot, r),
              plan: o.plan,
              json: o.json,
              ...(o.out === undefined ? {} : { freezeOut: o.out }),
            },
            r.io,
          ),
        ),
    );
  deprecatedAlias(validate, "--freeze-out", "--out");
}

const CORPUS_ARGUMENT = `corpus file (a frozen corpus file, a JSON list of tasks, or JSONL; with --pilot, the pilot's) (default: bundled ${DEFAULTS.corpus})`;

/** The corpus argument: the one given, else the pilot's, else the bundled corpus. */
function corpusArgument(given: string | undefined, pilot: string | undefined, r: Registrar): string {
  if (given !== undefined) return bundledOr(given);
  return pilotFile(pilot, "corpus") ?? bundledInput(DEFAULTS.corpus, `the argument ${DEFAULTS.corpus}`, r.io);
}

/** `corpus generate`: assemble the hand-authored task files into the bundled corpus. */
function registerGenerate(corpus: Command, r: Registrar): void {
  corpus
    .command("generate")
    .description(
      "Assemble the hand-authored task files into the bundled corpus (plan order, hashed); written only if it passes every check.",
    )
    .addOption(authoredOption())
    .addOption(
      pilotOutput(
        bundledOutOption("corpus file to write or check; with --pilot, the pilot's", DEFAULTS.corpus),
        "corpus",
      ),
    )
    .option("--source-revision <sha>", "40-hex git revision that produced it (default: git HEAD)")
    .option(
      "--forbidden-corpus <file>",
      "an earlier benchmark surface; any normalised query overlap is an error (repeatable)",
      collect,
      [],
    )
    .option(
      "--check",
      "regenerate with the revision recorded in --out and exit 1 when the bytes differ; write nothing",
      false,
    )
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(catalogsOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (o: {
        authored: string;
        out: string;
        sourceRevision?: string;
        forbiddenCorpus: string[];
        check: boolean;
        protocol: string;
        plan: string;
        catalogs: string;
        json: boolean;
      }) => {
        if (o.sourceRevision !== undefined && !/^[0-9a-f]{40}$/.test(o.sourceRevision))
          throw usageError(
            "bad_source_revision",
            `--source-revision takes 40 lowercase hex digits, not ${o.sourceRevision}`,
          );
        r.setExit(await (await loadContent()).corpusGenerate(o, r.io));
      },
    );
}

/** `corpus check`: every identity and content check on a corpus (the bundled one by default). */
function registerCheck(corpus: Command, r: Registrar): void {
  corpus
    .command("check")
    .description(
      "Every identity and content check on a corpus: hashes, routes, evidence, facts, tolerances, units, contracts.",
    )
    .argument("[corpus]", CORPUS_ARGUMENT)
    .addOption(catalogsOption())
    .option(
      "--forbidden-corpus <file>",
      "an earlier benchmark surface; any normalised query overlap is an error (repeatable)",
      collect,
      [],
    )
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (
        corpusPath: string | undefined,
        o: {
          catalogs: string;
          forbiddenCorpus: string[];
          protocol: string;
          plan: string;
          json: boolean;
          pilot?: string;
        },
      ) => {
        const corpusFile = corpusArgument(corpusPath, o.pilot, r);
        r.setExit(await (await loadContent()).corpusCheck({ ...o, corpus: corpusFile }, r.io));
      },
    );
}

/** `corpus sensitivity`: the reference agent against every probe agent, per catalog size. */
function registerSensitivity(corpus: Command, r: Registrar): void {
  corpus
    .command("sensitivity")
    .description(
      "Run the reference agent, every probe agent (probe:NAME, one flaw each) and the gold-free careful reader under the all-routes and required-routes conditions at every catalog size, and print per probe the metric that must catch it and how far it falls below the reference agent, and the reader's recall by stratum and language; exit 0 whether or not they are caught.",
    )
    .argument("[corpus]", CORPUS_ARGUMENT)
    .addOption(catalogsOption())
    .addOption(manifestOption())
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (
        corpusPath: string | undefined,
        o: {
          catalogs: string;
          manifest: string;
          protocol: string;
          plan: string;
          json: boolean;
          pilot?: string;
        },
      ) => {
        const corpusFile = corpusArgument(corpusPath, o.pilot, r);
        r.setExit(await (await loadSensitivity()).corpusSensitivity({ ...o, corpus: corpusFile }, r.io));
      },
    );
}
