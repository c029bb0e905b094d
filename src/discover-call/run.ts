/**
 * The Discover → Call runner (issue #17, item 4): the plan, trials in flight, records in plan order,
 * the cap on billed calls, and the final fill of the observed revisions. No files here: records go
 * to `deps.write` one by one, in plan order, and the shell (src/commands/discover-call/run.ts) appends
 * them and makes the final, atomic rewrite.
 *
 * Plan order is tasks in file order, trials 1..N within each: `catalog_observation_sha256` hashes the
 * discovery results in that order, so a record that finishes early waits for its predecessors.
 * Trials start in plan order and every started trial runs to its record, so what has been written
 * is always a whole prefix of the plan — the state `--resume` continues from.
 *
 * `--max-calls N` is a hard cap on billed executes made by one invocation. A trial may make at most
 * one, so each trial of an `--execute` run holds a permit from its start until it ends; a trial
 * starts only while calls made plus permits held stay below N, and a trial that ends before its call
 * returns its permit. When no permit is left and nothing is in flight, the run stops before the next
 * trial: the calls made never exceed N, and the file is a plan prefix that `--resume` continues.
 *
 * The circuit breaker (issue #25): a trial that failed at the API with an infrastructure code (no
 * connection, a timeout, 429, 5xx; api-health.ts) is held back instead of written. The next record
 * of another kind writes the held ones after all — a lone network blip is part of the measurement,
 * as the reference runner records it — but when `breaker` consecutive trials in plan order fail
 * with the same such code, the run stops starting trials and drops the held records and every
 * record after them. The file stays a plan prefix of records the reference runner would also
 * write, and `--resume`, which never reruns a recorded trial, runs the dropped ones again: an API
 * that was down measured nothing.
 */
import { sha256Hex } from "../core/index.ts";
import { isInfrastructureCode } from "./api-health.ts";
import { summarizeRevisions, type SeenRevisions } from "./api-revisions.ts";
import type { RawRecord } from "./records.ts";
import type { DiscoverCallTask } from "./tasks.ts";
import { type PlannedTrial, runTrial, type TrialContext, type TrialDeps } from "./trial.ts";

/** The fields a run fills in at its final write; they hold this while it runs. */
export const PENDING = "pending";
export const OBSERVED_FIELDS = ["api_revision", "catalog_revision", "catalog_observation_sha256"] as const;

/** Every trial of a run, in plan order. */
export function planTrials(tasks: readonly DiscoverCallTask[], trials: number): PlannedTrial[] {
  return tasks.flatMap((task) => Array.from({ length: trials }, (_, i) => ({ task, trial: i + 1 })));
}

export function trialKey(taskId: string, trial: number): string {
  return JSON.stringify([taskId, trial]);
}

export interface RunSettings {
  /** Trials in flight at once. */
  readonly concurrency: number;
  /** At most this many billed executes in this invocation; null: no cap. Ignored in a dry run. */
  readonly maxCalls: number | null;
  /**
   * Stop after this many consecutive trials (plan order) fail at the API with the same
   * infrastructure code, and write none of them; null: never.
   */
  readonly breaker: number | null;
}

/** Consecutive infrastructure failures of one code that stop a run, unless told otherwise. */
export const DEFAULT_BREAKER_TRIALS = 3;

export interface RunDeps extends TrialDeps {
  readonly newRunId: () => string;
  /** A fresh random id per trial; never derived from the run id, never stored. */
  readonly newSessionId: () => string;
  /** Called once per record, in plan order. */
  readonly write: (record: RawRecord) => void;
  /** Records written so far and the trials of this call. */
  readonly progress?: (done: number, total: number) => void;
  /** Checked before each trial starts (Ctrl-C): the trials in flight still finish. */
  readonly shouldStop?: () => boolean;
}

export type StopReason = "max_calls" | "interrupted" | "api_unavailable";

/** What tripped the breaker: the code, and the consecutive trials that failed with it (not written). */
export interface BreakerTrip {
  readonly code: string;
  readonly trials: number;
}

export interface RunOutcome {
  /** The records written, in plan order: a prefix of `pending`. */
  readonly records: RawRecord[];
  /** Billed executes made. */
  readonly calls: number;
  /** Why the run ended before its last trial; null when every trial ran. */
  readonly stopped: StopReason | null;
  /** Set when the breaker stopped the run (`stopped` is then `api_unavailable`). */
  readonly tripped: BreakerTrip | null;
}

/** The infrastructure code a record failed with at the API, or null. */
export function infrastructureFailure(record: RawRecord): string | null {
  const error = record.error;
  return error?.stage === "api" && isInfrastructureCode(error.reason_code) ? error.reason_code : null;
}

