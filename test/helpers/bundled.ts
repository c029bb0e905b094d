/** The bundled frozen files, loaded through the same loaders the CLI uses. */
import { readFileSync } from "node:fs";
import type { CorpusHeader, Task } from "../../src/authoring/index.ts";
import { loadCatalogs, loadPlan, loadProtocol } from "../../src/world/index.ts";

export const CORPUS_PATH = "tasks/final-answer-corpus.json";
export const CATALOG_DIR = "tasks/catalogs";

export function bundled() {
  const protocol = loadProtocol("manifests/preregistration.json").value;
  const plan = loadPlan("manifests/authoring-plan.json").value;
  const catalogs = loadCatalogs(CATALOG_DIR, protocol.catalog_sizes);
  const corpus = JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as Omit<CorpusHeader, "tasks"> & {
    tasks: Task[];
  };
  return { protocol, plan, catalogs, corpus };
}
