/** The nested endpoint catalogs: their schema, the base endpoints, the distractors, building and checking. */
export { buildCatalog, catalogFileName, catalogSha256, nestingProblems, parseCatalog } from "./build.js";
export { ACTIONS, RESOURCES } from "./distractors.js";
export { CATALOG_FORMAT, catalogSchema } from "./schema.js";
