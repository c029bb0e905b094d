/**
 * Building, hashing and checking the nested catalogs. The order of endpoints is fixed by the spec:
 * the base suite; then the first tier of hard negatives and distractors, interleaved tool by tool
 * (this is what the 100 catalog adds); then the second tier (what the 250 catalog adds); then a
 * spare tier. A catalog of size n is the first n endpoints, so the smaller always nests in the larger.
 */
import {
  canonicalSha256,
  compareCodePoints,
  type Problem,
  type Result,
  zodProblems,
} from "../../core/index.ts";
import { BASE_TOOLS } from "./base/index.ts";
import { DISTRACTORS_FIRST, DISTRACTORS_SECOND, DISTRACTORS_SPARE } from "./distractors/index.ts";
import { HARD_NEGATIVES_FIRST, HARD_NEGATIVES_SECOND } from "./hard-negatives/index.ts";
import { templateProblems } from "./replies.ts";
import { CATALOG_FORMAT, catalogSchema, endpointSchema, type Catalog, type Endpoint } from "./schema.ts";
import { toEndpoints, type ToolSpec } from "./spec.ts";

/** Catalog files are named by size inside their folder: `100.json`, `250.json`. */
export function catalogFileName(size: number): string {
  return `${size}.json`;
}

/** sha256(canonicalJson(sorted route ids)) — the catalog's identity. */
export function catalogSha256(routeIds: readonly string[]): string {
  return canonicalSha256([...routeIds].sort(compareCodePoints));
}

const endpointCount = (tools: readonly ToolSpec[]) => tools.reduce((n, t) => n + t.endpoints.length, 0);

/**
 * Hard-negative and distractor tools merged so that at every point each list has been emitted in
 * proportion to its endpoints (a hard-negative tool first on a tie): a catalog cut anywhere in a
 * tier holds both kinds in the tier's ratio.
 */
function interleave(hard: readonly ToolSpec[], other: readonly ToolSpec[]): Endpoint[] {
  const totalHard = Math.max(endpointCount(hard), 1);
  const totalOther = Math.max(endpointCount(other), 1);
  const out: Endpoint[] = [];
  let h = 0;
  let o = 0;
  let doneHard = 0;
  let doneOther = 0;
  while (h < hard.length || o < other.length) {
    const takeHard = o >= other.length || (h < hard.length && doneHard / totalHard <= doneOther / totalOther);
    if (takeHard) {
      const tool = hard[h++] as ToolSpec;
      out.push(...toEndpoints(tool, "hard_negative"));
      doneHard += tool.endpoints.length;
    } else {
      const tool = other[o++] as ToolSpec;
      out.push(...toEndpoints(tool, "distractor"));
      doneOther += tool.endpoints.length;
    }
  }
  return out;
}

/** The catalog's tiers in order: base, first, second, spare. */
export interface CatalogTiers {
  readonly base: readonly Endpoint[];
  readonly first: readonly Endpoint[];
  readonly second: readonly Endpoint[];
  readonly spare: readonly Endpoint[];
}

let tiers: CatalogTiers | undefined;

export function catalogTiers(): CatalogTiers {
  tiers ??= {
    base: BASE_TOOLS.flatMap((t) => toEndpoints(t, "base")),
    first: interleave(HARD_NEGATIVES_FIRST, DISTRACTORS_FIRST),
    second: interleave(HARD_NEGATIVES_SECOND, DISTRACTORS_SECOND),
    spare: DISTRACTORS_SPARE.flatMap((t) => toEndpoints(t, "distractor")),
  };
  return tiers;
}

/** Every endpoint the spec holds, in catalog order. */
export function allEndpoints(): Endpoint[] {
  const t = catalogTiers();
  return [...t.base, ...t.first, ...t.second, ...t.spare];
}

/**
 * What is wrong with the spec itself, each a sentence: an endpoint the schema refuses, a route id
 * twice, a description twice, a required parameter not declared, a hard negative imitating no base
 * route, a reply an endpoint of its kind must have and lacks, a placeholder naming nothing.
 */
