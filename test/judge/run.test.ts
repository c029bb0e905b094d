/**
 * The judging loop with a scripted judge (no provider): what each episode's line says, lines in
 * the given order whatever order replies come in, and stopping on an interrupt, the error limit
 * or the budget without losing or duplicating a line.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import { FabenchError, sha256Hex } from "../../src/core/index.ts";
import type { Judge, JudgeReply } from "../../src/judge/client.ts";
import { loadJudgePrompt } from "../../src/judge/prompt.ts";
import { judgmentSchema, type Judgment } from "../../src/judge/record.ts";
import { forbiddenTerms, makeBlinder } from "../../src/judge/request.ts";
import { judgeEpisodes, type JudgeContext, type JudgeEpisode } from "../../src/judge/run.ts";
import type { ProviderRequest } from "../../src/providers/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BUNDLED_PROTOCOL_PATH } from "../helpers/protocol.ts";

const { protocol, catalogs, corpus } = bundled();
const CONDITIONS = protocol.conditions.map((c) => c.id);
const identity = { agent: "scripted", model: "m", settings: { temperature: 0 } };
const context: JudgeContext = {
  judge: protocol.judge,
  prompt: loadJudgePrompt(BUNDLED_PROTOCOL_PATH, protocol),
  protocolSha256: "a".repeat(64),
  blind: makeBlinder(
    forbiddenTerms(
      catalogs.map((c) => c.catalog),
      CONDITIONS,
    ),
  ),
  settings: { temperature: 0, max_output_tokens: 256, seed: null, prompt_cache: false },
  identity,
  seed: 7,
};
const task = corpus.tasks[0] as Task;
const envelope = (answer: string) => JSON.stringify({ answer, facts: [], sources: [] });

function episode(
  i: number,
  finalText = envelope(`answer ${i}`),
  status: "completed" | "error" = "completed",
) {
  return {
    key: {
      semantic_task_id: task.semantic_task_id,
      catalog_size: 100,
      condition: CONDITIONS[i % 5] as string,
      trial: i + 1,
    },
    task,
    status,
    finalText,
  } satisfies JudgeEpisode;
}

type Script = (answer: string, n: number) => Promise<JudgeReply>;
const ok = (text = '{"coherence": 5, "completeness": 4, "rationale": "fine"}'): JudgeReply => ({
  text,
  model: "m-2026",
  usage: { input_tokens: 10, output_tokens: 5 },
});

/** A judge that answers by script and keeps every request; the answer is read back from the user message. */
function scripted(script: Script): Judge & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  return {
    identity,
    requests,
    complete: (request) => {
      requests.push(request);
      const user = request.messages[0]?.content ?? "";
      return script(user.slice(user.indexOf("Answer:\n") + 8), requests.length - 1);
    },
  };
}

async function judgeAll(
  episodes: JudgeEpisode[],
  judge: Judge,
  extra: { concurrency?: number; maxErrors?: number; stopAfter?: number; breaker?: number } = {},
) {
  const lines: Judgment[] = [];
  const progress: number[] = [];
  const result = await judgeEpisodes(
    {
      episodes,
      judge,
      context,
      concurrency: extra.concurrency ?? 1,
      maxErrors: extra.maxErrors ?? null,
      breaker: extra.breaker ?? null,
    },
    {
      write: (j) => lines.push(judgmentSchema.parse(j)),
      progress: (_done, _total, errors) => progress.push(errors),
      shouldStop: () => extra.stopAfter !== undefined && lines.length >= extra.stopAfter,
    },
  );
  return { lines, result, progress };
}

const failure = (code: string) => new FabenchError({ kind: "input", stage: "provider", code, message: code });

