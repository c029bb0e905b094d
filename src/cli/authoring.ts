/** Commands of the authoring stages: plan, corpus, catalog. */
import { type Command, Option } from "commander";
import { catalogBuild } from "../commands/catalog.ts";
import { corpusCheck, corpusGenerate } from "../commands/content.ts";
import { corpusValidate } from "../commands/corpus.ts";
import { planGenerate } from "../commands/plan.ts";
import { usageError } from "../core/index.ts";
import { collect, DEFAULTS, group, type Registrar } from "./options.ts";

export function registerAuthoring(program: Command, r: Registrar): void {
  const plan = group(program, "plan", "The authoring plan: task slots frozen before any content exists.");
  plan
    .command("generate")
    .description("Build the slot plan from the protocol and write it (or, with --check, compare it).")
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--out <path>", "plan file to write or check", DEFAULTS.plan)
    .option("--check", "exit 1 when the plan file differs from a fresh build; write nothing", false)
    .option("--json", "print one JSON object", false)
    .action((o: { protocol: string; out: string; check: boolean; json: boolean }) => r.setExit(planGenerate(o, r.io)));

  const corpus = group(program, "corpus", "Authored corpora: generation, identity validation and the full content check.");
  corpus
    .command("validate")
    .description("Check a corpus's identity against the plan: every slot once, no drift, unique non-empty queries.")
    .argument("<corpus>", "corpus file: JSON array, JSON object with tasks or rows, or JSONL")
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .addOption(new Option("--freeze-out <path>", "when valid, write a freeze manifest with the plan, corpus, identity and query hashes"))
    .action((corpusPath: string, o: { plan: string; json: boolean; freezeOut?: string }) =>
      r.setExit(corpusValidate({ corpus: corpusPath, plan: o.plan, json: o.json, ...(o.freezeOut === undefined ? {} : { freezeOut: o.freezeOut }) }, r.io)),
    );

  // A group without a subcommand is an incomplete command line: show its help on stderr, exit 2.
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
      r.setExit(await corpusGenerate(o, r.io));
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
      r.setExit(await corpusCheck({ ...o, corpus: corpusPath }, r.io)),
    );

  const catalog = group(program, "catalog", "The nested endpoint catalogs the conditions show.");
  catalog
    .command("build")
    .description("Write the nested catalogs (base endpoints, then distractors), or check the checked-in ones.")
    .option("--protocol <path>", "preregistered protocol (for the default sizes)", DEFAULTS.protocol)
    .option("--sizes <list>", "comma-separated catalog sizes (default: the protocol's)")
    .option("--out-dir <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--check", "exit 1 when a checked-in catalog differs from a fresh build; write nothing", false)
    .option("--json", "print one JSON object", false)
    .action((o: { protocol: string; sizes?: string; outDir: string; check: boolean; json: boolean }) => r.setExit(catalogBuild(o, r.io)));

}
