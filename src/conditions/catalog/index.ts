/** The nested endpoint catalogs: their schema, the spec (base suite, hard negatives, distractors), building, checking and replies. */
export {
  allEndpoints,
  buildCatalog,
  catalogFileName,
  catalogSha256,
  catalogTiers,
  nestingProblems,
  parseCatalog,
  specProblems,
  type CatalogTiers,
} from "./build.ts";
export {
  renderReply,
  renderTemplate,
  templateProblems,
  unmatchedObservation,
  type ReplyContext,
} from "./replies.ts";
export {
  CATALOG_FORMAT,
  catalogSchema,
  ENDPOINT_ROLES,
  REPLY_KINDS,
  type Catalog,
  type Endpoint,
  type EndpointOutput,
  type EndpointRole,
  type Replies,
  type ReplyKind,
} from "./schema.ts";