/** Runs `pending` (a plan, or the rest of one) with at most `concurrency` trials in flight. */
export function runTrials(
  pending: readonly PlannedTrial[],
  context: TrialContext,
  settings: RunSettings,
  deps: RunDeps,
): Promise<RunOutcome> {
  const cap = context.metadata.execute ? settings.maxCalls : null;
  let next = 0;
  let inFlight = 0;
  let calls = 0;
  let stopped: StopReason | null = null;
  let failure: { error: unknown } | null = null;
  const order = planOrder(settings.breaker, deps.write, () => {
    stopped = "api_unavailable";
  });

  return new Promise((resolve, reject) => {
    const settle = () => {
      if (inFlight > 0) return;
      // Held failures that did not trip the breaker are measurements after all.
      if (failure === null && order.tripped() === null)
        try {
          order.release();
        } catch (error) {
          failure = { error };
        }
      if (failure !== null) reject(failure.error);
      else resolve({ records: order.records, calls, stopped, tripped: order.tripped() });
    };
    const finish = (index: number, record: RawRecord) => {
      inFlight -= 1;
      if (record.call.attempted) calls += 1;
      if (failure !== null) return settle();
      try {
        order.add(index, record);
        deps.progress?.(order.records.length, pending.length);
      } catch (error) {
        failure ??= { error };
      }
      pump();
    };
    const start = (index: number) => {
      const ids = { runId: deps.newRunId(), sessionId: deps.newSessionId() };
      if (ids.sessionId === ids.runId) {
        failure ??= { error: new Error("a trial's session id must differ from its run id") };
        return;
      }
      inFlight += 1;
      runTrial(pending[index] as PlannedTrial, ids, context, deps).then(
        (record) => finish(index, record),
        (error: unknown) => {
          inFlight -= 1;
          failure ??= { error };
          settle();
        },
      );
    };
    const pump = () => {
      while (
        failure === null &&
        stopped === null &&
        inFlight < settings.concurrency &&
        next < pending.length
      ) {
        if (deps.shouldStop?.() === true) stopped = "interrupted";
        // Permits held = trials in flight (each may still make its one call).
        else if (cap !== null && calls + inFlight >= cap) {
          if (inFlight === 0) stopped = "max_calls";
          break;
        } else start(next++);
      }
      settle();
    };
    pump();
  });
}

/** Finished trials put back in plan order and passed through the breaker. */
interface PlanOrder {
  /** The records written, in plan order. */
  readonly records: RawRecord[];
  /** Trial `index` of the plan has its record; every record now ready in plan order is taken. */
  add(index: number, record: RawRecord): void;
  /** Writes the held records after all. */
  release(): void;
  tripped(): BreakerTrip | null;
}

/** The plan-order buffer and the breaker; `onTrip` is called when `breaker` held failures stop the run. */
function planOrder(
  breaker: number | null,
  write: (record: RawRecord) => void,
  onTrip: () => void,
): PlanOrder {
  const done = new Map<number, RawRecord>();
  const records: RawRecord[] = [];
  /** The current streak of infrastructure failures of one code, in plan order, not yet written. */
  const held: RawRecord[] = [];
  let heldCode: string | null = null;
  let tripped: BreakerTrip | null = null;
  /** Records taken from `done` in plan order: written, held or (after a trip) dropped. */
  let consumed = 0;

  const emit = (record: RawRecord) => {
    write(record);
    records.push(record);
  };
  const release = () => {
    for (const record of held.splice(0)) emit(record);
    heldCode = null;
  };
  /** The next record in plan order: written, held back, or the one that trips the breaker. */
  const take = (record: RawRecord) => {
    if (tripped !== null) return;
    const code = breaker === null ? null : infrastructureFailure(record);
    if (code === null) {
      release();
      emit(record);
      return;
    }
    if (code !== heldCode) release();
    heldCode = code;
    held.push(record);
    if (held.length >= (breaker as number)) {
      tripped = { code, trials: held.length };
      onTrip();
    }
  };
  return {
    records,
    add(index, record) {
      done.set(index, record);
      for (; done.has(consumed); consumed++) {
        const ready = done.get(consumed) as RawRecord;
        done.delete(consumed);
        take(ready);
      }
    },
    release,
    tripped: () => tripped,
  };
}

/** SHA-256 of `[{task_id, trial, result_tool_ids}, …]` in record order, as the reference writes it. */
export function catalogObservationSha256(records: readonly RawRecord[]): string {
  const observation = records.map((r) => ({
    task_id: r.task_id,
    trial: r.trial,
    result_tool_ids: r.discovery.result_tool_ids,
  }));
  return sha256Hex(JSON.stringify(observation));
}

/**
 * The records as the final write leaves them: the observed revisions and the catalog observation in
 * place of `pending`, each field where it was. `seen` merges every process of a resumed run.
 */
export function finalizeRecords(records: readonly RawRecord[], seen: SeenRevisions): RawRecord[] {
  const observed = {
    ...summarizeRevisions(seen),
    catalog_observation_sha256: catalogObservationSha256(records),
  };
  return records.map((record) => ({ ...record, metadata: { ...record.metadata, ...observed } }));
}

/** The same records with the observed fields back at `pending`, as a run holds them. */
export function pendingRecords(records: readonly RawRecord[]): RawRecord[] {
  return records.map((record) => ({
    ...record,
    metadata: {
      ...record.metadata,
      api_revision: PENDING,
      catalog_revision: PENDING,
      catalog_observation_sha256: PENDING,
    },
  }));
}
