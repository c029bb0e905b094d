/**
 * Batch mode: every pending episode advances one turn per provider batch (Anthropic Message
 * Batches, the OpenAI Batch API — half price). Episodes run side by side; each turn's request
 * waits here until every episode still running is waiting too, then they all go in one batch.
 *
 * A checkpoint (next to the run file) keeps each batch's id and every finished turn's reply,
 * keyed by the request's custom id and the SHA-256 of the request itself. After an interruption,
 * a turn whose identical request already has a reply is answered from the checkpoint, and a turn
 * in a batch that was still running is attached to that batch: nothing is resubmitted.
 */
import { canonicalSha256, FabenchError, readBytes, writeJsonAtomic } from "../../../core/index.ts";
import { existsSync } from "node:fs";
import type { ProviderReply, ProviderRequest } from "../providers/types.ts";
import type { Timing } from "../reliability.ts";

export type BatchStatus = "in_progress" | "ended" | "failed";
export type BatchOutcome = { ok: true; reply: ProviderReply } | { ok: false; code: string };

export interface BatchProvider {
  readonly name: string;
  create(items: ReadonlyArray<{ customId: string; request: ProviderRequest }>): Promise<string>;
  status(batchId: string): Promise<BatchStatus>;
  results(batchId: string): Promise<Map<string, BatchOutcome>>;
}

interface Checkpoint {
  format: "fabench-batch-checkpoint/v1";
  batches: Array<{ id: string; custom_ids: string[]; request_sha256: Record<string, string>; ended: boolean }>;
  replies: Record<string, { request_sha256: string; reply: ProviderReply }>;
}

interface Waiting {
  readonly customId: string;
  readonly hash: string;
  readonly request: ProviderRequest;
  readonly resolve: (reply: ProviderReply) => void;
  readonly reject: (error: unknown) => void;
}

export class BatchCoordinator {
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private flushing = false;
  private readonly checkpoint: Checkpoint;

  constructor(
    private readonly provider: BatchProvider,
    private readonly checkpointPath: string,
    private readonly timing: Timing,
    private readonly pollMs: number,
  ) {
    this.checkpoint = existsSync(checkpointPath)
      ? (JSON.parse(readBytes(checkpointPath, "batch").toString("utf8")) as Checkpoint)
      : { format: "fabench-batch-checkpoint/v1", batches: [], replies: {} };
  }

  episodeStarted(): void {
    this.active += 1;
  }

  episodeFinished(): void {
    this.active -= 1;
    this.maybeFlush();
  }

  /** Resolves with the reply to this turn's request, from the checkpoint or from a batch. */
  submit(customId: string, request: ProviderRequest): Promise<ProviderReply> {
    const hash = canonicalSha256(request);
    const done = this.checkpoint.replies[customId];
    if (done && done.request_sha256 === hash) return Promise.resolve(done.reply);
    return new Promise((resolve, reject) => {
      this.waiting.push({ customId, hash, request, resolve, reject });
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

  private async flush(wave: Waiting[]): Promise<void> {
    // Requests already in a batch that was running when the last run stopped join that batch.
    const byBatch = new Map<string, Waiting[]>();
    const fresh: Waiting[] = [];
    for (const w of wave) {
      const open = this.checkpoint.batches.find((b) => !b.ended && b.request_sha256[w.customId] === w.hash);
      if (open) byBatch.set(open.id, [...(byBatch.get(open.id) ?? []), w]);
      else fresh.push(w);
    }
    if (fresh.length > 0) {
      const id = await this.provider.create(fresh.map((w) => ({ customId: w.customId, request: w.request })));
      this.checkpoint.batches.push({ id, custom_ids: fresh.map((w) => w.customId), request_sha256: Object.fromEntries(fresh.map((w) => [w.customId, w.hash])), ended: false });
      this.save();
      byBatch.set(id, fresh);
    }
    await Promise.all([...byBatch].map(([id, members]) => this.collect(id, members)));
  }

  private async collect(batchId: string, members: Waiting[]): Promise<void> {
    let status = await this.provider.status(batchId);
    while (status === "in_progress") {
      await this.timing.sleep(this.pollMs);
      status = await this.provider.status(batchId);
    }
    const record = this.checkpoint.batches.find((b) => b.id === batchId);
    if (status === "failed") {
      if (record) record.ended = true;
      this.save();
      const error = new FabenchError({ kind: "input", stage: "provider", code: "provider_batch_failed", message: `${this.provider.name}: batch ${batchId} failed` });
      for (const m of members) m.reject(error);
      return;
    }
    const results = await this.provider.results(batchId);
    for (const m of members) {
      const outcome = results.get(m.customId);
      if (outcome?.ok) this.checkpoint.replies[m.customId] = { request_sha256: m.hash, reply: outcome.reply };
    }
    if (record) record.ended = true;
    this.save();
    for (const m of members) {
      const outcome = results.get(m.customId);
      if (outcome?.ok) m.resolve(outcome.reply);
      else m.reject(new FabenchError({ kind: "input", stage: "provider", code: outcome?.code ?? "provider_batch_missing_result", message: `${this.provider.name}: no result for a request of batch ${batchId}` }));
    }
  }

  private save(): void {
    writeJsonAtomic(this.checkpointPath, this.checkpoint);
  }
}
