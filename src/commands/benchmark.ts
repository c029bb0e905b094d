/** Loading the benchmark's frozen inputs — protocol, plan, catalogs, corpus — and checking they agree. */
import {
  checkCorpus,
  parseCorpusText,
  taskSchema,
  type CheckContext,
  type CorpusCheckReport,
  type Plan,
  type Protocol,
  type Task,
} from "../authoring/index.ts";
import { canonicalSha256, FabenchError, inputError, loadUnitConverter } from "../core/index.ts";
import {
  loadCatalogs,
  loadPlan,
  loadPriorQueries,
  loadProtocol,
  readTextFile,
  type LoadedCatalog,
} from "./inputs.ts";
import type { RowProblem } from "../authoring/index.ts";

export interface BenchmarkInputs {
  readonly protocol: string;
  readonly plan: string;
  readonly catalogs: string;
  readonly forbiddenCorpus: readonly string[];
}

export interface LoadedBenchmark {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: LoadedCatalog[];
  readonly priorQueries: Map<string, string>;
}

export function load(options: BenchmarkInputs): LoadedBenchmark {
  const protocol = loadProtocol(options.protocol).value;
  const plan = loadPlan(options.plan).value;
  const protocolSha256 = canonicalSha256(protocol);
  if (plan.protocol_sha256 !== protocolSha256)
    throw inputError(
      "plan",
      "plan_protocol_mismatch",
      `the plan was built from protocol ${plan.protocol_sha256.slice(0, 12)}…, not ${options.protocol} (${protocolSha256.slice(0, 12)}…); pass the plan made from this protocol with --plan (for a pilot protocol, \`fabench pilot init DIR\` makes every derived file; never regenerate the frozen plan for it)`,
      { file: options.plan },
    );
  return {
    protocol,
    protocolSha256,
    plan,
    catalogs: loadCatalogs(options.catalogs, protocol.catalog_sizes),
    priorQueries: loadPriorQueries(options.forbiddenCorpus),
  };
}

/** The content rules' view of the protocol and catalogs. */
export async function checkContext(
  loaded: Pick<LoadedBenchmark, "protocol" | "catalogs">,
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
    correctiveStrata: new Set(loaded.protocol.corrective_strata),
    firstStageSize: progressive?.kind === "progressive" ? (progressive.stages[0] ?? null) : null,
    units: await loadUnitConverter(),
  };
}

export async function runCheck(
  loaded: LoadedBenchmark,
  text: string,
  file: string,
): Promise<CorpusCheckReport> {
  return checkCorpus({
    corpus: parseCorpusText(text, file),
    protocol: loaded.protocol,
    protocolSha256: loaded.protocolSha256,
    plan: loaded.plan,
    catalogs: loaded.catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    context: await checkContext(loaded),
    priorQueries: loaded.priorQueries,
  });
}

export interface CheckedCorpus {
  readonly tasks: Task[];
  readonly tasksSha256: string;
  readonly fileSha256: string;
  readonly path: string;
}

/** A corpus that passes every identity and content check, or a validation error listing its problems. */
export async function loadCheckedCorpus(loaded: LoadedBenchmark, path: string): Promise<CheckedCorpus> {
  const file = readTextFile(path, "corpus");
  const report = await runCheck(loaded, file.text, path);
  if (!report.ok || report.tasks_sha256 === null)
    throw new FabenchError({
      kind: "validation",
      stage: "corpus",
      code: "corpus_check_failed",
      message: "",
      problems: report.errors.map((e) => toProblem(e, path)),
    });
  const tasks = parseCorpusText(file.text, path).rows.map((r) => taskSchema.parse(r.value));
  return { tasks, tasksSha256: report.tasks_sha256, fileSha256: file.fileSha256, path };
}

function toProblem(e: RowProblem, file: string) {
  return {
    code: e.code,
    message: `${e.semantic_task_id ? `${e.semantic_task_id}: ` : ""}${e.message}`,
    file,
    ...(e.line === null ? {} : { line: e.line }),
  };
}
