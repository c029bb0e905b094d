/**
 * The judge stage's side of `judge run`, without the CLI: the judge spec check, the run files'
 * inputs check, the plan (seeded order, default seed, settings), and the judgments file as a run
 * goes — a stopped run resumed (torn tail dropped with one note, finished lines skipped), error
 * lines dropped by --retry-errors, a file of another judge refused, a finished file laid down in
 * the seeded order, and the summary's counts.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { RunRecord } from "../../src/conditions/runner/index.ts";
import { FabenchError, episodeKey } from "../../src/core/index.ts";
import {
  checkJudgeSpec,
  checkRunInputs,
  finishJudgments,
  judgeIntoFile,
  judgeOrder,
  judgmentSchema,
  loadJudgePrompt,
  planJudging,
  resumeJudgments,
  type Judge,
  type JudgeContext,
  type JudgeEpisode,
} from "../../src/judge/index.ts";
import { allRequestsFailed } from "../../src/judge/into-file.ts";
import { Budget } from "../../src/providers/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BUNDLED_PROTOCOL_PATH } from "../helpers/protocol.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const { protocol, catalogs, corpus } = bundled();
const CONDITIONS = protocol.conditions.map((c) => c.id);
const task = corpus.tasks[0] as Task;
const prompt = loadJudgePrompt(BUNDLED_PROTOCOL_PATH, protocol);
const benchmark = { protocol, protocolSha256: "a".repeat(64), catalogs };
const plan = (records: RunRecord[], seed?: number) =>
  planJudging(
    benchmark,
    { records, tasks: corpus.tasks, prompt },
    { ...(seed !== undefined ? { seed } : {}), temperature: 0, maxOutputTokens: 256 },
  );

const envelope = (answer: string) => JSON.stringify({ answer, facts: [], sources: [] });
/** Only the fields the judge stage reads of a run record. */
const record = (trial: number, answer = `answer ${trial}`) =>
  ({
    semantic_task_id: task.semantic_task_id,
    catalog_size: 100,
    condition: CONDITIONS[trial % CONDITIONS.length] as string,
    trial,
    status: "completed",
    final_text: envelope(answer),
    metadata: {
      protocol_sha256: benchmark.protocolSha256,
      corpus_tasks_sha256: "c".repeat(64),
      catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    },
  }) as unknown as RunRecord;

const identity = { agent: "scripted", model: "m", settings: { temperature: 0 } };
/** A judge that rates every answer, or fails the request for the answers in `failing`. */
function scripted(failing: readonly string[] = [], who = identity): Judge {
  return {
    identity: who,
    complete: async (request) => {
      const user = request.messages[0]?.content ?? "";
      const answer = user.slice(user.indexOf("Answer:\n") + 8);
      if (failing.some((f) => answer.startsWith(f)))
        throw new FabenchError({
          kind: "input",
          stage: "provider",
          code: "provider_server_error",
          message: "x",
        });
      return {
        text: '{"coherence": 5, "completeness": 4, "rationale": "fine"}',
        model: "m-2026",
        usage: { input_tokens: 10, output_tokens: 5 },
      };
    },
  };
}

const temp = useTempDir();
const trials = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => judgmentSchema.parse(JSON.parse(l)))
    .map((j) => [j.episode.trial, j.status] as const);

function setup(count: number, judge = scripted()) {
  const { episodes, base } = plan(Array.from({ length: count }, (_, i) => record(i + 1)));
  const context: JudgeContext = { ...base, identity: judge.identity };
  return { episodes, context, judge, out: join(temp(), "judgments.jsonl") };
}

const limits = { concurrency: 1, breaker: 0 };
const never = { progress: () => undefined, shouldStop: () => false };

describe("checkJudgeSpec", () => {
  it("takes the four judge kinds and refuses the reference agent, another kind and an empty target", () => {
    for (const spec of ["anthropic:m", "openai:m", "openai-compatible:m", "command:./j.mjs"])
      expect(() => checkJudgeSpec(spec, undefined)).not.toThrow();
    const code = (spec: string) => {
      try {
        checkJudgeSpec(spec, undefined);
      } catch (error) {
        return [(error as FabenchError).kind, (error as FabenchError).code];
      }
      return null;
    };
    expect(code("reference")).toEqual(["usage", "reference_not_a_judge"]);
    expect(code("gemini:m")).toEqual(["usage", "unknown_judge"]);
    expect(code("openai:")).toEqual(["usage", "unknown_judge"]);
  });
});

describe("checkRunInputs", () => {
  const given = { protocolSha256: benchmark.protocolSha256, catalogs };
  it("passes records made from the inputs given, and names each input that differs", () => {
    const records = [record(1)];
    expect(checkRunInputs(records, given, "c".repeat(64), "r.jsonl")).toBe(records);
    try {
      checkRunInputs(records, { ...given, protocolSha256: "b".repeat(64) }, "d".repeat(64), "r.jsonl");
      expect.unreachable();
    } catch (error) {
      const e = error as FabenchError;
      expect([e.kind, e.code, e.problems[0]?.file]).toEqual(["input", "run_input_mismatch", "r.jsonl"]);
      expect(e.message).toContain("another protocol (--protocol), corpus (--corpus) than the one given");
      expect(e.message).not.toContain("catalogs");
    }
  });

  it("refuses run files that hold no record", () => {
    expect(() => checkRunInputs([], given, "c".repeat(64), "r.jsonl")).toThrow(
      expect.objectContaining({ code: "empty_runs" }),
    );
  });
});

