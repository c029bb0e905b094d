/**
 * The world: the benchmark's frozen files — protocol, plan, catalogs, corpus, condition manifest,
 * conveyor — loaded and checked in one place (`loadWorld`), and the few single-file readers the
 * commands that need only one of them use.
 */
export { catalogFiles, loadCatalogs, type LoadedCatalog } from "./catalogs.ts";
export {
  artifactCheck,
  evidenceRoot,
  loadConveyor,
  prerequisiteFor,
  renderBlocking,
  unlockRecord,
  type Unlock,
} from "./conveyor.ts";
export {
  checkContext,
  loadCheckedCorpus,
  loadPriorQueries,
  runCheck,
  type CheckedCorpus,
  type CheckHooks,
  type CorpusSetting,
} from "./corpus.ts";
export { loadFrozenCorpus, type FrozenCorpus } from "./frozen-corpus.ts";
export {
  loadBenchmark,
  loadWorld,
  type Benchmark,
  type BenchmarkPaths,
  type World,
  type WorldPaths,
} from "./load.ts";
export { checkManifest, loadConditionManifest } from "./manifest.ts";
export { checkRunsMadeFrom } from "./runs.ts";
export {
  CHECK_CODE_VERSION,
  checkCodeIdentity,
  verifiedWorldKey,
  verifiedWorldsIn,
  type VerifiedWorlds,
} from "./verified.ts";
export {
  checkPlanOf,
  isPreregistered,
  loadPlan,
  loadProtocol,
  loadSummaryProtocol,
  loadSystemPrompt,
  preregistrationOf,
  systemPromptPath,
  type ScoredUnder,
} from "./protocol.ts";
