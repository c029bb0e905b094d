/**
 * `corpus generate`: assembles the hand-authored task files (tasks/authored/<stratum>.json) into
 * the frozen corpus — tasks in plan order, then the provenance hashes. It invents no wording and
 * no values; the full checker then decides whether the result may be written.
 */
import { z } from "zod";
import type { Plan } from "../plan.ts";
import type { Protocol } from "../protocol.ts";
import { CORPUS_FORMAT, freezeIdentitySha256, tasksSha256, type CorpusHeader } from "../corpus-file.ts";

/**
 * v2 (#26): tasks in the answer-form contract (evidence pointers, a fixture of responses). v3 (#32):
 * `also_in`, `options`, and the `instant` / `terms` / `fits_slot` argument rules.
 */
export const AUTHORED_FORMAT = "fabench-authored-tasks/v3";

/** One authored file: the tasks of one stratum, each checked later against the task contract. */
export const authoredFileSchema = z.strictObject({
  format: z.literal(AUTHORED_FORMAT),
  stratum: z.string().min(1),
  tasks: z.array(z.unknown()),
});

export type AuthoredFile = z.infer<typeof authoredFileSchema>;

export interface GenerateInput {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: ReadonlyArray<{ size: number; sha256: string }>;
  readonly sourceRevision: string;
  readonly authored: readonly AuthoredFile[];
}

const idOf = (task: unknown): unknown =>
  typeof task === "object" && task !== null
    ? (task as Record<string, unknown>)["semantic_task_id"]
    : undefined;

/**
 * Every authored task, in plan order; tasks whose id is not a slot (or repeats one) follow in file
 * order, so identity validation names them instead of this step dropping them silently.
 */
export function assembleTasks(plan: Plan, authored: readonly AuthoredFile[]): unknown[] {
  const all = authored.flatMap((f) => f.tasks);
  const first = new Map<unknown, unknown>();
  const rest: unknown[] = [];
  for (const task of all) {
    const id = idOf(task);
    if (typeof id === "string" && !first.has(id)) first.set(id, task);
    else rest.push(task);
  }
  const planned = plan.slots.flatMap((slot) =>
    first.has(slot.semantic_task_id) ? [first.get(slot.semantic_task_id)] : [],
  );
  const slotIds = new Set(plan.slots.map((s) => s.semantic_task_id));
  const unplanned = [...first.entries()].filter(([id]) => !slotIds.has(id as string)).map(([, task]) => task);
  return [...planned, ...unplanned, ...rest];
}

export function generateCorpus(input: GenerateInput): CorpusHeader {
  const tasks = assembleTasks(input.plan, input.authored);
  const conditions = input.protocol.conditions.map((c) => c.id);
  return {
    format: CORPUS_FORMAT,
    protocol_id: input.protocol.protocol_id,
    protocol_sha256: input.protocolSha256,
    plan_slots_sha256: input.plan.slots_sha256,
    catalogs: [...input.catalogs]
      .sort((a, b) => a.size - b.size)
      .map(({ size, sha256 }) => ({ size, sha256 })),
    generator_source_revision: input.sourceRevision,
    conditions,
    freeze_identity_sha256: freezeIdentitySha256(input.sourceRevision, input.plan.slots_sha256, conditions),
    task_count: tasks.length,
    tasks_sha256: tasksSha256(tasks),
    tasks,
  };
}