describe("planJudging", () => {
  it("orders the episodes by the seed, the protocol's unless one is given, with the settings asked for", () => {
    const records = [1, 2, 3, 4, 5, 6].map((t) => record(t));
    const byDefault = plan(records);
    expect(byDefault.base.seed).toBe(protocol.statistics.seed);
    expect(byDefault.base.settings).toEqual({
      temperature: 0,
      max_output_tokens: 256,
      seed: null,
      prompt_cache: false,
    });
    const keys = (e: readonly JudgeEpisode[]) => e.map((x) => x.key.trial);
    expect(keys(byDefault.episodes)).toEqual(keys(judgeOrder(byDefault.episodes, protocol.statistics.seed)));
    const seeded = plan(records, 3);
    expect(seeded.base.seed).toBe(3);
    expect(keys(seeded.episodes)).toEqual(keys(judgeOrder(seeded.episodes, 3)));
    expect([...keys(seeded.episodes)].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("the judgments file of a judge run", () => {
  it("resumes a stopped run (torn tail dropped with one note) and lays the finished file down in the seeded order", async () => {
    const { episodes, context, judge, out } = setup(6);
    let written = 0;
    const first = await judgeIntoFile(out, episodes, judge, context, limits, {
      progress: (done) => void (written = done),
      shouldStop: () => written >= 3,
    });
    expect([first.stopped, first.stopReason, first.written]).toEqual([true, "interrupted", 3]);
    const whole = statSync(out).size;
    appendFileSync(out, '{"format":');
    const notes: string[] = [];
    const resumed = resumeJudgments(out, { resume: true, retryErrors: false }, episodes, context, (t) =>
      notes.push(t),
    );
    expect(notes).toEqual([`${out}: dropped a torn last line (10 bytes) left by an interrupted judge run\n`]);
    expect(statSync(out).size).toBe(whole);
    expect([...resumed.done].sort()).toEqual(
      episodes
        .slice(0, 3)
        .map((e) => episodeKey(e.key))
        .sort(),
    );
    expect(resumed.pending).toEqual(episodes.slice(3));
    // The rest written in reverse, as racing replies might leave them; the finished file is in order.
    const rest = await judgeIntoFile(out, [...resumed.pending].reverse(), judge, context, limits, never);
    expect(trials(out).map(([t]) => t)).not.toEqual(episodes.map((e) => e.key.trial));
    const summary = finishJudgments(out, episodes, context, resumed.done.size, rest, new Budget(null, null));
    expect(trials(out)).toEqual(episodes.map((e) => [e.key.trial, "judged"]));
    expect(summary).toMatchObject({ ok: true, planned: 6, skipped: 3, written: 3, judged: 3, errors: 0 });
    expect(summary.spent_usd).toBeNull();
  });

  it("--retry-errors drops the error lines and leaves their episodes to judge again; --resume alone keeps them", async () => {
    const { episodes, context, judge, out } = setup(5, scripted(["answer 2", "answer 4"]));
    const result = await judgeIntoFile(out, episodes, judge, context, limits, never);
    expect([result.byStatus.error, allRequestsFailed(result)]).toEqual([2, false]);
    finishJudgments(out, episodes, context, 0, result, new Budget(null, null));
    const before = readFileSync(out, "utf8");
    // Without --resume, --retry-errors touches nothing (the file is judged anew).
    expect(
      resumeJudgments(out, { resume: false, retryErrors: true }, episodes, context, () => undefined).pending,
    ).toEqual(episodes);
    expect(readFileSync(out, "utf8")).toBe(before);
    expect(
      resumeJudgments(out, { resume: true, retryErrors: false }, episodes, context, () => undefined).pending,
    ).toEqual([]);
    expect(readFileSync(out, "utf8")).toBe(before);
    const notes: string[] = [];
    const resumed = resumeJudgments(out, { resume: true, retryErrors: true }, episodes, context, (t) =>
      notes.push(t),
    );
    expect(notes).toEqual([`${out}: 2 error line(s) will be judged again\n`]);
    expect(resumed.pending.map((e) => e.key.trial).sort()).toEqual([2, 4]);
    expect(trials(out).map(([, status]) => status)).toEqual(["judged", "judged", "judged"]);
  });

  it("counts a run whose every request failed as failed, and refuses to resume a file of another judge", async () => {
    const failing = scripted(["answer"]);
    const { episodes, context, out } = setup(3, failing);
    const result = await judgeIntoFile(out, episodes, failing, context, limits, never);
    expect(allRequestsFailed(result)).toBe(true);
    expect(finishJudgments(out, episodes, context, 0, result, new Budget(null, null)).ok).toBe(false);
    const other: JudgeContext = { ...context, identity: { ...identity, model: "another" } };
    expect(() =>
      resumeJudgments(out, { resume: true, retryErrors: false }, episodes, other, () => undefined),
    ).toThrow(expect.objectContaining({ code: "resume_judgment_mismatch" }));
  });

  it("starts from nothing when the file does not exist or --resume is not given", () => {
    const { episodes, context, out } = setup(2);
    expect(
      resumeJudgments(out, { resume: true, retryErrors: true }, episodes, context, () => undefined),
    ).toEqual({
      done: new Set(),
      pending: episodes,
    });
    writeFileSync(out, "not read without --resume\n");
    expect(
      resumeJudgments(out, { resume: false, retryErrors: false }, episodes, context, () => undefined).pending,
    ).toEqual(episodes);
  });
});
