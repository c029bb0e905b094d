/** Routing: routers rank a catalog for a query; their rankings are frozen once into the condition manifest. */
export {
  createRouter,
  keywordRanking,
  routerConfigSha256,
  tokenize,
  type RankRequest,
  type Router,
  type RouterOptions,
} from "./routers.ts";
export {
  conditionManifestSchema,
  CONDITION_MANIFEST_FORMAT,
  type ConditionManifest,
  type ManifestEntry,
  type Stage,
} from "./manifest-schema.ts";
export {
  conditionStages,
  freezeConditions,
  manifestEntry,
  parseConditionManifest,
  type FreezeInput,
} from "./manifest-freeze.ts";
export {
  routingProfile,
  type CoverageRow,
  type OutrankRow,
  type RoutingProfile,
  type TaskCell,
} from "./profile.ts";
export { renderManifestEntry, renderRoutingProfile } from "./render.ts";
export { namesNoRoute, type UnrankedWatch, unrankedWarning, watchUnranked } from "./unranked.ts";
