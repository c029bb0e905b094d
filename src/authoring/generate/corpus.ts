/** `corpus generate`: one task per plan slot, deterministic, with its provenance hashes. */
import type { Plan } from "../plan.ts";
import type { Protocol } from "../protocol.ts";
import type { Task } from "../task.ts";
import { CORPUS_FORMAT, freezeIdentitySha256, tasksSha256, type CorpusHeader } from "../corpus-file.ts";
import { stratumContent, taskIds, ANALYST_EMAIL } from "./strata.ts";
import { CASE_TAGS, WORDING } from "./wording.ts";

/** Slot position p (0-based, plan order) has index k = FIRST_INDEX + p. */
export const FIRST_INDEX = 20001;

export interface GenerateInput {
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: ReadonlyArray<{ size: number; sha256: string }>;
  readonly sourceRevision: string;
}

export function generateTasks(plan: Plan): Task[] {
  return plan.slots.map((slot, position) => {
    const ids = taskIds(FIRST_INDEX + position);
    const template = WORDING[slot.answer_task_stratum]?.[slot.language];
    const tag = CASE_TAGS[slot.language];
    if (template === undefined || tag === undefined)
      throw new Error(`no wording for stratum ${slot.answer_task_stratum} in language ${slot.language}`);
    const query = template
      .replace("{tag}", tag.replace("{k}", String(ids.k)))
      .replace("{mat}", ids.mat)
      .replace("{paper}", ids.paper)
      .replace("{rt}", ids.runtime)
      .replace("{email}", ANALYST_EMAIL);
    return {
      semantic_task_id: slot.semantic_task_id,
      answer_task_stratum: slot.answer_task_stratum,
      language: slot.language,
      query,
      ...stratumContent(slot.answer_task_stratum, ids),
    };
  });
}

export function generateCorpus(input: GenerateInput): CorpusHeader {
  const tasks = generateTasks(input.plan);
  const conditions = input.protocol.conditions.map((c) => c.id);
  return {
    format: CORPUS_FORMAT,
    protocol_id: input.protocol.protocol_id,
    protocol_sha256: input.protocolSha256,
    plan_slots_sha256: input.plan.slots_sha256,
    catalogs: [...input.catalogs].sort((a, b) => a.size - b.size).map(({ size, sha256 }) => ({ size, sha256 })),
    generator_source_revision: input.sourceRevision,
    conditions,
    freeze_identity_sha256: freezeIdentitySha256(input.sourceRevision, input.plan.slots_sha256, conditions),
    task_count: tasks.length,
    tasks_sha256: tasksSha256(tasks),
    tasks,
  };
}
