/** Building the condition manifest from a router's rankings (pure once the rankings exist). */
import type { ConditionSpec, Plan, Protocol, Task } from "../../authoring/index.ts";
import {
  canonicalSha256,
  compareCodePoints,
  FabenchError,
  mapConcurrent,
  type Problem,
  type Result,
  zodProblems,
} from "../../core/index.ts";
import type { Catalog } from "../catalog/schema.ts";
import { routerConfigSha256, type Router } from "./routers.ts";
import {
  CONDITION_MANIFEST_FORMAT,
  conditionManifestSchema,
  type ConditionManifest,
  type ManifestEntry,
  type Stage,
} from "./manifest-schema.ts";

/** The stages a condition shows, from its declared visibility (never from its name). */
export function conditionStages(
  visibility: ConditionSpec["visibility"],
  ranking: readonly string[],
  task: Task,
): Stage[] {
  const top = (k: number | null): Stage =>
    k === null ? "all" : [...ranking.slice(0, k)].sort(compareCodePoints);
  switch (visibility.kind) {
    case "all_routes":
      return ["all"];
    case "required_routes":
      return [[...task.required_routes].sort(compareCodePoints)];
    case "top_k":
      return [top(visibility.k)];
    case "progressive":
      return visibility.stages.map(top);
    case "search":
      // One stage showing nothing: the agent loads tools by searching (the loop reads the
      // protocol's search settings; the manifest only says nothing is shown at first).
      return [[]];
  }
}

export function manifestEntry(
  protocol: Protocol,
  task: Task,
  catalogSize: number,
  ranking: readonly string[],
): ManifestEntry {
  const ranks = Object.fromEntries(task.required_routes.map((r) => [r, ranking.indexOf(r) + 1]));
  return {
    semantic_task_id: task.semantic_task_id,
    catalog_size: catalogSize,
    required_route_ranks: ranks,
    conditions: Object.fromEntries(
      protocol.conditions.map((c) => [c.id, { stages: conditionStages(c.visibility, ranking, task) }]),
    ),
  };
}

export interface FreezeInput {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly tasks: readonly Task[];
  readonly tasksSha256: string;
  readonly catalogs: ReadonlyArray<{ size: number; catalog: Catalog }>;
  readonly router: Router;
  /** Router calls in flight at once (default 1). The manifest does not depend on it. */
  readonly concurrency?: number;
  /** Called after each finished router call, with the calls done and the calls in all. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Asks the router for every task × catalog ranking (up to `concurrency` at once), then builds and
 * checks the manifest. Entries are in task order, then catalog size ascending, however the calls
 * interleave. A router error names the task and catalog size; when several calls fail, the error
 * of the earliest in that order is thrown.
 */
export async function freezeConditions(input: FreezeInput): Promise<Result<ConditionManifest>> {
  const catalogs = [...input.catalogs].sort((a, b) => a.size - b.size);
  const calls = input.tasks.flatMap((task) => catalogs.map(({ size, catalog }) => ({ task, size, catalog })));
  let done = 0;
  const entries = await mapConcurrent(calls, input.concurrency ?? 1, async ({ task, size, catalog }) => {
    let ranking: string[];
    try {
      ranking = await input.router.rank({
        query: task.query,
        catalogSize: size,
        endpoints: catalog.endpoints,
      });
    } catch (error) {
      throw error instanceof FabenchError ? namedError(error, `${task.semantic_task_id} @ ${size}`) : error;
    }
    done += 1;
    input.onProgress?.(done, calls.length);
    return manifestEntry(input.protocol, task, size, ranking);
  });
  const problems = correctiveMissProblems(input.protocol, input.tasks, entries, catalogs[0]?.size);
  if (problems.length > 0) return { ok: false, problems };
  const body: Omit<ConditionManifest, "manifest_sha256"> = {
    format: CONDITION_MANIFEST_FORMAT,
    protocol_id: input.protocol.protocol_id,
    protocol_sha256: input.protocolSha256,
    plan_slots_sha256: input.plan.slots_sha256,
    corpus_tasks_sha256: input.tasksSha256,
    catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    router: {
      id: input.router.id,
      config_sha256: routerConfigSha256(input.router),
      config: input.router.config as ConditionManifest["router"]["config"],
    },
    conditions: input.protocol.conditions.map((c) => c.id),
    entries,
  };
  return { ok: true, value: { ...body, manifest_sha256: canonicalSha256(body) } };
}

/** The same error, its message led by where it happened (`task @ catalog size: …`). */
function namedError(error: FabenchError, where: string): FabenchError {
  return new FabenchError({
    kind: error.kind,
    stage: error.stage,
    code: error.code,
    message: `${where}: ${error.message}`,
    problems: error.problems.map((p) => ({ ...p, message: `${where}: ${p.message}` })),
  });
}

/**
 * A corrective task must miss at least one required route in the first progressive stage of the
 * smallest catalog — confirmed against the actual ranking, not only by counting routes.
 */
function correctiveMissProblems(
  protocol: Protocol,
  tasks: readonly Task[],
  entries: readonly ManifestEntry[],
  smallest: number | undefined,
): Problem[] {
  const progressive = protocol.conditions.find((c) => c.visibility.kind === "progressive");
  if (!progressive || smallest === undefined) return [];
  const corrective = new Set(protocol.corrective_strata);
  const problems: Problem[] = [];
  for (const task of tasks) {
    if (!corrective.has(task.answer_task_stratum)) continue;
    const entry = entries.find(
      (e) => e.semantic_task_id === task.semantic_task_id && e.catalog_size === smallest,
    );
    const first = entry?.conditions[progressive.id]?.stages[0];
    const shown = first === "all" ? null : new Set(first ?? []);
    if (shown === null || task.required_routes.every((r) => shown.has(r)))
      problems.push({
        code: "corrective_miss_not_confirmed",
        message: `${task.semantic_task_id}: the first ${progressive.id} stage of the ${smallest} catalog shows every required route, so the corrective task has no initial miss`,
      });
  }
  return problems;
}

/** Schema and the manifest's own hash. */
export function parseConditionManifest(value: unknown, file: string): Result<ConditionManifest> {
  const parsed = conditionManifestSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, problems: zodProblems(parsed.error, "invalid_condition_manifest", file) };
  const { manifest_sha256, ...body } = parsed.data;
  const actual = canonicalSha256(body);
  if (actual !== manifest_sha256)
    return {
      ok: false,
      problems: [
        {
          code: "condition_manifest_hash_mismatch",
          file,
          message: `manifest_sha256 is ${manifest_sha256} but the manifest hashes to ${actual}`,
        },
      ],
    };
  return { ok: true, value: parsed.data };
}
