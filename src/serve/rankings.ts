/**
 * The router's rankings, asked once per distinct query and kept (bounded, least recently used
 * dropped first): the same query then gets the same answer for as long as the server runs, even
 * from a command or HTTP router that is not deterministic, and a load of repeated queries costs one
 * router call each. Queries in flight are shared; a failed one is forgotten, so the next asks again.
 */
import type { Catalog } from "../conditions/catalog/index.ts";
import type { Router } from "../conditions/routing/index.ts";
import { FabenchError, sha256Hex } from "../core/index.ts";

export const DEFAULT_RANKING_CACHE_SIZE = 1_000;

export class RankingCache {
  // Keyed by the query's sha256: a long query costs 64 characters here, not its length.
  private readonly entries = new Map<string, Promise<readonly string[]>>();

  constructor(
    private readonly router: Router,
    private readonly catalog: Catalog,
    private readonly maxEntries: number = DEFAULT_RANKING_CACHE_SIZE,
  ) {}

  rank(query: string): Promise<readonly string[]> {
    const key = sha256Hex(query);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const ranking = this.ask(query);
    this.entries.set(key, ranking);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    ranking.catch(() => {
      if (this.entries.get(key) === ranking) this.entries.delete(key);
    });
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
