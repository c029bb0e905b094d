/** Building, hashing and checking the nested catalogs. */
import { canonicalSha256, compareCodePoints, zodProblems, } from "../../core/index.js";
import { baseEndpoints } from "./base.js";
import { distractorEndpoint } from "./distractors.js";
import { HARD_NEGATIVES, hardNegativeEndpoint } from "./hard-negatives.js";
import { CATALOG_FORMAT, catalogSchema } from "./schema.js";
/** Catalog files are named by size inside their folder: `100.json`, `250.json`. */
export function catalogFileName(size) {
    return `${size}.json`;
}
/** sha256(canonicalJson(sorted route ids)) — the catalog's identity. */
export function catalogSha256(routeIds) {
    return canonicalSha256([...routeIds].sort(compareCodePoints));
}
/**
 * Distractor n after the base endpoints: every other one is a hard negative while they last (so
 * the smallest catalog already holds half of them), the rest generic neighbours.
 */
function distractor(n) {
    const hard = n % 2 === 0 ? HARD_NEGATIVES[n / 2] : undefined;
    if (hard)
        return hardNegativeEndpoint(hard);
    const generic = n < 2 * HARD_NEGATIVES.length ? (n - 1) / 2 : n - HARD_NEGATIVES.length;
    return distractorEndpoint(generic);
}
/** The first `size` endpoints: the base endpoints, then distractors 0, 1, …; so catalogs nest. */
export function buildCatalog(size) {
    const base = baseEndpoints();
    if (size < base.length)
        throw new RangeError(`a catalog needs at least the ${base.length} base endpoints`);
    const endpoints = [...base];
    for (let n = 0; endpoints.length < size; n++)
        endpoints.push(distractor(n));
    return {
        format: CATALOG_FORMAT,
        endpoint_count: endpoints.length,
        sha256: catalogSha256(endpoints.map((e) => e.route_id)),
        endpoints,
    };
}
/** Schema, count, hash and unique routes; every problem reported. */
export function parseCatalog(value, file) {
    const parsed = catalogSchema.safeParse(value);
    if (!parsed.success)
        return { ok: false, problems: zodProblems(parsed.error, "invalid_catalog", file) };
    const catalog = parsed.data;
    const problems = [];
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
export function nestingProblems(catalogs) {
    const sorted = [...catalogs].sort((a, b) => a.size - b.size);
    const problems = [];
    for (let i = 1; i < sorted.length; i++) {
        const small = sorted[i - 1];
        const large = sorted[i];
        if (!small || !large)
            continue;
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
