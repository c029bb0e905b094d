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
import { canonicalSha256, FabenchError, readBytes, writeJsonAtomic } from "../../core/index.js";
import { existsSync } from "node:fs";
/** Thrown by a provider's `create` when the request failed with an answer: no batch exists. */
export class BatchRejected extends Error {
}
export class BatchCoordinator {
    provider;
    checkpointPath;
    timing;
    options;
    active = 0;
    waiting = [];
    flushing = false;
    checkpoint;
    unknownResolved = false;
    constructor(provider, checkpointPath, timing, options) {
        this.provider = provider;
        this.checkpointPath = checkpointPath;
        this.timing = timing;
        this.options = options;
        this.checkpoint = existsSync(checkpointPath)
            ? readCheckpoint(checkpointPath)
            : { format: "fabench-batch-checkpoint/v2", batches: [], replies: {} };
        const unknown = this.checkpoint.batches.filter((b) => b.id === null);
        if (unknown.length === 0 || provider.find)
            return;
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
    episodeStarted() {
        this.active += 1;
    }
    episodeFinished() {
        this.active -= 1;
        this.maybeFlush();
    }
    /** Resolves with the reply to this turn's request, from the checkpoint or from a batch. */
    submit(customId, request) {
        const hash = canonicalSha256(request);
        const done = this.checkpoint.replies[customId];
        if (done && done.request_sha256 === hash)
            return Promise.resolve(done.reply);
        return new Promise((resolve, reject) => {
            this.waiting.push({ customId, hash, request, resolve, reject });
            this.maybeFlush();
        });
    }
    maybeFlush() {
        if (this.flushing || this.waiting.length === 0 || this.waiting.length < this.active)
            return;
        this.flushing = true;
        const wave = this.waiting.splice(0);
        this.flush(wave)
            .catch((error) => wave.forEach((w) => w.reject(error)))
            .finally(() => {
            this.flushing = false;
            this.maybeFlush();
        });
    }
    /** Submissions whose answer never arrived: attached by fingerprint if the provider has them, else forgotten. */
    async resolveUnknown() {
        if (this.unknownResolved || !this.provider.find)
            return;
        this.unknownResolved = true;
        const unknown = this.checkpoint.batches.filter((b) => b.id === null);
        if (unknown.length === 0)
            return;
        for (const entry of unknown)
            entry.id = await this.provider.find(entry.submission);
        this.checkpoint.batches = this.checkpoint.batches.filter((b) => b.id !== null);
        this.save();
    }
    async flush(wave) {
        await this.resolveUnknown();
        // Requests already in a batch that was running when the last run stopped join that batch.
        const byBatch = new Map();
        const fresh = [];
        for (const w of wave) {
            const open = this.checkpoint.batches.find((b) => b.id !== null && !b.ended && b.request_sha256[w.customId] === w.hash);
            if (open?.id)
                byBatch.set(open.id, [...(byBatch.get(open.id) ?? []), w]);
            else
                fresh.push(w);
        }
        if (fresh.length > 0) {
            const request_sha256 = Object.fromEntries(fresh.map((w) => [w.customId, w.hash]));
            const entry = {
                id: null,
                submission: canonicalSha256(request_sha256).slice(0, 32),
                custom_ids: fresh.map((w) => w.customId),
                request_sha256,
                ended: false,
            };
            this.checkpoint.batches.push(entry);
            this.save();
            try {
                entry.id = await this.provider.create(fresh.map((w) => ({ customId: w.customId, request: w.request })), entry.submission);
            }
            catch (error) {
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
        await Promise.all([...byBatch].map(([id, members]) => this.collect(id, members)));
    }
    async collect(batchId, members) {
        let status = await this.provider.status(batchId);
        while (status === "in_progress") {
            await this.timing.sleep(this.options.pollMs);
            status = await this.provider.status(batchId);
        }
        const record = this.checkpoint.batches.find((b) => b.id === batchId);
        if (status === "failed") {
            if (record)
                record.ended = true;
            this.save();
            const error = new FabenchError({
                kind: "input",
                stage: "provider",
                code: "provider_batch_failed",
                message: `${this.provider.name}: batch ${batchId} failed`,
            });
            for (const m of members)
                m.reject(error);
            return;
        }
        const results = await this.provider.results(batchId);
        for (const m of members) {
            const outcome = results.get(m.customId);
            if (outcome?.ok)
                this.checkpoint.replies[m.customId] = { request_sha256: m.hash, reply: outcome.reply };
        }
        if (record)
            record.ended = true;
        this.save();
        for (const m of members) {
            const outcome = results.get(m.customId);
            if (outcome?.ok)
                m.resolve(outcome.reply);
            else
                m.reject(new FabenchError({
                    kind: "input",
                    stage: "provider",
                    code: outcome?.code ?? "provider_batch_missing_result",
                    message: `${this.provider.name}: no result for a request of batch ${batchId}`,
                }));
        }
    }
    save() {
        writeJsonAtomic(this.checkpointPath, this.checkpoint);
    }
}
/** A v1 checkpoint (ids always known) reads as v2 with no fingerprints to look up. */
function readCheckpoint(path) {
    const raw = JSON.parse(readBytes(path, "batch").toString("utf8"));
    return {
        format: "fabench-batch-checkpoint/v2",
        batches: raw.batches.map((b) => ({ ...b, submission: b.submission ?? "" })),
        replies: raw.replies,
    };
}
