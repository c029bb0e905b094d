/** Routing: routers rank a catalog for a query; their rankings are frozen once into the condition manifest. */
export { createRouter, keywordRanking, routerConfigSha256, tokenize, } from "./routers.js";
export { conditionManifestSchema, CONDITION_MANIFEST_FORMAT, } from "./manifest-schema.js";
export { conditionStages, freezeConditions, manifestEntry, parseConditionManifest, } from "./manifest-freeze.js";
export { routingProfile, } from "./profile.js";
