/** The protocol's catalogs from a folder (`{size}.json`): each checked, and checked to nest. */
import { join } from "node:path";
import {
  CATALOG_FORMAT,
  catalogFileName,
  nestingProblems,
  parseCatalog,
  type Catalog,
} from "../conditions/catalog/index.ts";
import { inputError, loadJson } from "../core/index.ts";

export interface LoadedCatalog {
  readonly size: number;
  readonly catalog: Catalog;
  readonly file: string;
  readonly fileSha256: string;
}

export function loadCatalogs(dir: string, sizes: readonly number[]): LoadedCatalog[] {
  const loaded = sizes.map((size) => {
    const found = loadJson(join(dir, catalogFileName(size)), "catalog", CATALOG_FORMAT, parseCatalog);
    return { size, catalog: found.value, file: found.path, fileSha256: found.fileSha256 };
  });
  const problems = nestingProblems(loaded);
  if (problems.length > 0)
    throw inputError("catalog", problems[0]?.code ?? "catalog_not_nested", problems[0]?.message ?? "", {
      problems,
    });
  return loaded;
}

/** The catalog files of these sizes in a folder (for output checks: an output may not overwrite one). */
export function catalogFiles(dir: string, sizes: readonly number[]): string[] {
  return sizes.map((s) => join(dir, catalogFileName(s)));
}
