/**
 * Batch mode: every pending episode advances one turn per provider batch (Anthropic Message
 * Batches, the OpenAI Batch API — half price). Episodes run side by side; each turn's request
 * waits here until every episode still running is waiting too, then they all go in one batch.
 *
 * A checkpoint (next to the run file) keeps each batch's id and every finished turn's reply,
 * keyed by the request's custom id and the SHA-256 of the request itself. After an interruption,
 * a turn whose identical request already has a reply is answered from the checkpoint, and a turn
 * in a batch that was still running is attached to that batch: nothing is resubmitted.
 *
 * A submission is recorded before it is sent (id null, with a fingerprint of its requests) and
 * gets its id once the provider answers, so a crash or a lost answer in between leaves a
 * submission whose fate is unknown rather than none at all. On resume such a submission is looked
 * up by its fingerprint where the provider keeps one (OpenAI batch metadata) — attached if found,
 * forgotten if not — and otherwise the run stops before sending anything, unless told to submit
 * those requests again (`resubmitUnknown`), because they may already be paid for.
 */
import {
  canonicalSha256,
  decodeUtf8,
  FabenchError,
  interruptedError,
  parseJsonText,
  readBytes,
  writeJsonAtomic,
} from "../../core/index.ts";
import { existsSync } from "node:fs";
import type { ProviderReply, ProviderRequest } from "../types.ts";
import { DEFAULT_RETRY, withRetries, type RetryPolicy, type Timing } from "../reliability.ts";

export type BatchStatus = "in_progress" | "ended" | "failed";
export type BatchOutcome = { ok: true; reply: ProviderReply } | { ok: false; code: string };

export interface BatchProvider {
  readonly name: string;
  /** Submits once (no automatic retry: a retried create can make a second, paid batch). */
  create(
    items: ReadonlyArray<{ customId: string; request: ProviderRequest }>,
    submission: string,
  ): Promise<string>;
  status(batchId: string): Promise<BatchStatus>;
  results(batchId: string): Promise<Map<string, BatchOutcome>>;
  /** The id of the batch created with this submission fingerprint, or null; absent when the provider keeps none. */
  find?(submission: string): Promise<string | null>;
}

/** Thrown by a provider's `create` when the request failed with an answer: no batch exists. */
export class BatchRejected extends Error {}

interface BatchEntry {
  /** null: recorded before sending, and the provider's answer never arrived. */
  id: string | null;
  submission: string;
  custom_ids: string[];
  request_sha256: Record<string, string>;
  ended: boolean;
}

interface Checkpoint {
  format: "fabench-batch-checkpoint/v2";
  batches: BatchEntry[];
  replies: Record<string, { request_sha256: string; reply: ProviderReply }>;
}

export interface BatchCoordinatorOptions {
  readonly pollMs: number;
  /** Submit again the requests of a submission whose fate is unknown and cannot be looked up. */
  readonly resubmitUnknown: boolean;
  /**
   * How reads (a status poll, the results, a look-up by fingerprint) are retried: they are
   * idempotent, so a reply that cannot be read or a failed connection is simply asked again
   * (default: the synchronous requests' policy).
   */
  readonly retry?: RetryPolicy;
}

interface Waiting {
  readonly customId: string;
  readonly hash: string;
  readonly request: ProviderRequest;
  readonly resolve: (reply: ProviderReply) => void;
  readonly reject: (error: unknown) => void;
  /** The run's interrupt: once every member of a batch is interrupted, nobody waits for it. */
  readonly signal: AbortSignal | undefined;
}

export class BatchCoordinator {
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private flushing = false;
  private readonly checkpoint: Checkpoint;

  private unknownResolved = false;

  constructor(
    private readonly provider: BatchProvider,
    private readonly checkpointPath: string,
    private readonly timing: Timing,
    private readonly options: BatchCoordinatorOptions,
  ) {
    this.checkpoint = existsSync(checkpointPath)
      ? readCheckpoint(checkpointPath)
      : { format: "fabench-batch-checkpoint/v2", batches: [], replies: {} };
    const unknown = this.checkpoint.batches.filter((b) => b.id === null);
    if (unknown.length === 0 || provider.find) return;
    if (!options.resubmitUnknown) {
      const requests = unknown.reduce((n, b) => n + b.custom_ids.length, 0);
      throw new FabenchError({
        kind: "input",
        stage: "batch",
        code: "batch_submission_unknown",
        file: checkpointPath,
        message: `${unknown.length} batch submission(s) (${requests} request(s)) were sent before the last run stopped, and ${provider.name} cannot be asked whether it accepted them; check the provider's console, then resume with --batch-resubmit to send those requests again (they may be paid twice)`,
      });
    }
    this.checkpoint.batches = this.checkpoint.batches.filter((b) => b.id !== null);
    this.save();
  }

  episodeStarted(): void {
    this.active += 1;
  }

  episodeFinished(): void {
    this.active -= 1;
    this.maybeFlush();
  }

  /**
   * Resolves with the reply to this turn's request, from the checkpoint or from a batch. After an
   * interrupt (`signal`) nothing new is queued, so no batch is created for it.
   */
  submit(customId: string, request: ProviderRequest, signal?: AbortSignal): Promise<ProviderReply> {
    const hash = canonicalSha256(request);
    const done = this.checkpoint.replies[customId];
    if (done && done.request_sha256 === hash) return Promise.resolve(done.reply);
    if (signal?.aborted) return Promise.reject(interrupted(this.provider.name));
    return new Promise((resolve, reject) => {
      this.waiting.push({ customId, hash, request, resolve, reject, signal });
      this.maybeFlush();
    });
  }

