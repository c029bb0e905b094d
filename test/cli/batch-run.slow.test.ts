/** Batch mode against the fake providers: same records as synchronous runs; resumes without resubmitting. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { bundled } from "../helpers/bundled.ts";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-providers.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const KEY = "sk-batch-test";
/** What the CLI sees as its environment: the keys, passed in, never set on `process.env`. */
const ENV = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
const cli = (argv: readonly string[]) => runCli(argv, { env: ENV });
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-PROGRESSIVE"];
type Rec = Record<string, unknown> & {
  semantic_task_id: string;
  condition: string;
  catalog_size: number;
  trial: number;
};
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);
const key = (r: Rec) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`;
/** What must not depend on batch or synchronous mode. */
const comparable = (records: Rec[]) =>
  records
    .map(({ timings: _t, metadata: _m, ...rest }) => rest)
    .sort((a, b) => (key(a as Rec) < key(b as Rec) ? -1 : 1));

describe("--batch", () => {
  const temp = useTempDir();
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider({ tasks: bundled().corpus.tasks });
  });
  afterAll(async () => {
    await provider.close();
  });

  it.each([
    ["anthropic", "anthropic:claude-test", ""],
    ["openai", "openai:gpt-test", "/v1"],
  ])("gives the same records as the synchronous mode (%s)", async (_label, agent, suffix) => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const common = [
      "run",
      "--agent",
      agent,
      "--base-url",
      `${provider.url}${suffix}`,
      "--conveyor",
      conveyor,
      ...SMALL,
    ];
    expect((await cli([...common, "--out", join(dir, "sync.jsonl")])).code).toBe(0);
    const before = provider.requests.batchItems.length;
    const batch = await cli([
      ...common,
      "--batch",
      "--batch-poll-ms",
      "5",
      "--out",
      join(dir, "batch.jsonl"),
    ]);
    expect(batch.code).toBe(0);
    expect(provider.requests.batchItems.length).toBeGreaterThan(before);
    expect(comparable(read(join(dir, "batch.jsonl")))).toEqual(comparable(read(join(dir, "sync.jsonl"))));
    expect(read(join(dir, "batch.jsonl"))[0]!["metadata"]).toMatchObject({ agent_settings: { batch: true } });
  });

  describe("when the answer to a batch submission is lost", () => {
    let lossy: FakeProvider;
    beforeAll(async () => {
      lossy = await startFakeProvider({ tasks: bundled().corpus.tasks, dropBatchCreates: 1 });
    });
    afterAll(async () => {
      await lossy.close();
    });

    it("OpenAI: a resume finds the batch by its fingerprint and sends nothing twice", async () => {
      const dir = temp();
      const conveyor = await satisfiedConveyor(dir);
      const out = join(dir, "batch.jsonl");
      const args = [
        "run",
        "--agent",
        "openai:gpt-test",
        "--base-url",
        `${lossy.url}/v1`,
        "--conveyor",
        conveyor,
        ...SMALL,
        "--batch",
        "--batch-poll-ms",
        "5",
        "--out",
        out,
      ];
      const start = lossy.requests.batchItems.length;
      const first = await cli(args);
      expect(first.code).not.toBe(70);
      expect(
        read(out).every(
          (r) => r["status"] === "error" && r["error_code"] === "provider_batch_submission_unknown",
        ),
      ).toBe(true);
      const checkpoint = JSON.parse(readFileSync(`${out}.batches.json`, "utf8")) as {
        batches: Array<{ id: string | null }>;
      };
      expect(checkpoint.batches).toMatchObject([{ id: null }]);
      const resumed = await cli([...args, "--resume", "--retry-errors"]);
      expect(resumed.code).toBe(0);
      const submitted = lossy.requests.batchItems.slice(start);
      expect(new Set(submitted).size).toBe(submitted.length);
      expect(read(out).filter((r) => r["status"] === "completed")).toHaveLength(12);
    });

    it("Anthropic: a resume stops before sending anything, and --batch-resubmit sends it again", async () => {
      const dir = temp();
      const conveyor = await satisfiedConveyor(dir);
      const out = join(dir, "batch.jsonl");
      const args = [
        "run",
        "--agent",
        "anthropic:claude-test",
        "--base-url",
        lossy.url,
        "--conveyor",
        conveyor,
        ...SMALL,
        "--batch",
        "--batch-poll-ms",
        "5",
        "--out",
        out,
      ];
      // The OpenAI test above used the one dropped answer; drop one more here.
      const drop = await startFakeProvider({ tasks: bundled().corpus.tasks, dropBatchCreates: 1 });
      try {
        args[4] = drop.url;
        await cli(args);
        const before = drop.requests.batchItems.length;
        const refused = await cli([...args, "--resume", "--retry-errors"]);
        expect(refused.code).toBe(2);
        expect(refused.err).toContain(`${out}.batches.json: batch_submission_unknown: 1 batch submission(s)`);
        expect(refused.err).toContain("--batch-resubmit");
        expect(drop.requests.batchItems.length).toBe(before);
        const resent = await cli([...args, "--resume", "--retry-errors", "--batch-resubmit"]);
        expect(resent.code).toBe(0);
        expect(drop.requests.batchItems.length).toBeGreaterThan(before);
        expect(read(out).filter((r) => r["status"] === "completed")).toHaveLength(12);
      } finally {
        await drop.close();
      }
    });
  });

  it("resumes an interrupted batch run without resubmitting a finished turn", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "batch.jsonl");
    const checkpoint = `${out}.batches.json`;
    // Its own provider, so batch numbers start at 1: it leaves every poll of the second batch
    // unanswered until released. The child is then held where a first batch has ended (its replies
    // checkpointed) and the next one is submitted and checkpointed but still running — both kinds
    // of turn must survive the restart — and is killed there, whatever the machine's speed.
    let holdSecondBatch = true;
    const held = await startFakeProvider({
      tasks: bundled().corpus.tasks,
      fault: (_n, path) =>
        holdSecondBatch && path === "/v1/messages/batches/msgbatch_2" ? { kind: "stall" } : null,
    });
    try {
      const args = [
        "run",
        "--agent",
        "anthropic:claude-test",
        "--base-url",
        held.url,
        "--conveyor",
        conveyor,
        ...SMALL,
        "--batch",
        "--batch-poll-ms",
        "5",
        "--out",
        out,
      ];
      const child = spawn(process.execPath, ["bin/fabench.mjs", ...args], {
        stdio: "ignore",
        env: { ...process.env, ANTHROPIC_API_KEY: KEY },
      });
      const closed = new Promise((r) => child.on("close", r));
      type State = {
        replies: Record<string, unknown>;
        batches: Array<{ id: string | null; ended: boolean; custom_ids: string[] }>;
      };
      const state = (): State | null => {
        try {
          return JSON.parse(readFileSync(checkpoint, "utf8")) as State;
        } catch {
          return null; // not written yet
        }
      };
      let caught: State | null = null;
      while (caught === null && child.exitCode === null && child.signalCode === null) {
        const now = state();
        if (now?.batches.some((b) => b.id === "msgbatch_2")) caught = now;
        else await new Promise((r) => setTimeout(r, 20));
      }
      expect(caught, "the child stopped before submitting its second batch").not.toBeNull();
      child.kill("SIGKILL");
      await closed;
      const [first, second] = caught!.batches;
      expect([first?.id, first?.ended, second?.id, second?.ended]).toEqual([
        "msgbatch_1",
        true,
        "msgbatch_2",
        false,
      ]);
      expect(Object.keys(caught!.replies).sort()).toEqual([...first!.custom_ids].sort());
      expect(held.requests.batchItems).toEqual([...first!.custom_ids, ...second!.custom_ids]);

      holdSecondBatch = false;
      const resumed = await cli([...args, "--resume"]);
      expect(resumed.code).toBe(0);
      const submitted = held.requests.batchItems;
      expect(new Set(submitted).size).toBe(submitted.length); // no custom id twice
      // The resume waited for the running batch instead of sending its turns again.
      expect(held.requests.paths.filter((p) => p === "/v1/messages/batches").length).toBe(
        state()!.batches.length,
      );
      expect(
        state()!
          .batches.slice(0, 2)
          .map((b) => b.id),
      ).toEqual(["msgbatch_1", "msgbatch_2"]);
      expect(read(out)).toHaveLength(12);
      expect(new Set(read(out).map(key)).size).toBe(12);
      expect(read(out).every((r) => r["status"] === "completed")).toBe(true);
    } finally {
      await held.close();
    }
  });
});
