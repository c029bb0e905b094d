/**
 * The router's rankings, asked once per distinct query and kept (bounded, least recently used
 * dropped first): the same query then gets the same answer for as long as the server runs, even
 * from a command or HTTP router that is not deterministic, and a load of repeated queries costs one
 * router call each. Queries in flight are shared; a failed one is forgotten, so the next asks again.
 */
import type { Catalog } from "../conditions/catalog/index.ts";
import type { Router } from "../conditions/routing/index.ts";
import { FabenchError } from "../core/index.ts";
import { QueryMemo, queryKey } from "./memo.ts";

export const DEFAULT_RANKING_CACHE_SIZE = 1_000;

export class RankingCache {
  // Keyed by queryKey (memo.ts): a long query costs 65 characters here, not its length.
  private readonly entries: QueryMemo<Promise<readonly string[]>>;

  constructor(
    private readonly router: Router,
    private readonly catalog: Catalog,
    maxEntries: number = DEFAULT_RANKING_CACHE_SIZE,
  ) {
    this.entries = new QueryMemo(maxEntries);
  }

  rank(query: string): Promise<readonly string[]> {
    const key = queryKey(query);
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const ranking = this.ask(query);
    this.entries.set(key, ranking);
    ranking.catch(() => this.entries.forget(key, ranking));
    return ranking;
  }

  private async ask(query: string): Promise<readonly string[]> {
    const { endpoints } = this.catalog;
    const ranking = await this.router.rank({ query, catalogSize: this.catalog.endpoint_count, endpoints });
    const known = new Set(endpoints.map((e) => e.route_id));
    if (!Array.isArray(ranking) || !ranking.every((id) => known.has(id)))
      throw new FabenchError({
        kind: "input",
        stage: "router",
        code: "router_bad_response",
        message: `router ${this.router.id} ranked a route the catalog does not have`,
      });
    return ranking;
  }
}