describe("judgeEpisodes", () => {
  it("writes one valid line per episode: judged, malformed, not judged (no request) and error", async () => {
    const episodes = [
      episode(0),
      episode(1, envelope("answer 1")),
      episode(2, "no envelope at all"),
      episode(3, envelope("x"), "error"),
      episode(4),
    ];
    const judge = scripted(async (answer) => {
      if (answer === "answer 1") return ok("Coherence: 4");
      if (answer === "answer 4") throw failure("provider_server_error");
      return ok();
    });
    const { lines, result } = await judgeAll(episodes, judge);
    expect(lines.map((l) => [l.episode.trial, l.status, l.reason])).toEqual([
      [1, "judged", null],
      [2, "malformed", "reply_not_json"],
      [3, "not_judged", "envelope_not_json"],
      [4, "not_judged", "episode_error"],
      [5, "error", "provider_server_error"],
    ]);
    expect(judge.requests).toHaveLength(3);
    expect(result).toMatchObject({ written: 5, requests: 3, stopped: false, stopReason: null });
    const [judged, malformed, notJudged] = lines as [Judgment, Judgment, Judgment];
    expect(judged).toMatchObject({
      answer_sha256: sha256Hex("answer 0"),
      ratings: { coherence: 5, completeness: 4 },
      rationale: "fine",
      raw_reply: null,
      redactions: 0,
      prompt_sha256: protocol.judge.prompt_sha256,
      protocol_sha256: "a".repeat(64),
      judge: { agent: "scripted", model: "m", reported_model: "m-2026", settings: { temperature: 0 } },
      seed: 7,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    expect(malformed).toMatchObject({
      raw_reply: "Coherence: 4",
      ratings: null,
      usage: { input_tokens: 10 },
    });
    expect(notJudged).toMatchObject({ answer_sha256: null, usage: null, judge: { reported_model: null } });
  });

  it("counts the redactions of the answer", async () => {
    const name = catalogs[0]?.catalog.endpoints[0]?.function_name;
    const answer = envelope(`Under SR-5 I called ${name}`);
    const [line] = (
      await judgeAll(
        [episode(0, answer)],
        scripted(async () => ok()),
      )
    ).lines;
    expect(line?.redactions).toBe(2);
  });

  it("writes each line as soon as its reply is in: no paid reply waits behind a slower one", async () => {
    const episodes = Array.from({ length: 8 }, (_, i) => episode(i));
    // The first episode's reply is held back until every other line is on disk; an in-order
    // writer would hold those seven paid replies in memory instead, and never finish.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const judge = scripted(async (answer) => {
      if (answer === "answer 0") await held;
      return ok();
    });
    const lines: Judgment[] = [];
    const result = await judgeEpisodes(
      { episodes, judge, context, concurrency: episodes.length, maxErrors: null },
      {
        write: (j) => {
          lines.push(j);
          if (lines.length === episodes.length - 1) release();
        },
        progress: () => undefined,
        shouldStop: () => false,
      },
    );
    expect(result).toMatchObject({ written: 8, stopped: false });
    expect(lines.map((l) => l.episode.trial)).toEqual([2, 3, 4, 5, 6, 7, 8, 1]);
  });

  it("stops sending on an interrupt; what was sent is written, the rest left for --resume", async () => {
    const episodes = Array.from({ length: 10 }, (_, i) => episode(i));
    const judge = scripted(async () => ok());
    const { lines, result } = await judgeAll(episodes, judge, { stopAfter: 4 });
    expect(lines.map((l) => l.episode.trial)).toEqual([1, 2, 3, 4]);
    expect(result).toMatchObject({ written: 4, stopped: true, stopReason: "interrupted" });
  });

  it("stops after --max-errors infrastructure errors", async () => {
    const episodes = Array.from({ length: 10 }, (_, i) => episode(i));
    const judge = scripted(async () => {
      throw failure("provider_timeout");
    });
    const { lines, result } = await judgeAll(episodes, judge, { maxErrors: 3 });
    expect(lines.map((l) => l.reason)).toEqual(["provider_timeout", "provider_timeout", "provider_timeout"]);
    expect(result).toMatchObject({ stopped: true, stopReason: "max_errors" });
  });

  it("stops when the breaker trips on same-code errors in a row; a reply or another code starts the count again", async () => {
    const episodes = Array.from({ length: 12 }, (_, i) => episode(i));
    // Requests 0–1 time out, 2 is answered, 3 is a 500, then every request times out.
    const judge = scripted(async (_answer, n) => {
      if (n === 2) return ok();
      throw failure(n === 3 ? "provider_server_error" : "provider_timeout");
    });
    const { lines, result, progress } = await judgeAll(episodes, judge, { breaker: 3 });
    expect(lines.map((l) => l.reason)).toEqual([
      "provider_timeout",
      "provider_timeout",
      null,
      "provider_server_error",
      "provider_timeout",
      "provider_timeout",
      "provider_timeout",
    ]);
    expect(judge.requests).toHaveLength(7);
    expect(result).toMatchObject({
      written: 7,
      stopped: true,
      stopReason: "breaker",
      tripped: { code: "provider_timeout", count: 3 },
    });
    // The progress line is told the error count as it grows.
    expect(progress).toEqual([1, 2, 2, 3, 4, 5, 6]);
  });

  it("never trips with the breaker off (0), and a finished run reports no trip", async () => {
    const episodes = Array.from({ length: 8 }, (_, i) => episode(i));
    const judge = scripted(async () => {
      throw failure("provider_timeout");
    });
    const { lines, result } = await judgeAll(episodes, judge, { breaker: 0 });
    expect(lines).toHaveLength(8);
    expect(result).toMatchObject({ stopped: false, stopReason: null, tripped: null });
  });

  it("writes no line for a request the budget refused, and sends nothing after it", async () => {
    const episodes = Array.from({ length: 6 }, (_, i) => episode(i));
    const judge = scripted(async (_answer, n) => {
      if (n === 2) throw failure("budget_exhausted");
      return ok();
    });
    const { lines, result } = await judgeAll(episodes, judge);
    expect(lines.map((l) => l.episode.trial)).toEqual([1, 2]);
    expect(judge.requests).toHaveLength(3);
    expect(result).toMatchObject({ written: 2, requests: 2, stopped: true, stopReason: "budget_exhausted" });
  });

  it("lets a bug (an error that is not a coded failure) through", async () => {
    const judge = scripted(async () => {
      throw new TypeError("bug");
    });
    await expect(judgeAll([episode(0)], judge)).rejects.toThrow("bug");
  });
});
