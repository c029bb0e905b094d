/**
 * The frozen condition manifest: for every task × catalog size, what each condition shows the
 * agent. A router produces it once; runs replay it and never call the router.
 */
import { z } from "zod";
export const CONDITION_MANIFEST_FORMAT = "fabench-condition-manifest/v1";
const sha = z.string().regex(/^[0-9a-f]{64}$/);
/** One stage of visible routes, sorted by route id; "all" means every route of the catalog. */
export const stageSchema = z.union([z.literal("all"), z.array(z.string().min(1))]);
export const manifestEntrySchema = z.strictObject({
    semantic_task_id: z.string().min(1),
    catalog_size: z.number().int().positive(),
    /** 1-based rank of each required route in the router's ranking (scores are never recorded). */
    required_route_ranks: z.record(z.string(), z.number().int().positive()),
    conditions: z.record(z.string(), z.strictObject({ stages: z.array(stageSchema).min(1) })),
});
export const conditionManifestSchema = z.strictObject({
    format: z.literal(CONDITION_MANIFEST_FORMAT),
    protocol_id: z.string(),
    protocol_sha256: sha,
    plan_slots_sha256: sha,
    corpus_tasks_sha256: sha,
    catalogs: z.array(z.strictObject({ size: z.number().int().positive(), sha256: sha })),
    router: z.strictObject({ id: z.string().min(1), config_sha256: sha, config: z.json() }),
    conditions: z.array(z.string().min(1)),
    entries: z.array(manifestEntrySchema),
    manifest_sha256: sha,
});
