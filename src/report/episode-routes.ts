/**
 * The routes an episode's condition showed, from the frozen condition manifest: each stage's routes
 * (the required ones marked, the required ones it did not show named), and the router's rank of
 * every required route. Stages the episode never reached (the run record's candidate history) are
 * said to be unreached.
 */
import type { RouteEntry, RouteStage } from "./episode-sources.ts";
import { escape } from "./svg.ts";

/** A stage with more routes than this is folded. */
const FOLD_ROUTES = 12;

export interface RouteContext {
  readonly condition: string;
  readonly catalogSize: number;
  /** The task's required routes (from the corpus); else the manifest's ranked ones. */
  readonly required: readonly string[];
  /** The last stage the episode reached (run record); undefined without the run file. */
  readonly reached?: number;
}

const code = (route: string) => `<code>${escape(route)}</code>`;

/** The routes one stage showed, the required ones marked ★, folded when long. */
function stageLine(stage: RouteStage, index: number, context: RouteContext): string {
  const reached = context.reached === undefined || index <= context.reached;
  const state = reached ? "" : ' <span class="muted">(not reached)</span>';
  if (stage === "all")
    return `<li>stage ${index}: all ${context.catalogSize} routes of the catalog${state}</li>`;
  const shown = new Set(stage);
  const missing = context.required.filter((r) => !shown.has(r));
  const routes = stage
    .map((r) => (context.required.includes(r) ? `<strong>★ ${code(r)}</strong>` : code(r)))
    .join(", ");
  const list =
    stage.length > FOLD_ROUTES
      ? `<details><summary>${stage.length} routes</summary>${routes}</details>`
      : `${stage.length} route${stage.length === 1 ? "" : "s"}: ${routes}`;
  const notShown =
    missing.length === 0
      ? ""
      : ` <span class="no">— required, not shown: ${missing.map(code).join(", ")}</span>`;
  return `<li>stage ${index}${state}: ${list}${notShown}</li>`;
}

/** Required routes shown by any stage the episode reached (every stage, without the run file). */
function shownRequired(stages: readonly RouteStage[], context: RouteContext): Set<string> {
  const reached = stages.filter((_, i) => context.reached === undefined || i <= context.reached);
  return new Set(context.required.filter((r) => reached.some((s) => s === "all" || s.includes(r))));
}

export function routesSection(entry: RouteEntry | undefined, context: RouteContext): string {
  if (entry === undefined)
    return `<p class="muted">The condition manifest has no entry for this task at catalog size ${context.catalogSize}.</p>`;
  const stages = entry.conditions[context.condition]?.stages;
  const shown = stages === undefined ? new Set<string>() : shownRequired(stages, context);
  const ranks = context.required.map((r) => {
    const rank = entry.required_route_ranks[r];
    const mark =
      stages === undefined
        ? ""
        : shown.has(r)
          ? ' <span class="ok">shown</span>'
          : ' <span class="no">not shown</span>';
    return `<li>${code(r)}: rank ${rank === undefined ? "–" : rank}${mark}</li>`;
  });
  const head = `<p>The router's rank of each required route (1 is first)${stages === undefined ? "" : ` and whether ${escape(context.condition)} showed it`}:</p><ul class="ranks">${ranks.join("")}</ul>`;
  if (stages === undefined)
    return `${head}<p class="muted">${escape(context.condition)} has no routes in the manifest: under a search condition the agent's searches (in the trajectory) chose the routes.</p>`;
  return `${head}<p>Routes ${escape(context.condition)} showed, by stage (★ required):</p><ul class="stages">${stages.map((s, i) => stageLine(s, i, context)).join("")}</ul>`;
}
