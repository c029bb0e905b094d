/**
 * A frozen corpus on its own (`fabench corpus generate`'s output), which names the catalogs it was
 * built on: its tasks, schema-checked, and those catalogs, checked to be the ones it names. For
 * readers that need no plan (the Discover → Call export).
 */
import {
  CORPUS_FORMAT,
  corpusHeaderSchema,
  parseCorpusText,
  type Task,
  taskSchema,
} from "../authoring/index.ts";
import { formatOf, inputError, issuePath, type Problem, readTextFile, wrongKind } from "../core/index.ts";
import { loadCatalogs, type LoadedCatalog } from "./catalogs.ts";

export interface FrozenCorpus {
  readonly tasks: Task[];
  /** The catalogs the corpus names, smallest first. */
  readonly catalogs: LoadedCatalog[];
}

export function loadFrozenCorpus(path: string, catalogsDir: string): FrozenCorpus {
  const { document, rows } = parseCorpusText(readTextFile(path, "corpus").text, path);
  const header = corpusHeaderSchema.safeParse(document);
  if (!header.success)
    throw (
      wrongKind(path, formatOf(document), CORPUS_FORMAT, "corpus") ??
      inputError(
        "corpus",
        "not_a_frozen_corpus",
        `the export reads a frozen corpus (${CORPUS_FORMAT}), which names its catalogs; make one with \`fabench corpus generate\``,
        { file: path },
      )
    );
  const problems: Problem[] = [];
  const tasks = rows.flatMap((row) => {
    const parsed = taskSchema.safeParse(row.value);
    if (parsed.success) return [parsed.data];
    for (const issue of parsed.error.issues)
      problems.push({
        code: "invalid_task",
        file: path,
        line: row.line,
        message: `${issuePath(issue.path)}: ${issue.message}`,
      });
    return [];
  });
  if (problems.length > 0)
    throw inputError("corpus", "invalid_task", problems[0]?.message ?? "", { file: path, problems });
  const named = header.data.catalogs;
  const loaded = loadCatalogs(
    catalogsDir,
    named.map((c) => c.size),
  );
  for (const catalog of loaded) {
    const expected = named.find((c) => c.size === catalog.size)?.sha256;
    if (catalog.catalog.sha256 !== expected)
      throw inputError(
        "catalog",
        "catalog_mismatch",
        `the corpus was built on catalog ${catalog.size} ${expected?.slice(0, 12)}…, not this one (${catalog.catalog.sha256.slice(0, 12)}…)`,
        { file: catalog.file },
      );
  }
  return { tasks, catalogs: [...loaded].sort((a, b) => a.size - b.size) };
}
