/** `fabench catalog`: the nested endpoint catalogs. */
import type { Command } from "commander";
import {
  catalogSizesOption,
  catalogsOption,
  deprecatedAlias,
  group,
  jsonOption,
  pilotOption,
  protocolOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadCatalog = () => import("../commands/catalog.ts");

export function registerCatalog(program: Command, r: Registrar): void {
  const catalog = group(program, "catalog", "The nested endpoint catalogs the conditions show.");
  const build = catalog
    .command("build")
    .description(
      "Write the nested catalogs (base endpoints, then distractors), or check the checked-in ones.",
    )
    .addOption(protocolOption("its catalog sizes, unless --catalog-size"))
    .addOption(catalogSizesOption())
    .addOption(catalogsOption("written here; with --check, compared", "output"))
    .option("--check", "exit 1 when a checked-in catalog differs from a fresh build; write nothing", false)
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(
      async (o: {
        protocol: string;
        catalogSize?: number[];
        catalogs: string;
        check: boolean;
        json: boolean;
      }) =>
        r.setExit(
          await (await loadCatalog()).catalogBuild(
            {
              protocol: o.protocol,
              ...(o.catalogSize === undefined ? {} : { sizes: o.catalogSize.join(",") }),
              outDir: o.catalogs,
              check: o.check,
              json: o.json,
            },
            r.io,
          ),
        ),
    );
  deprecatedAlias(build, "--sizes", "--catalog-size");
  deprecatedAlias(build, "--catalog-sizes", "--catalog-size");
  deprecatedAlias(build, "--out-dir", "--catalogs");
}
