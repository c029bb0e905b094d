import { catalogBuild } from "../commands/catalog.js";
import { DEFAULTS, group } from "./options.js";
export function registerCatalog(program, r) {
    const catalog = group(program, "catalog", "The nested endpoint catalogs the conditions show.");
    catalog
        .command("build")
        .description("Write the nested catalogs (base endpoints, then distractors), or check the checked-in ones.")
        .option("--protocol <path>", "preregistered protocol (for the default sizes)", DEFAULTS.protocol)
        .option("--sizes <list>", "comma-separated catalog sizes (default: the protocol's)")
        .option("--out-dir <dir>", "folder of the catalog files", DEFAULTS.catalogs)
        .option("--check", "exit 1 when a checked-in catalog differs from a fresh build; write nothing", false)
        .option("--json", "print one JSON object", false)
        .action((o) => r.setExit(catalogBuild(o, r.io)));
}
