/**
 * How hard a frozen condition manifest is for the agent, read from the router's own ranks: the
 * share of required routes each condition shows in its first stage, and how often a route that is
 * not required outranks a required one (a hard negative the router mistook). Pure: the manifest
 * and each task's stratum and language in, shares out.
 */
import { compareCodePoints } from "../../core/index.ts";
import type { ConditionManifest, ManifestEntry } from "./manifest-schema.ts";

export interface TaskCell {
  readonly stratum: string;
  readonly language: string;
}

export interface CoverageRow {
  readonly condition: string;
  readonly catalog_size: number;
  /** `all`, `stratum` or `language`, and the group's name (`all` for the pooled row). */
  readonly scope: "all" | "stratum" | "language";
  readonly group: string;
  readonly tasks: number;
  /** Mean over tasks of (required routes visible in stage 1) ÷ (required routes). */
  readonly required_route_coverage: number;
  /** Share of tasks whose every required route is visible in stage 1. */
  readonly all_required_visible: number;
}

export interface OutrankRow {
  readonly catalog_size: number;
  readonly scope: "all" | "stratum" | "language";
  readonly group: string;
  readonly tasks: number;
  /** Share of tasks where some route that is not required ranks above one of the required routes. */
  readonly outranked: number;
}

export interface RoutingProfile {
  readonly router: string;
  readonly coverage: CoverageRow[];
  readonly outranked: OutrankRow[];
}

/** Required routes of an entry visible in a condition's first stage. */
function visibleShare(entry: ManifestEntry, condition: string): number {
  const required = Object.keys(entry.required_route_ranks);
  const first = entry.conditions[condition]?.stages[0];
  if (required.length === 0 || first === undefined || first === "all") return 1;
  const shown = new Set(first);
  return required.filter((r) => shown.has(r)).length / required.length;
}

/** With n required routes, some other route outranks one of them exactly when the worst rank exceeds n. */
function isOutranked(entry: ManifestEntry): boolean {
  const ranks = Object.values(entry.required_route_ranks);
  return ranks.length > 0 && Math.max(...ranks) > ranks.length;
}

type Group = { scope: "all" | "stratum" | "language"; group: string; entries: ManifestEntry[] };

function groups(entries: readonly ManifestEntry[], cells: ReadonlyMap<string, TaskCell>): Group[] {
  const by = (scope: "stratum" | "language") => {
    const names = [...new Set(entries.map((e) => cells.get(e.semantic_task_id)?.[scope] ?? "?"))];
    return names.map((group) => ({
      scope,
      group,
      entries: entries.filter((e) => (cells.get(e.semantic_task_id)?.[scope] ?? "?") === group),
    }));
  };
  return [{ scope: "all", group: "all", entries: [...entries] }, ...by("stratum"), ...by("language")];
}

/**
 * A condition whose one stage shows nothing in every entry is a search condition (#34): its router
 * decides nothing, the agent's searches do — `conditions profile --search` profiles it, not this.
 */
function showsNothing(entries: readonly ManifestEntry[], condition: string): boolean {
  return entries.every((e) => {
    const stages = e.conditions[condition]?.stages;
    return stages !== undefined && stages.length === 1 && Array.isArray(stages[0]) && stages[0].length === 0;
  });
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Strata and languages appear in the order of `cells` (the plan's order); sizes ascending. */
export function routingProfile(
  manifest: ConditionManifest,
  cells: ReadonlyMap<string, TaskCell>,
): RoutingProfile {
  // Plan order (the order of `cells`), then id: one position lookup per entry, not per comparison.
  const position = new Map([...cells.keys()].map((id, i) => [id, i]));
  const at = (id: string) => position.get(id) ?? -1;
  const ordered = [...manifest.entries].sort(
    (a, b) =>
      at(a.semantic_task_id) - at(b.semantic_task_id) ||
      compareCodePoints(a.semantic_task_id, b.semantic_task_id),
  );
  const sizes = [...new Set(ordered.map((e) => e.catalog_size))].sort((a, b) => a - b);
  const coverage: CoverageRow[] = [];
  const outranked: OutrankRow[] = [];
  for (const size of sizes) {
    const atSize = groups(
      ordered.filter((e) => e.catalog_size === size),
      cells,
    );
    for (const condition of manifest.conditions.filter((c) => !showsNothing(ordered, c)))
      for (const g of atSize)
        coverage.push({
          condition,
          catalog_size: size,
          scope: g.scope,
          group: g.group,
          tasks: g.entries.length,
          required_route_coverage: mean(g.entries.map((e) => visibleShare(e, condition))),
          all_required_visible: mean(g.entries.map((e) => (visibleShare(e, condition) === 1 ? 1 : 0))),
        });
    for (const g of atSize)
      outranked.push({
        catalog_size: size,
        scope: g.scope,
        group: g.group,
        tasks: g.entries.length,
        outranked: mean(g.entries.map((e) => (isOutranked(e) ? 1 : 0))),
      });
  }
  return { router: manifest.router.id, coverage, outranked };
}
