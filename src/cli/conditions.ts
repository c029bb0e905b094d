/** `fabench conditions`: the frozen condition manifest. */
import type { Command } from "commander";
import type { conditionsFreeze, conditionsProfile, conditionsShow } from "../commands/conditions.ts";
import { collect, DEFAULTS, group, parseCatalogSize, positiveInt, type Registrar } from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadConditions = () => import("../commands/conditions.ts");

export function registerConditions(program: Command, r: Registrar): void {
  const conditions = group(
    program,
    "conditions",
    "The frozen condition manifest: what each condition shows for each task.",
  );
  conditions
    .command("freeze")
    .description(
      "Rank every catalog for every task with a router, and freeze each condition's visible routes.",
    )
    .option("--corpus <file>", "corpus file", DEFAULTS.corpus)
    .option("--catalogs <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--router <spec>", "keyword, names, random:SEED, command:PATH or http:URL", "keyword")
    .option("--router-arg <arg>", "argument for a command router (repeatable)", collect, [])
    .option("--router-timeout <ms>", "time limit per router call", positiveInt("--router-timeout"), 30_000)
    .option("--out <path>", "manifest to write", DEFAULTS.conditionManifest)
    .option("--check", "freeze again and exit 1 when --out differs; write nothing", false)
    .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
    .option("--plan <path>", "authoring plan", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(
      async (o: {
        corpus: string;
        catalogs: string;
        router: string;
        routerArg: string[];
        routerTimeout: number;
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
  conditions
    .command("show")
    .description(
      "Print the visible routes of each condition for one task, and where each required route ranked.",
    )
    .requiredOption("--task <id>", "semantic_task_id")
    .option("--catalog <size>", "only this catalog size", parseCatalogSize)
    .option("--manifest <path>", "condition manifest", DEFAULTS.conditionManifest)
    .option("--json", "print one JSON object", false)
    .action(async (o: { task: string; catalog?: number; manifest: string; json: boolean }) =>
      r.setExit(await (await loadConditions()).conditionsShow(o, r.io)),
    );
  conditions
    .command("profile")
    .description(
      "How hard the frozen conditions are: required routes each condition shows first, and how often a route that is not required outranks a required one.",
    )
    .option("--manifest <path>", "condition manifest", DEFAULTS.conditionManifest)
    .option("--plan <path>", "authoring plan (each task's stratum and language)", DEFAULTS.plan)
    .option("--json", "print one JSON object", false)
    .action(async (o: { manifest: string; plan: string; json: boolean }) =>
      r.setExit(await (await loadConditions()).conditionsProfile(o, r.io)),
    );
}
