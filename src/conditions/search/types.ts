/**
 * Tool search as a condition (#34): the agent starts with a search tool and no other tool schema;
 * each search returns up to `k` tool references, and a returned tool is callable from the next
 * turn on and stays loaded. `fabench` runs the portable searches itself over the frozen catalog
 * (deterministic, offline); under a native condition the provider runs its own search over the
 * whole catalog sent with `defer_loading`, and fabench reads what it loaded.
 */

/** The portable engines: BM25 over the documented fields, and a Python `re.search` pattern. */
export type SearchEngine = "bm25" | "regex";

/** Who runs the search: fabench over the frozen catalog, or the model's provider (native). */
export type SearchExecutor = "fabench" | "provider";

/** A search condition's settings, as its protocol entry declares them. */
export interface SearchSettings {
  readonly engine: SearchEngine;
  /** The most tool references one search returns (the protocol's `k`, default 5). */
  readonly k: number;
  readonly executor: SearchExecutor;
}

/** One tool a search returned. */
export interface SearchHit {
  readonly route_id: string;
  readonly function_name: string;
}

/** Why a query was refused (the agent is answered with this code and message, the episode goes on). */
export type SearchRefusal = "empty_query" | "pattern_too_long" | "invalid_pattern";

export type SearchOutcome =
  | { readonly ok: true; readonly hits: readonly SearchHit[] }
  | { readonly ok: false; readonly code: SearchRefusal; readonly message: string };

/** A search over one catalog: the same query always returns the same hits, best first. */
export interface CatalogSearch {
  readonly engine: SearchEngine;
  search(query: string, k: number): SearchOutcome;
}

/** One search as a run records it (per turn, in the order they happened). */
export interface SearchRecord {
  readonly engine: SearchEngine;
  readonly executor: SearchExecutor;
  /** The query or pattern exactly as the agent sent it. */
  readonly query: string;
  /** Route ids returned, best first (empty when refused). */
  readonly results: readonly string[];
  /** Set when the query was refused. */
  readonly error_code: SearchRefusal | null;
}