  private maybeFlush(): void {
    if (this.flushing || this.waiting.length === 0 || this.waiting.length < this.active) return;
    this.flushing = true;
    const wave = this.waiting.splice(0);
    this.flush(wave)
      .catch((error: unknown) => wave.forEach((w) => w.reject(error)))
      .finally(() => {
        this.flushing = false;
        this.maybeFlush();
      });
  }

  /** Submissions whose answer never arrived: attached by fingerprint if the provider has them, else forgotten. */
  private async resolveUnknown(): Promise<void> {
    const find = this.provider.find?.bind(this.provider);
    if (this.unknownResolved || !find) return;
    this.unknownResolved = true;
    const unknown = this.checkpoint.batches.filter((b) => b.id === null);
    if (unknown.length === 0) return;
    for (const entry of unknown) entry.id = await this.read(() => find(entry.submission));
    this.checkpoint.batches = this.checkpoint.batches.filter((b) => b.id !== null);
    this.save();
  }

  private async flush(wave: Waiting[]): Promise<void> {
    await this.resolveUnknown();
    // Requests already in a batch that was running when the last run stopped join that batch.
    const byBatch = new Map<string, Waiting[]>();
    const fresh: Waiting[] = [];
    for (const w of wave) {
      const open = this.checkpoint.batches.find(
        (b) => b.id !== null && !b.ended && b.request_sha256[w.customId] === w.hash,
      );
      if (open?.id) byBatch.set(open.id, [...(byBatch.get(open.id) ?? []), w]);
      else fresh.push(w);
    }
    if (fresh.length > 0) {
      const request_sha256 = Object.fromEntries(fresh.map((w) => [w.customId, w.hash]));
      const entry: BatchEntry = {
        id: null,
        submission: canonicalSha256(request_sha256).slice(0, 32),
        custom_ids: fresh.map((w) => w.customId),
        request_sha256,
        ended: false,
      };
      this.checkpoint.batches.push(entry);
      this.save();
      try {
        entry.id = await this.provider.create(
          fresh.map((w) => ({ customId: w.customId, request: w.request })),
          entry.submission,
        );
      } catch (error) {
        // An answered failure created nothing; an unanswered one stays recorded as unknown.
        if (error instanceof BatchRejected)
          this.checkpoint.batches = this.checkpoint.batches.filter((b) => b !== entry);
        this.save();
        if (error instanceof BatchRejected)
          throw new FabenchError({
            kind: "input",
            stage: "provider",
            code: "provider_batch_rejected",
            message: `${this.provider.name}: ${error.message}`,
          });
        throw new FabenchError({
          kind: "input",
          stage: "provider",
          code: "provider_batch_submission_unknown",
          message: `${this.provider.name}: no answer to a batch submission; the batch may exist (resume to settle it)`,
        });
      }
      this.save();
      byBatch.set(entry.id, fresh);
    }
    await Promise.all(
      [...byBatch].map(([id, members]) =>
        // A batch that cannot be collected fails its own members only; it stays open in the checkpoint.
        this.collect(id, members).catch((error: unknown) => members.forEach((m) => m.reject(error))),
      ),
    );
  }

  /** An idempotent read, retried with backoff; a failure that outlasts the retries is a coded error. */
  private read<T>(fn: () => Promise<T>): Promise<T> {
    return withRetries(fn, this.options.retry ?? DEFAULT_RETRY, this.timing, this.provider.name);
  }

  private async collect(batchId: string, members: Waiting[]): Promise<void> {
    let status = await this.read(() => this.provider.status(batchId));
    while (status === "in_progress") {
      await this.timing.sleep(this.options.pollMs);
      // Every member was interrupted: stop polling. The batch stays open in the checkpoint, and the
      // --resume that reruns these episodes joins it; nothing is written after the run let go of
      // its lock.
      if (members.every((m) => m.signal?.aborted)) {
        for (const m of members) m.reject(interrupted(this.provider.name));
        return;
      }
      status = await this.read(() => this.provider.status(batchId));
    }
    const record = this.checkpoint.batches.find((b) => b.id === batchId);
    if (status === "failed") {
      if (record) record.ended = true;
      this.save();
      const error = new FabenchError({
        kind: "input",
        stage: "provider",
        code: "provider_batch_failed",
        message: `${this.provider.name}: batch ${batchId} failed`,
      });
      for (const m of members) m.reject(error);
      return;
    }
    const results = await this.read(() => this.provider.results(batchId));
    for (const m of members) {
      const outcome = results.get(m.customId);
      if (outcome?.ok) this.checkpoint.replies[m.customId] = { request_sha256: m.hash, reply: outcome.reply };
    }
    if (record) record.ended = true;
    this.save();
    for (const m of members) {
      const outcome = results.get(m.customId);
      if (outcome?.ok) m.resolve(outcome.reply);
      else
        m.reject(
          new FabenchError({
            kind: "input",
            stage: "provider",
            code: outcome?.code ?? "provider_batch_missing_result",
            message: `${this.provider.name}: no result for a request of batch ${batchId}`,
          }),
        );
    }
  }

  private save(): void {
    writeJsonAtomic(this.checkpointPath, this.checkpoint);
  }
}

const interrupted = (provider: string) =>
  interruptedError(`${provider}: stopped waiting for the batch: the run was interrupted`);

/** A v1 checkpoint (ids always known) reads as v2 with no fingerprints to look up. */
function readCheckpoint(path: string): Checkpoint {
  const raw = parseJsonText(decodeUtf8(readBytes(path, "batch"), path, "batch"), path, "batch") as {
    format: string;
    batches: Array<Omit<BatchEntry, "submission"> & { submission?: string }>;
    replies: Checkpoint["replies"];
  };
  return {
    format: "fabench-batch-checkpoint/v2",
    batches: raw.batches.map((b) => ({ ...b, submission: b.submission ?? "" })),
    replies: raw.replies,
  };
}
