/**
 * A run's plan against what an earlier, stopped run of it recorded: the trials still to run, and
 * the final records — kept and new in plan order, with the revisions both processes saw.
 */
import { readBytes } from "../core/index.ts";
import type { SeenRevisions } from "./api-revisions.ts";
import type { RawRecord } from "./records.ts";
import { readResumeState, type ResumeState } from "./resume.ts";
import { finalizeRecords, trialKey } from "./run.ts";
import type { PreparedRun } from "./run-setup.ts";
import type { PlannedTrial } from "./trial.ts";

/** What a new run resumes from: nothing. */
export const NOTHING_KEPT: ResumeState = { kept: [], tornBytes: 0, seen: { api: [], catalog: [] } };

/** The kept records of an earlier run (read only: the caller rewrites them once the run may go on). */
export function readResume(file: string, run: Pick<PreparedRun, "plan" | "model" | "metadata">): ResumeState {
  const { plan, model, metadata } = run;
  return readResumeState({ file, bytes: readBytes(file, "run"), plan, model, metadata });
}

/** The planned trials without a kept record. */
export function pendingTrials(plan: readonly PlannedTrial[], resumed: ResumeState): PlannedTrial[] {
  const finished = new Set(resumed.kept.map((r) => trialKey(r.task_id, r.trial)));
  return plan.filter((p) => !finished.has(trialKey(p.task.id, p.trial)));
}

/** Kept and new records in plan order, their observed revisions filled in from both processes. */
export function finalRecords(
  plan: readonly PlannedTrial[],
  resumed: ResumeState,
  records: readonly RawRecord[],
  now: SeenRevisions,
): RawRecord[] {
  const order = new Map(plan.map((p, i) => [trialKey(p.task.id, p.trial), i]));
  const at = (r: RawRecord) => order.get(trialKey(r.task_id, r.trial)) ?? 0;
  const sorted = [...resumed.kept, ...records].sort((a, b) => at(a) - at(b));
  const seen = {
    api: [...resumed.seen.api, ...now.api],
    catalog: [...resumed.seen.catalog, ...now.catalog],
  };
  return finalizeRecords(sorted, seen);
}
