/**
 * The corpus against the protocol, plan and catalogs: checked by every identity and content rule
 * before any command uses a task (a corpus that fails is a validation error, exit 1).
 */
import {
  checkCorpus,
  parseCorpusText,
  taskSchema,
  type CheckContext,
  type CorpusCheckReport,
  type Plan,
  type Protocol,
  type RowProblem,
  type Task,
} from "../authoring/index.ts";
import { FabenchError, loadUnitConverter, normalizeQuery, readTextFile, toolVersion } from "../core/index.ts";
import type { LoadedCatalog } from "./catalogs.ts";
import { checkCodeIdentity, verifiedWorldKey, type VerifiedWorlds } from "./verified.ts";

/** What the content rules need of the benchmark around a corpus. */
export interface CorpusSetting {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: readonly LoadedCatalog[];
  /** Normalised queries of earlier benchmark surfaces → the file they come from. */
  readonly priorQueries: ReadonlyMap<string, string>;
  /**
   * SHA-256 of the bytes of every file above (protocol, plan, catalogs, earlier surfaces), in
   * order: with the corpus's, the key under which a verified world is remembered. Absent: never
   * remembered, always checked.
   */
  readonly fileSha256s?: readonly string[];
}

/** What loading may use besides the files: the verified-world cache and a terminal's progress lines. */
export interface CheckHooks {
  readonly verified?: VerifiedWorlds | null;
  /** One line per step ("checking the corpus (144 tasks)…"); the shell shows them on a terminal only. */
  readonly progress?: (line: string) => void;
}

export interface CheckedCorpus {
  readonly tasks: Task[];
  readonly tasksSha256: string;
  readonly fileSha256: string;
  readonly path: string;
}

/** The content rules' view of the protocol and catalogs. */
export async function checkContext(
  loaded: Pick<CorpusSetting, "protocol" | "catalogs">,
): Promise<CheckContext> {
  const bySize = [...loaded.catalogs].sort((a, b) => a.size - b.size);
  const smallest = bySize[0];
  const largest = bySize.at(-1);
  const endpoints = smallest?.catalog.endpoints ?? [];
  const every = largest?.catalog.endpoints ?? [];
  const progressive = loaded.protocol.conditions.find((c) => c.visibility.kind === "progressive")?.visibility;
  return {
    routeIds: smallest ? new Set(endpoints.map((e) => e.route_id)) : null,
    anyRouteIds: largest ? new Set(every.map((e) => e.route_id)) : null,
    routeParameters: new Map(every.map((e) => [e.route_id, new Set(Object.keys(e.parameters.properties))])),
    parameterSchemas: new Map(every.map((e) => [e.route_id, e.parameters.properties])),
    correctiveStrata: new Set(loaded.protocol.corrective_strata),
    firstStageSize: progressive?.kind === "progressive" ? (progressive.stages[0] ?? null) : null,
    units: await loadUnitConverter(),
  };
}

/** Every identity and content check of a corpus text, as a report (nothing thrown for a failing corpus). */
export async function runCheck(
  loaded: CorpusSetting,
  text: string,
  file: string,
): Promise<CorpusCheckReport> {
  return checkParsed(loaded, parseCorpusText(text, file));
}

async function checkParsed(
  loaded: CorpusSetting,
  corpus: ReturnType<typeof parseCorpusText>,
): Promise<CorpusCheckReport> {
  return checkCorpus({
    corpus,
    protocol: loaded.protocol,
    protocolSha256: loaded.protocolSha256,
    plan: loaded.plan,
    catalogs: loaded.catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    context: await checkContext(loaded),
    priorQueries: loaded.priorQueries,
  });
}

/**
 * A corpus that passes every identity and content check, or a validation error listing its
 * problems. The checks are skipped when these very bytes (corpus, protocol, plan, catalogs) passed
 * them before (`hooks.verified`); the tasks are still parsed against their schema.
 */
export async function loadCheckedCorpus(
  loaded: CorpusSetting,
  path: string,
  hooks: CheckHooks = {},
): Promise<CheckedCorpus> {
  const file = readTextFile(path, "corpus");
  const parsed = parseCorpusText(file.text, path);
  const verified = hooks.verified ?? null;
  const key =
    verified === null || loaded.fileSha256s === undefined
      ? null
      : verifiedWorldKey(checkCodeIdentity(), [...loaded.fileSha256s, file.fileSha256]);
  let tasksSha256 = key === null ? null : (verified?.recall(key) ?? null);
  if (tasksSha256 !== null)
    hooks.progress?.(`the corpus (${parsed.rows.length} tasks) passed every check before: not checked again`);
  else {
    hooks.progress?.(`checking the corpus (${parsed.rows.length} tasks)…`);
    const report = await checkParsed(loaded, parsed);
    if (!report.ok || report.tasks_sha256 === null)
      throw new FabenchError({
        kind: "validation",
        stage: "corpus",
        code: "corpus_check_failed",
        message: "",
        problems: report.errors.map((e) => toProblem(e, path)),
      });
    tasksSha256 = report.tasks_sha256;
    if (key !== null) verified?.remember(key, tasksSha256);
  }
  const tasks = parsed.rows.map((r) => taskSchema.parse(r.value));
  return { tasks, tasksSha256, fileSha256: file.fileSha256, path };
}

function toProblem(e: RowProblem, file: string) {
  return {
    code: e.code,
    message: `${e.semantic_task_id ? `${e.semantic_task_id}: ` : ""}${e.message}`,
    file,
    ...(e.line === null ? {} : { line: e.line }),
  };
}

/** Normalised queries of earlier benchmark surfaces (any corpus format) → the file they come from. */
export function loadPriorQueries(paths: readonly string[]): Map<string, string> {
  return readPriorQueries(paths).queries;
}

/** The queries, and the SHA-256 of each file's bytes (for the verified-world key). */
export function readPriorQueries(paths: readonly string[]) {
  const queries = new Map<string, string>();
  const fileSha256s: string[] = [];
  for (const path of paths) {
    const file = readTextFile(path, "corpus");
    fileSha256s.push(file.fileSha256);
    const { rows } = parseCorpusText(file.text, path);
    for (const { value } of rows) {
      const query =
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)["query"] : undefined;
      if (typeof query === "string" && !queries.has(normalizeQuery(query)))
        queries.set(normalizeQuery(query), path);
    }
  }
  return { queries, fileSha256s };
}
