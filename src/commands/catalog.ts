/** `fabench catalog build`: write the nested catalogs, or check the checked-in ones. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildCatalog, catalogFileName } from "../conditions/catalog/index.ts";
import {
  checkOutput,
  formatJsonFile,
  formatProblem,
  readTextFile,
  usageError,
  writeFileAtomic,
} from "../core/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { rewriteAdvice } from "./shell/advice.ts";
import { loadProtocol } from "../world/index.ts";

export interface CatalogBuildOptions {
  readonly protocol: string;
  /** Comma-separated sizes; the protocol's catalog sizes when absent. */
  readonly sizes?: string;
  readonly outDir: string;
  readonly check: boolean;
  readonly json: boolean;
}

function catalogPath(dir: string, size: number): string {
  return join(dir, catalogFileName(size));
}

export function parseSizes(text: string): number[] {
  const sizes = text.split(",").map((s) => s.trim());
  const bad = sizes.filter((s) => !/^[1-9]\d*$/.test(s));
  if (bad.length > 0 || sizes.length === 0)
    throw usageError(
      "bad_sizes",
      `--catalog-size takes positive whole numbers separated by commas, not ${JSON.stringify(text)}`,
    );
  return [...new Set(sizes.map(Number))].sort((a, b) => a - b);
}

export function catalogBuild(options: CatalogBuildOptions, io: CliIo): number {
  const sizes =
    options.sizes === undefined
      ? loadProtocol(options.protocol).value.catalog_sizes
      : parseSizes(options.sizes);
  let catalogs;
  try {
    catalogs = sizes.map((size) => ({ size, catalog: buildCatalog(size) }));
  } catch (error) {
    throw usageError("bad_sizes", error instanceof Error ? error.message : String(error));
  }
  const results = catalogs.map(({ size, catalog }) => {
    const path = catalogPath(options.outDir, size);
    const text = formatJsonFile(catalog);
    const upToDate = existsSync(path) && readTextFile(path, "catalog").text === text;
    return { size, path, text, sha256: catalog.sha256, upToDate };
  });
  if (!options.check) {
    for (const r of results)
      checkOutput(r.path, { inputs: [options.protocol], regenerates: "tasks/catalogs" });
    for (const r of results) writeFileAtomic(r.path, r.text);
  }
  const stale = options.check ? results.filter((r) => !r.upToDate) : [];
  if (options.json)
    printJson(io, {
      ok: stale.length === 0,
      written: !options.check,
      catalogs: results.map((r) => ({
        size: r.size,
        path: r.path,
        sha256: r.sha256,
        up_to_date: r.upToDate,
      })),
    });
  else
    for (const r of results)
      io.out(
        `${options.check ? (r.upToDate ? "up to date" : "STALE") : "wrote"} ${r.path}: ${r.size} endpoints, sha256 ${r.sha256}\n`,
      );
  for (const r of stale)
    io.err(
      `${formatProblem({ code: "catalog_stale", file: r.path, message: `differs from a fresh build; ${rewriteAdvice("catalog build", "--catalogs", options.outDir, "tasks/catalogs")}` })}\n`,
    );
  return stale.length === 0 ? EXIT.ok : EXIT.failed;
}
