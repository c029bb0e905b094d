/**
 * Tool search (#34): the portable searches fabench runs itself over a frozen catalog — BM25 and a
 * Python-syntax regex over the fields the providers document — the search tool the agent is
 * given, its reply, the query a careful agent sends, and the search profile.
 */
import type { Endpoint } from "../catalog/index.ts";
import { bm25Search } from "./bm25.ts";
import { regexSearch } from "./regex.ts";
import type { CatalogSearch, SearchEngine } from "./types.ts";

export type {
  CatalogSearch,
  SearchEngine,
  SearchExecutor,
  SearchHit,
  SearchOutcome,
  SearchRecord,
  SearchRefusal,
  SearchSettings,
} from "./types.ts";
export { BM25_B, BM25_K1 } from "./bm25.ts";
export { searchFields, type FieldKind, type SearchField } from "./fields.ts";
export { distinctiveWords, escapePython, escapePython as escapeRegex, queryFromRequest } from "./query.ts";
export { compilePythonPattern, MAX_PATTERN_LENGTH } from "./regex.ts";
export { MAX_BACKTRACK_PATHS } from "./regex-check.ts";
export { searchReply, searchTool, SEARCH_TOOL_NAME } from "./tool.ts";
export { searchTerms } from "./tokenize.ts";
export {
  searchProfile,
  renderSearchProfile,
  type SearchProfile,
  type SearchProfileRow,
} from "./profile.ts";

/** The portable search of an engine over a catalog's endpoints (its index built once). */
export function catalogSearch(engine: SearchEngine, endpoints: readonly Endpoint[]): CatalogSearch {
  return engine === "bm25" ? bm25Search(endpoints) : regexSearch(endpoints);
}