export function specProblems(endpoints: readonly Endpoint[] = allEndpoints()): string[] {
  const problems: string[] = [];
  const baseRoutes = new Set(endpoints.filter((e) => e.role === "base").map((e) => e.route_id));
  const routes = new Set<string>();
  const descriptions = new Map<string, string>();
  for (const e of endpoints) {
    const parsed = endpointSchema.safeParse(e);
    if (!parsed.success)
      problems.push(`${e.route_id}: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
    if (routes.has(e.route_id)) problems.push(`${e.route_id}: the route id appears twice`);
    routes.add(e.route_id);
    const twin = descriptions.get(e.description);
    if (twin !== undefined) problems.push(`${e.route_id}: has the same description as ${twin}`);
    descriptions.set(e.description, e.route_id);
    for (const name of e.parameters.required)
      if (!Object.hasOwn(e.parameters.properties, name))
        problems.push(`${e.route_id}: requires ${name}, which it does not declare`);
    if (e.imitates !== undefined && !baseRoutes.has(e.imitates))
      problems.push(`${e.route_id}: imitates ${e.imitates}, which is not a base route`);
    const r = e.replies;
    if (r === undefined) problems.push(`${e.route_id}: has no replies`);
    else {
      if (r.validation_error === undefined) problems.push(`${e.route_id}: has no validation_error reply`);
      if (!e.read_only && r.success === undefined)
        problems.push(`${e.route_id}: writes but has no success reply`);
      if (e.read_only && r.not_found === undefined && r.empty === undefined)
        problems.push(`${e.route_id}: reads but has neither a not_found nor an empty reply`);
    }
    problems.push(...templateProblems(e));
  }
  return problems;
}

/** The first `size` endpoints: the base endpoints, then the tiers; so catalogs nest. */
export function buildCatalog(size: number): Catalog {
  const all = allEndpoints();
  const baseCount = catalogTiers().base.length;
  if (size < baseCount) throw new RangeError(`a catalog needs at least the ${baseCount} base endpoints`);
  if (size > all.length)
    throw new RangeError(`the catalog spec holds ${all.length} endpoints, fewer than ${size}`);
  const endpoints = all.slice(0, size);
  return {
    format: CATALOG_FORMAT,
    endpoint_count: endpoints.length,
    sha256: catalogSha256(endpoints.map((e) => e.route_id)),
    endpoints,
  };
}

/** Schema, count, hash and unique routes; every problem reported. */
export function parseCatalog(value: unknown, file: string): Result<Catalog> {
  const parsed = catalogSchema.safeParse(value);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, "invalid_catalog", file) };
  const catalog = parsed.data;
  const problems: Problem[] = [];
  const ids = catalog.endpoints.map((e) => e.route_id);
  if (catalog.endpoint_count !== ids.length)
    problems.push({
      code: "catalog_count_mismatch",
      file,
      message: `endpoint_count is ${catalog.endpoint_count} but there are ${ids.length} endpoints`,
    });
  if (new Set(ids).size !== ids.length)
    problems.push({ code: "catalog_duplicate_route", file, message: "a route id appears more than once" });
  const hash = catalogSha256(ids);
  if (hash !== catalog.sha256)
    problems.push({
      code: "catalog_hash_mismatch",
      file,
      message: `sha256 is ${catalog.sha256} but the route ids hash to ${hash}`,
    });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: catalog };
}

/** The smaller catalog must be exactly the first endpoints of the larger one. */
export function nestingProblems(
  catalogs: ReadonlyArray<{ size: number; catalog: Catalog; file: string }>,
): Problem[] {
  const sorted = [...catalogs].sort((a, b) => a.size - b.size);
  const problems: Problem[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const small = sorted[i - 1];
    const large = sorted[i];
    if (!small || !large) continue;
    const prefix = large.catalog.endpoints.slice(0, small.catalog.endpoints.length);
    if (canonicalSha256(prefix) !== canonicalSha256(small.catalog.endpoints))
      problems.push({
        code: "catalog_not_nested",
        file: small.file,
        message: `the ${small.size} catalog is not the first ${small.size} endpoints of the ${large.size} catalog`,
      });
  }
  return problems;
}
