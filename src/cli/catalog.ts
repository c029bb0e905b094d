/** `fabench catalog`: the nested endpoint catalogs. */
import type { Command } from "commander";
import type { catalogBuild } from "../commands/catalog.ts";
import { DEFAULTS, group, type Registrar } from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadCatalog = () => import("../commands/catalog.ts");

export function registerCatalog(program: Command, r: Registrar): void {
  const catalog = group(program, "catalog", "The nested endpoint catalogs the conditions show.");
  catalog
    .command("build")
    .description(
      "Write the nested catalogs (base endpoints, then distractors), or check the checked-in ones.",
    )
    .option("--protocol <path>", "preregistered protocol (for the default sizes)", DEFAULTS.protocol)
    .option("--sizes <list>", "comma-separated catalog sizes (default: the protocol's)")
    .option("--out-dir <dir>", "folder of the catalog files", DEFAULTS.catalogs)
    .option("--check", "exit 1 when a checked-in catalog differs from a fresh build; write nothing", false)
    .option("--json", "print one JSON object", false)
    .action(async (o: { protocol: string; sizes?: string; outDir: string; check: boolean; json: boolean }) =>
      r.setExit(await (await loadCatalog()).catalogBuild(o, r.io)),
    );
}
