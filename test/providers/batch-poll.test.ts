/**
 * Batch polls are idempotent reads: a malformed or failed poll is asked again with backoff, and
 * never fails the episodes waiting on the batch; one that keeps failing fails them with a code,
 * never `agent_failed`, and leaves the batch open in the checkpoint for a resume.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import {
  BatchCoordinator,
  type BatchOutcome,
  type BatchProvider,
  type BatchStatus,
  type ProviderRequest,
} from "../../src/providers/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const sleeps: number[] = [];
const timing = {
  now: () => 0,
  sleep: async (ms: number) => void sleeps.push(ms),
  random: () => 0.5,
};
const retry = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 10_000 };
const request = (text: string): ProviderRequest => ({
  system: "s",
  messages: [{ role: "user", content: text }],
  tools: [],
  settings: { temperature: 0, max_output_tokens: 10, seed: null, prompt_cache: false },
});

/** A provider whose polls and result reads fail as told, then answer. */
function flakyProvider(polls: Array<() => BatchStatus>, resultFailures: number) {
  const items: string[] = [];
  let failuresLeft = resultFailures;
  const provider: BatchProvider = {
    name: "flaky",
    async create(batch) {
      items.push(...batch.map((i) => i.customId));
      return "b1";
    },
    async status() {
      const next = polls.shift();
      return next ? next() : "ended";
    },
    async results() {
      if (failuresLeft-- > 0) throw new SyntaxError("Unexpected end of JSON input");
      return new Map<string, BatchOutcome>(
        items.map((id) => [
          id,
          {
            ok: true,
            reply: {
              text: `answer ${id}`,
              toolCalls: [],
              usage: { input_tokens: 1, output_tokens: 1 },
              model: "m",
            },
          },
        ]),
      );
    },
  };
  return provider;
}

async function tenEpisodes(coordinator: BatchCoordinator) {
  const ids = Array.from({ length: 10 }, (_, i) => `e${i}`);
  ids.forEach(() => coordinator.episodeStarted());
  const settled = await Promise.allSettled(ids.map((id) => coordinator.submit(id, request(id))));
  ids.forEach(() => coordinator.episodeFinished());
  return settled;
}

describe("batch polls", () => {
  const temp = useTempDir();
  const malformed = () => {
    throw new SyntaxError("Unexpected token } in JSON at position 30");
  };
  const connectionLost = () => {
    throw new TypeError("terminated", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
  };

  it("retries a malformed poll, a lost connection and an unreadable result: all 10 waiting episodes finish", async () => {
    sleeps.length = 0;
    const provider = flakyProvider([() => "in_progress", malformed, connectionLost, () => "in_progress"], 1);
    const coordinator = new BatchCoordinator(provider, join(temp(), "c.json"), timing, {
      pollMs: 5,
      resubmitUnknown: false,
      retry,
    });
    const settled = await tenEpisodes(coordinator);
    expect(settled.map((s) => s.status)).toEqual(Array(10).fill("fulfilled"));
    // Two poll intervals, and backoff (from retry.baseDelayMs) after each of the three failed reads.
    expect(sleeps.filter((ms) => ms === 5)).toHaveLength(2);
    expect(sleeps.filter((ms) => ms !== 5).length).toBe(3);
  });

  it("fails the episodes with a code once the retries run out, and keeps the batch open to resume", async () => {
    const path = join(temp(), "c.json");
    const provider = flakyProvider(Array(20).fill(malformed), 0);
    const coordinator = new BatchCoordinator(provider, path, timing, {
      pollMs: 5,
      resubmitUnknown: false,
      retry,
    });
    const settled = await tenEpisodes(coordinator);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      const reason = (s as PromiseRejectedResult).reason as FabenchError;
      expect(reason).toBeInstanceOf(FabenchError);
      expect(reason.code).toBe("provider_bad_response");
    }
    const checkpoint = JSON.parse(readFileSync(path, "utf8")) as {
      batches: Array<{ id: string; ended: boolean }>;
    };
    expect(checkpoint.batches).toEqual([expect.objectContaining({ id: "b1", ended: false })]);
  });

  it("does not retry a poll the provider refuses (401): the episodes fail with its code at once", async () => {
    let polls = 0;
    const provider = flakyProvider([], 0);
    provider.status = async () => {
      polls += 1;
      throw Object.assign(new Error("unauthorized"), { status: 401 });
    };
    const coordinator = new BatchCoordinator(provider, join(temp(), "c.json"), timing, {
      pollMs: 5,
      resubmitUnknown: false,
      retry,
    });
    const settled = await tenEpisodes(coordinator);
    expect(polls).toBe(1);
    expect(settled.map((s) => ((s as PromiseRejectedResult).reason as FabenchError).code)).toEqual(
      Array(10).fill("provider_auth_error"),
    );
  });
});
