/**
 * A hit that carries the description the agent is shown, so `searchReply(outcome)` can answer with
 * names and descriptions without the catalog. Structurally a `SearchHit` (the contract's type).
 */
import type { Endpoint } from "../catalog/index.ts";
// The file, not the front door: the loop (execution/) imports this stage, so its index would close a cycle.
import { renderTool } from "../execution/render.ts";
import type { SearchHit } from "./types.ts";

export interface DescribedHit extends SearchHit {
  /** The rendered description (execution/render.ts `renderTool`). */
  readonly description: string;
}

export function describedHit(endpoint: Endpoint): DescribedHit {
  return {
    route_id: endpoint.route_id,
    function_name: endpoint.function_name,
    description: renderTool(endpoint).description,
  };
}

/** The description of a hit when it carries one (hits from `catalogSearch` always do). */
export function hitDescription(hit: SearchHit): string {
  const d = (hit as Partial<DescribedHit>).description;
  return typeof d === "string" ? d : "";
}
