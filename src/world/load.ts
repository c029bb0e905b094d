/**
 * The one loader: every command that reads the benchmark's frozen files reads them here, in one
 * order — protocol, plan (checked to be the protocol's), catalogs (checked to nest), corpus (every
 * identity and content check), condition manifest (checked to be frozen from these), conveyor (the
 * prerequisite lock's status) — and gets one checked, frozen value. A pilot folder is only other
 * paths: `--pilot DIR` is turned into them by the CLI before a command runs.
 */
import { canonicalSha256, type Loaded } from "../core/index.ts";
import type { ConditionManifest } from "../conditions/routing/index.ts";
import type { PrerequisiteStatus } from "../gates/index.ts";
import { loadCatalogs } from "./catalogs.ts";
import { prerequisiteFor } from "./conveyor.ts";
import {
  loadCheckedCorpus,
  readPriorQueries,
  type CheckedCorpus,
  type CheckHooks,
  type CorpusSetting,
} from "./corpus.ts";
import { checkManifest, loadConditionManifest } from "./manifest.ts";
import { checkPlanOf, loadPlan, loadProtocol } from "./protocol.ts";

export interface BenchmarkPaths {
  readonly protocol: string;
  readonly plan: string;
  /** The folder holding the protocol's catalogs (`{size}.json`). */
  readonly catalogs: string;
  /** Earlier benchmark surfaces whose queries a task may not reuse (`corpus check`). */
  readonly forbiddenCorpus?: readonly string[];
}

/** The protocol, its plan and its catalogs, checked to belong together. */
export type Benchmark = CorpusSetting;

export function loadBenchmark(paths: BenchmarkPaths, hooks: CheckHooks = {}): Benchmark {
  hooks.progress?.("checking the protocol, the plan and the catalogs…");
  const protocol = loadProtocol(paths.protocol);
  const plan = loadPlan(paths.plan);
  const protocolSha256 = canonicalSha256(protocol.value);
  checkPlanOf(plan.value, protocolSha256, paths);
  const catalogs = loadCatalogs(paths.catalogs, protocol.value.catalog_sizes);
  const prior = readPriorQueries(paths.forbiddenCorpus ?? []);
  return {
    protocol: protocol.value,
    protocolSha256,
    plan: plan.value,
    catalogs,
    priorQueries: prior.queries,
    fileSha256s: [
      protocol.fileSha256,
      plan.fileSha256,
      ...catalogs.map((c) => c.fileSha256),
      ...prior.fileSha256s,
    ],
  };
}

export interface WorldPaths extends BenchmarkPaths {
  readonly corpus: string;
  /** The condition manifest, for commands that replay or run episodes. */
  readonly manifest?: string;
  /** The conveyor, for commands the prerequisite lock concerns. */
  readonly conveyor?: string;
}

/**
 * Everything a run, a score or a judgment is made from, each part checked against the others. The
 * manifest and the prerequisite status are there when their paths were given (a missing conveyor
 * file blocks; it does not fail).
 */
export type World<P extends WorldPaths = WorldPaths> = Benchmark & {
  readonly paths: WorldPaths;
  readonly corpus: CheckedCorpus;
  readonly manifest: P extends { manifest: string }
    ? Loaded<ConditionManifest>
    : Loaded<ConditionManifest> | null;
  readonly prerequisite: P extends { conveyor: string } ? PrerequisiteStatus : PrerequisiteStatus | null;
};

export async function loadWorld<P extends WorldPaths>(paths: P, hooks: CheckHooks = {}): Promise<World<P>> {
  const benchmark = loadBenchmark(paths, hooks);
  const corpus = await loadCheckedCorpus(benchmark, paths.corpus, hooks);
  if (paths.manifest !== undefined) hooks.progress?.("checking the condition manifest…");
  const manifest = paths.manifest === undefined ? null : loadConditionManifest(paths.manifest);
  if (manifest !== null) checkManifest(manifest.value, benchmark, corpus, manifest.path);
  const prerequisite =
    paths.conveyor === undefined ? null : prerequisiteFor(benchmark.protocol, paths.conveyor);
  return Object.freeze({ ...benchmark, paths: pathsOf(paths), corpus, manifest, prerequisite }) as World<P>;
}

/** Only the paths: a command's options may hold more (an environment with keys) that must not travel. */
function pathsOf(p: WorldPaths): WorldPaths {
  return {
    protocol: p.protocol,
    plan: p.plan,
    catalogs: p.catalogs,
    corpus: p.corpus,
    ...(p.forbiddenCorpus === undefined ? {} : { forbiddenCorpus: [...p.forbiddenCorpus] }),
    ...(p.manifest === undefined ? {} : { manifest: p.manifest }),
    ...(p.conveyor === undefined ? {} : { conveyor: p.conveyor }),
  };
}
