/** The frozen corpus file: provenance hashes, then the tasks. */
import { z } from "zod";
import { canonicalSha256 } from "../core/index.ts";

/**
 * v2 (#26): tasks carry an answer form, evidence pointers and a fixture of responses. v3 (#32):
 * facts list every record that holds their value (`also_in`), text fields their options, and
 * argument rules compare instants, search terms and booking slots by meaning.
 */
export const CORPUS_FORMAT = "fabench-corpus/v3";

const sha = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex SHA-256");

export const corpusHeaderSchema = z.strictObject({
  format: z.literal(CORPUS_FORMAT),
  protocol_id: z.string().min(1),
  protocol_sha256: sha,
  plan_slots_sha256: sha,
  catalogs: z.array(z.strictObject({ size: z.number().int().positive(), sha256: sha })),
  generator_source_revision: z.string().regex(/^[0-9a-f]{40}$/, "a 40-hex git revision"),
  conditions: z.array(z.string().min(1)),
  freeze_identity_sha256: sha,
  task_count: z.number().int().nonnegative(),
  tasks_sha256: sha,
  tasks: z.array(z.unknown()),
});

export type CorpusHeader = z.infer<typeof corpusHeaderSchema>;

/** sha256 over {source revision, plan slot hash, condition list}: what froze this corpus. */
export function freezeIdentitySha256(
  sourceRevision: string,
  planSlotsSha256: string,
  conditions: readonly string[],
): string {
  return canonicalSha256({
    generator_source_revision: sourceRevision,
    plan_slots_sha256: planSlotsSha256,
    conditions,
  });
}

export function tasksSha256(tasks: readonly unknown[]): string {
  return canonicalSha256(tasks);
}
