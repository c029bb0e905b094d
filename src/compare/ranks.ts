/**
 * Both routers' ranks of each task's required routes, side by side: from the two condition
 * manifests, each matched to its summary by the hash the summary's runs record
 * (`run.condition_manifest_sha256`), so a rank is never shown beside scores it did not produce.
 */
import type { ConditionManifest } from "../conditions/routing/index.ts";
import { compareCodePoints, inputError, taskSizeKey } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";
import type { RankRow } from "./schema.ts";

export interface NamedManifest {
  readonly path: string;
  readonly manifest: ConditionManifest;
  /** Given by the user (refused when it matches neither summary), or a default such as a pilot's own (skipped then). */
  readonly given: boolean;
}

export interface Assigned {
  readonly a: NamedManifest | null;
  readonly b: NamedManifest | null;
}

/** Each manifest to the side whose runs it froze; a given manifest that matches neither is refused (exit 2). */
export function assignManifests(manifests: readonly NamedManifest[], A: Summary, B: Summary): Assigned {
  let a: NamedManifest | null = null;
  let b: NamedManifest | null = null;
  for (const m of manifests) {
    const sha = m.manifest.manifest_sha256;
    const matched = sha === A.run.condition_manifest_sha256 || sha === B.run.condition_manifest_sha256;
    if (!matched && m.given)
      throw inputError(
        "compare",
        "compare_manifest_not_in_summaries",
        `its manifest_sha256 ${sha.slice(0, 12)}… is neither A's condition manifest (${A.run.condition_manifest_sha256.slice(0, 12)}…) nor B's (${B.run.condition_manifest_sha256.slice(0, 12)}…); give the manifests the two runs were made with`,
        { file: m.path },
      );
    if (sha === A.run.condition_manifest_sha256 && (a === null || !a.given)) a = m;
    if (sha === B.run.condition_manifest_sha256 && (b === null || !b.given)) b = m;
  }
  return { a, b };
}

/** A row per required route of every compared task × catalog size, in task, size and route order. */
export function rankRows(
  assigned: Assigned,
  taskIds: readonly string[],
  sizes: readonly number[],
): RankRow[] {
  const index = (m: NamedManifest | null) =>
    new Map((m?.manifest.entries ?? []).map((e) => [taskSizeKey(e), e.required_route_ranks]));
  const a = index(assigned.a);
  const b = index(assigned.b);
  if (a.size === 0 && b.size === 0) return [];
  const rows: RankRow[] = [];
  for (const semantic_task_id of taskIds)
    for (const catalog_size of sizes) {
      const k = taskSizeKey({ semantic_task_id, catalog_size });
      const ranksA = a.get(k) ?? {};
      const ranksB = b.get(k) ?? {};
      const routes = [...new Set([...Object.keys(ranksA), ...Object.keys(ranksB)])].sort(compareCodePoints);
      for (const route of routes)
        rows.push({
          semantic_task_id,
          catalog_size,
          route,
          a: ranksA[route] ?? null,
          b: ranksB[route] ?? null,
        });
    }
  return rows;
}

/** Per catalog size: how many required routes B ranks better (lower), worse and the same as A, and each side's mean rank. */
export interface RankSummary {
  readonly catalog_size: number;
  readonly routes: number;
  readonly better: number;
  readonly worse: number;
  readonly same: number;
  readonly meanA: number | null;
  readonly meanB: number | null;
}

export function summarizeRanks(rows: readonly RankRow[], sizes: readonly number[]): RankSummary[] {
  return sizes.map((catalog_size) => {
    const here = rows.filter((r) => r.catalog_size === catalog_size);
    const both = here.filter((r) => r.a !== null && r.b !== null) as Array<
      RankRow & { a: number; b: number }
    >;
    const mean = (xs: readonly (number | null)[]) => {
      const defined = xs.filter((x): x is number => x !== null);
      return defined.length === 0 ? null : defined.reduce((s, x) => s + x, 0) / defined.length;
    };
    return {
      catalog_size,
      routes: here.length,
      better: both.filter((r) => r.b < r.a).length,
      worse: both.filter((r) => r.b > r.a).length,
      same: both.filter((r) => r.b === r.a).length,
      meanA: mean(here.map((r) => r.a)),
      meanB: mean(here.map((r) => r.b)),
    };
  });
}

/** What to give to see the ranks a side lacks (null when both are there). */
export function ranksAdvice(assigned: Assigned, A: Summary, B: Summary): string | null {
  const missing = [
    ...(assigned.a ? [] : [`A's (manifest_sha256 ${A.run.condition_manifest_sha256.slice(0, 12)}…)`]),
    ...(assigned.b ? [] : [`B's (manifest_sha256 ${B.run.condition_manifest_sha256.slice(0, 12)}…)`]),
  ];
  if (missing.length === 0) return null;
  return `routers' ranks of the required routes: give the condition manifest${missing.length > 1 ? "s" : ""} ${missing.join(" and ")} with --manifest FILE (repeatable; each is matched to its summary by hash)`;
}
