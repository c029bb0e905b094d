/** The nested endpoint catalogs: their schema, the base endpoints, the distractors, building and checking. */
export { buildCatalog, catalogFileName, catalogSha256, nestingProblems, parseCatalog } from "./build.ts";
export { ACTIONS, RESOURCES } from "./distractors.ts";
export { CATALOG_FORMAT, catalogSchema, type Catalog, type Endpoint, type EndpointOutput } from "./schema.ts";
