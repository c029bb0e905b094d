/** `fabench serve`: the Discover → Call API over the frozen world. */
import type { Command } from "commander";
import {
  catalogSizeOption,
  catalogsOption,
  collect,
  corpusOption,
  nonNegativeInt,
  positiveInt,
  acceptOldRouterSpelling,
  pilotOption,
  routerOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadServe = () => import("../commands/serve.ts");

export function registerServe(program: Command, r: Registrar): void {
  // The shared flag's meaning, with what it is for here as a note (help-consistency keeps the meaning).
  const catalogSize = catalogSizeOption().default(100);
  catalogSize.description = `${catalogSize.description} (the catalog the server answers from)`;
  const serve = program
    .command("serve")
    .description(
      "Serve the Discover → Call API (/api/v1: search, tools/by-ids, tools/execute) over the frozen world: the router's ranking, the endpoints' parameters, the replay executor. Needs a bearer key: FABENCH_SERVE_API_KEY, else a random one printed once.",
    )
    .option(
      "--host <address>",
      "address to listen on; anything but loopback serves beyond this machine",
      "127.0.0.1",
    )
    .option("--port <n>", "port to listen on (0: any free port)", nonNegativeInt("--port"), 8765)
    .addOption(catalogSize)
    .addOption(routerOption())
    .option("--router-arg <arg>", "argument for a command router (repeatable)", collect, [])
    .option("--router-timeout <ms>", "time limit per router call", positiveInt("--router-timeout"), 30_000)
    .addOption(corpusOption("the tasks execute replays, found by their query"))
    .addOption(catalogsOption())
    .addOption(pilotOption())
    .action(
      async (o: {
        host: string;
        port: number;
        catalogSize: number;
        router: string;
        routerArg: string[];
        routerTimeout: number;
        corpus: string;
        catalogs: string;
      }) =>
        r.setExit(
          await (await loadServe()).serve(
            { ...o, routerArgs: o.routerArg, routerTimeoutMs: o.routerTimeout },
            r.io,
          ),
        ),
    );
  acceptOldRouterSpelling(serve);
}
