/** Conditions: catalogs now; routers, the condition manifest, the executor and agents later. */
export { buildCatalog, catalogFileName, catalogSha256, nestingProblems, parseCatalog } from "./catalog/build.ts";
export { ACTIONS, RESOURCES } from "./catalog/distractors.ts";
export { CATALOG_FORMAT, catalogSchema, type Catalog, type Endpoint, type EndpointOutput } from "./catalog/schema.ts";
