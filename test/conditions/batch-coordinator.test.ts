/** The batch coordinator's submission bookkeeping, against an in-memory provider. */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BatchCoordinator,
  BatchRejected,
  type BatchOutcome,
  type BatchProvider,
} from "../../src/providers/batch/coordinator.ts";
import type { ProviderRequest } from "../../src/providers/types.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const timing = { now: () => 0, sleep: async () => undefined, random: () => 0.5 };
const request = (text: string): ProviderRequest => ({
  system: "s",
  messages: [{ role: "user", content: text }],
  tools: [],
  settings: { temperature: 0, max_output_tokens: 10, seed: null, prompt_cache: false },
});
const reply = (text: string) => ({
  text,
  toolCalls: [],
  usage: { input_tokens: 1, output_tokens: 1 },
  model: "m",
});
type Entry = { id: string | null; submission: string; custom_ids: string[] };
const entries = (path: string): Entry[] =>
  (JSON.parse(readFileSync(path, "utf8")) as { batches: Entry[] }).batches;

/** A provider that remembers batches and can fail its next create in a chosen way. */
function memoryProvider(path: string, options: { find: boolean }) {
  const batches = new Map<string, { submission: string; items: Array<{ customId: string; text: string }> }>();
  const state = { failNext: null as null | "rejected" | "lost", createdWhileRecorded: [] as Array<Entry[]> };
  const provider: BatchProvider = {
    name: "memory",
    async create(items, submission) {
      state.createdWhileRecorded.push(existsSync(path) ? entries(path) : []);
      if (state.failNext === "rejected") {
        state.failNext = null;
        throw new BatchRejected("HTTP 400");
      }
      const id = `b${batches.size + 1}`;
      batches.set(id, {
        submission,
        items: items.map((i) => ({
          customId: i.customId,
          text: (i.request.messages[0] as { content: string }).content,
        })),
      });
      if (state.failNext === "lost") {
        state.failNext = null;
        throw new Error("socket hang up");
      }
      return id;
    },
    status: async () => "ended",
    results: async (id) =>
      new Map<string, BatchOutcome>(
        (batches.get(id)?.items ?? []).map((i) => [
          i.customId,
          { ok: true, reply: reply(`answer to ${i.text}`) },
        ]),
      ),
    ...(options.find
      ? {
          find: async (submission: string) =>
            [...batches].find(([, b]) => b.submission === submission)?.[0] ?? null,
        }
      : {}),
  };
  return { provider, batches, state };
}

async function oneTurn(coordinator: BatchCoordinator, ids: string[]) {
  ids.forEach(() => coordinator.episodeStarted());
  const replies = await Promise.allSettled(ids.map((id) => coordinator.submit(id, request(id))));
  ids.forEach(() => coordinator.episodeFinished());
  return replies;
}

describe("the batch coordinator", () => {
  const temp = useTempDir();

  it("records a submission (id unknown, with its fingerprint) before sending it, then its id", async () => {
    const path = join(temp(), "c.batches.json");
    const { provider, state } = memoryProvider(path, { find: false });
    const replies = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
      ["a", "b"],
    );
    expect(replies.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    const during = state.createdWhileRecorded[0]!;
    expect(during).toHaveLength(1);
    expect(during[0]).toMatchObject({ id: null, custom_ids: ["a", "b"] });
    expect(during[0]!.submission).toMatch(/^[0-9a-f]{32}$/);
    expect(entries(path)[0]).toMatchObject({ id: "b1", submission: during[0]!.submission });
  });

  it("forgets a refused submission, so a resume sends it without asking", async () => {
    const path = join(temp(), "c.batches.json");
    const { provider, state } = memoryProvider(path, { find: false });
    state.failNext = "rejected";
    const replies = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
      ["a"],
    );
    expect(replies[0]).toMatchObject({ status: "rejected", reason: { code: "provider_batch_rejected" } });
    expect(entries(path)).toEqual([]);
    expect(
      () => new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
    ).not.toThrow();
  });

  it("attaches a submission whose answer was lost to the batch the provider finds by fingerprint", async () => {
    const path = join(temp(), "c.batches.json");
    const { provider, batches, state } = memoryProvider(path, { find: true });
    state.failNext = "lost";
    const first = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
      ["a", "b"],
    );
    expect(first.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(entries(path)).toMatchObject([{ id: null }]);
    // Resumed: the same requests join the batch that was made; nothing is created again.
    const again = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
      ["a", "b"],
    );
    expect(again).toMatchObject([
      { status: "fulfilled", value: { text: "answer to a" } },
      { status: "fulfilled", value: { text: "answer to b" } },
    ]);
    expect(batches.size).toBe(1);
    expect(entries(path)).toMatchObject([{ id: "b1" }]);
  });

  it("stops before sending anything when a lost submission cannot be looked up, unless told to resend it", async () => {
    const path = join(temp(), "c.batches.json");
    const { provider, batches, state } = memoryProvider(path, { find: false });
    state.failNext = "lost";
    await oneTurn(new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }), [
      "a",
      "b",
    ]);
    expect(() => new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false })).toThrow(
      expect.objectContaining({ code: "batch_submission_unknown" }),
    );
    expect(batches.size).toBe(1);
    const resent = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: true }),
      ["a", "b"],
    );
    expect(resent.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(batches.size).toBe(2);
  });

  it("reads a v1 checkpoint (every id known)", async () => {
    const path = join(temp(), "c.batches.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      path,
      JSON.stringify({
        format: "fabench-batch-checkpoint/v1",
        batches: [{ id: "old", custom_ids: ["z"], request_sha256: { z: "0" }, ended: true }],
        replies: {},
      }),
    );
    const { provider } = memoryProvider(path, { find: false });
    const replies = await oneTurn(
      new BatchCoordinator(provider, path, timing, { pollMs: 1, resubmitUnknown: false }),
      ["a"],
    );
    expect(replies[0]?.status).toBe("fulfilled");
    expect(entries(path).map((e) => e.id)).toEqual(["old", "b1"]);
  });
});

describe("the batch coordinator on an interrupt", () => {
  const temp = useTempDir();

  it("stops polling a batch every member of which was interrupted, leaves it open, and queues nothing after", async () => {
    const path = join(temp(), "c.batches.json");
    const { provider, batches } = memoryProvider(path, { find: false });
    const controller = new AbortController();
    let polls = 0;
    // The batch runs until the interrupt; the abort lands during the second poll's wait.
    const slow: BatchProvider = {
      ...provider,
      status: async () => (polls++ < 100 ? "in_progress" : "ended"),
    };
    const sleep = async () => {
      if (polls === 2) controller.abort();
    };
    const coordinator = new BatchCoordinator(
      slow,
      path,
      { ...timing, sleep },
      { pollMs: 1, resubmitUnknown: false },
    );
    coordinator.episodeStarted();
    const code = await coordinator.submit("a", request("a"), controller.signal).then(
      () => "resolved",
      (error: { code?: string }) => error.code,
    );
    expect(code).toBe("interrupted");
    expect(polls).toBe(2);
    expect(entries(path)).toMatchObject([{ id: "b1", custom_ids: ["a"] }]);
    expect(
      (JSON.parse(readFileSync(path, "utf8")) as { batches: Array<{ ended: boolean }> }).batches[0]?.ended,
    ).toBe(false);
    // After the interrupt, a request is refused at once: no new batch is created for it.
    await expect(coordinator.submit("b", request("b"), controller.signal)).rejects.toMatchObject({
      code: "interrupted",
    });
    expect(batches.size).toBe(1);
  });
});
