/** `fabench conditions`: the frozen condition manifest. */
import type { Command } from "commander";
import {
  bundledOutOption,
  catalogSizeOption,
  catalogsOption,
  collect,
  corpusOption,
  DEFAULTS,
  deprecatedAlias,
  group,
  jsonOption,
  manifestOption,
  pilotOption,
  planOption,
  positiveInt,
  protocolOption,
  acceptOldRouterSpelling,
  pilotOutput,
  routerOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadConditions = () => import("../commands/conditions.ts");
const loadSearchProfile = () => import("../commands/conditions-search.ts");

export function registerConditions(program: Command, r: Registrar): void {
  const conditions = group(
    program,
    "conditions",
    "The frozen condition manifest: what each condition shows for each task.",
  );
  registerFreeze(conditions, r);
  registerShow(conditions, r);
  registerProfile(conditions, r);
}

/** `conditions freeze`: rank every catalog with a router and freeze each condition's routes. */
function registerFreeze(conditions: Command, r: Registrar): void {
  const freeze = conditions
    .command("freeze")
    .description(
      "Rank every catalog for every task with a router, and freeze each condition's visible routes.",
    )
    .addOption(corpusOption())
    .addOption(catalogsOption())
    .addOption(routerOption())
    .option("--router-arg <arg>", "argument for a command router (repeatable)", collect, [])
    .option("--router-timeout <ms>", "time limit per router call", positiveInt("--router-timeout"), 30_000)
    .option(
      "--router-concurrency <n>",
      "router calls in flight at once (the manifest does not depend on it)",
      positiveInt("--router-concurrency"),
      4,
    )
    .addOption(
      pilotOutput(
        bundledOutOption(
          "condition manifest to write (other commands read it with --manifest); with --pilot, the pilot's",
          DEFAULTS.conditionManifest,
        ),
        "manifest",
      ),
    )
    .option("--check", "freeze again and exit 1 when --out differs; write nothing", false)
    .addOption(protocolOption())
    .addOption(planOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (o: {
        corpus: string;
        catalogs: string;
        router: string;
        routerArg: string[];
        routerTimeout: number;
        routerConcurrency: number;
        out: string;
        check: boolean;
        protocol: string;
        plan: string;
        json: boolean;
      }) =>
        r.setExit(
          await (await loadConditions()).conditionsFreeze(
            { ...o, routerArgs: o.routerArg, routerTimeoutMs: o.routerTimeout },
            r.io,
          ),
        ),
    );
  acceptOldRouterSpelling(freeze);
}

/** `conditions show`: one task's visible routes per condition, and where each required route ranked. */
function registerShow(conditions: Command, r: Registrar): void {
  const show = conditions
    .command("show")
    .description(
      "Print the visible routes of each condition for one task, and where each required route ranked.",
    )
    .requiredOption("--task <id>", "semantic_task_id of the task")
    .addOption(catalogSizeOption())
    .addOption(manifestOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (o: { task: string; catalogSize?: number; manifest: string; json: boolean }) =>
      r.setExit(
        await (await loadConditions()).conditionsShow(
          {
            task: o.task,
            ...(o.catalogSize === undefined ? {} : { catalog: o.catalogSize }),
            manifest: o.manifest,
            json: o.json,
          },
          r.io,
        ),
      ),
    );
  deprecatedAlias(show, "--catalog", "--catalog-size");
}

/** `conditions profile`: how hard the frozen conditions are; with `--search`, how well the portable searches find what tasks need. */
function registerProfile(conditions: Command, r: Registrar): void {
  conditions
    .command("profile")
    .description(
      "How hard the frozen conditions are: required routes each condition shows first, and how often a route that is not required outranks a required one. With --search: recall@k of the portable searches (bm25, regex) when searching with each task's request, per catalog size, stratum and language.",
    )
    .addOption(manifestOption())
    .addOption(planOption("each task's stratum and language"))
    .option(
      "--search",
      "profile the portable searches instead of the frozen manifest (reads the corpus and catalogs)",
      false,
    )
    .option("--k <n>", "with --search: hits per search (the protocol's k)", positiveInt("--k"), 5)
    .addOption(corpusOption("with --search"))
    .addOption(catalogsOption("with --search"))
    .addOption(protocolOption("with --search"))
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (o: {
        manifest: string;
        plan: string;
        search: boolean;
        k: number;
        corpus: string;
        catalogs: string;
        protocol: string;
        json: boolean;
      }) =>
        r.setExit(
          o.search
            ? await (await loadSearchProfile()).conditionsSearchProfile(o, r.io)
            : (await loadConditions()).conditionsProfile(o, r.io),
        ),
    );
}
