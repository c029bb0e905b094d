/**
 * Noticing a router that ranks nothing. External routers' answers are completed (every route the
 * router did not name follows in id order, external.ts), so a router that names no route — an
 * empty list, or only names the catalog lacks — still yields a full ranking: the catalog in id
 * order, and a manifest whose top-k conditions show the first routes by name. Nothing fails; the
 * freeze only says so. Seen from outside the router: a ranking that is exactly the id order.
 */
import { compareCodePoints } from "../../core/index.ts";
import type { RankRequest, Router } from "./types.ts";

export interface UnrankedWatch {
  /** The same router (id and config unchanged, so the manifest is the same), counting. */
  readonly router: Router;
  /** Rankings returned so far, and those that were the catalog in id order. */
  counts(): { rankings: number; unranked: number; first: RankRequest | null };
  /** `unrankedWarning` of what was counted, as a list (empty or one line). */
  warnings(out: string): string[];
}

/** Whether `ranking` is every route of the catalog in id order: what naming no route gives. */
export function namesNoRoute(ranking: readonly string[], request: RankRequest): boolean {
  if (ranking.length !== request.endpoints.length || ranking.length < 2) return false;
  for (let i = 1; i < ranking.length; i++)
    if (compareCodePoints(ranking[i - 1] as string, ranking[i] as string) >= 0) return false;
  return true;
}

export function watchUnranked(router: Router): UnrankedWatch {
  let rankings = 0;
  let unranked = 0;
  let first: RankRequest | null = null;
  const rank = async (request: RankRequest) => {
    const ranking = await router.rank(request);
    rankings += 1;
    if (namesNoRoute(ranking, request)) {
      unranked += 1;
      first ??= request;
    }
    return ranking;
  };
  const watch: UnrankedWatch = {
    router: { id: router.id, config: router.config, rank },
    counts: () => ({ rankings, unranked, first }),
    warnings: (out) => {
      const line = unrankedWarning(watch, out);
      return line === null ? [] : [line];
    },
  };
  return watch;
}

/**
 * `file: router_ranked_nothing: …` when the router named no route for some query, else null: the
 * manifest is written all the same, its top-k conditions showing routes by name.
 */
export function unrankedWarning(watch: UnrankedWatch, out: string): string | null {
  const { rankings, unranked, first } = watch.counts();
  if (unranked === 0 || first === null) return null;
  const query =
    first.query.length > 60 ? `${JSON.stringify(first.query.slice(0, 60))}…` : JSON.stringify(first.query);
  return `${out}: router_ranked_nothing: router ${watch.router.id} ranked no route for ${unranked} of ${rankings} task × catalog rankings (first: catalog ${first.catalogSize}, query ${query}); those rankings are the catalog in id order, so their top-k conditions show the first routes by name — check what the router answers`;
}
