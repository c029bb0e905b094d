/**
 * Ctrl-C during `discover-call run`: the trials in flight finish, no new one starts, the file gets
 * its final write (observed revisions filled in), the lock is released, the handler removed, and
 * the run exits 130 saying how many trials are left; `--resume` then completes it to the records
 * of an uninterrupted run. The interrupt is fired from the progress line after the first record
 * (a terminal's line comes after every trial), so where it lands is fixed, not timed.
 */
import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type DiscoverCallRunOptions,
  discoverCallRun,
  realRunDeps,
} from "../../src/commands/discover-call/run.ts";
import type { CliIo } from "../../src/commands/shell/io.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { type ImitationServer, startImitationServer } from "./imitation-server.ts";
import {
  ADAPTER,
  ADAPTER_TIMEOUT_MS,
  CALLING,
  ENV,
  readRecords,
  runArgs,
  stable,
  TOOLKIT,
  writeTasks,
} from "./run-fixtures.ts";
import { runCli } from "../helpers/cli.ts";

const TRIALS = 2;
const PLANNED = CALLING.length * TRIALS;

function options(tasks: string, output: string, url: string, resume: boolean): DiscoverCallRunOptions {
  return {
    model: "fixture-model",
    lane: "configured-model",
    tasks,
    adapter: process.execPath,
    adapterArg: [ADAPTER, tasks],
    adapterRevision: "fixture-adapter-1",
    toolkitRevision: TOOLKIT,
    trials: TRIALS,
    limit: 10,
    execute: true,
    adapterTimeoutMs: ADAPTER_TIMEOUT_MS,
    baseUrl: url,
    output,
    resume,
    concurrency: 1,
    openaiApi: "chat",
  };
}

/** A terminal whose user presses Ctrl-C once `pressAt` shows in the progress line. */
function terminal(pressAt: string | null) {
  const seen = { out: "", err: "", registered: 0, removed: 0 };
  let handler: (() => void) | null = null;
  const io: CliIo = {
    out: (t) => void (seen.out += t),
    err: (t) => {
      seen.err += t;
      if (pressAt !== null && t.includes(pressAt) && handler !== null) {
        const press = handler;
        handler = null;
        press();
      }
    },
    env: ENV,
    isTty: true,
    onInterrupt: (h) => {
      seen.registered += 1;
      handler = h;
      return () => {
        seen.removed += 1;
        handler = null;
      };
    },
  };
  return { io, seen };
}

describe("discover-call run on Ctrl-C", () => {
  const temp = useTempDir();
  let server: ImitationServer;
  beforeEach(async () => {
    server = await startImitationServer({ key: ENV.QVERIS_API_KEY });
  });
  afterEach(() => server.close());

  it("finishes the trial in flight, writes the file whole, exits 130, and --resume completes it", async () => {
    const tasks = writeTasks(temp(), CALLING);
    const output = join(temp(), "out", "run.jsonl");
    const first = terminal(` 1/${PLANNED} trials`);
    const code = await discoverCallRun(options(tasks, output, server.url, false), first.io, realRunDeps());

    expect(code).toBe(130);
    expect(first.seen.err).toContain("\ninterrupt: finishing the trials in flight, then stopping\n");
    expect(first.seen.err).toContain(
      `interrupted; ${PLANNED - 1} trial(s) left; continue with the same command and --resume\n`,
    );
    expect(first.seen.out).toBe(
      `${output}: 1 of ${PLANNED} trial(s) recorded (1 new, 0 already finished); 1 billed call(s)\n`,
    );
    expect([first.seen.registered, first.seen.removed]).toEqual([1, 1]);
    expect(existsSync(`${output}.lock`)).toBe(false);
    const kept = readRecords(output);
    expect(kept.map((r) => [r.task_id, r.trial])).toEqual([["weather-ok", 1]]);
    // The final write ran: the revisions the API reported replace `pending`.
    expect(kept[0]?.metadata.api_revision).toBe("imitation-api-1");
    expect(kept[0]?.metadata.catalog_revision).toBe("imitation-catalog-1");

    const second = terminal(null);
    const resumed = await discoverCallRun(options(tasks, output, server.url, true), second.io, realRunDeps());
    expect(resumed).toBe(0);
    expect(second.seen.out).toBe(
      `${output}: ${PLANNED} of ${PLANNED} trial(s) recorded (${PLANNED - 1} new, 1 already finished); ${PLANNED - 1} billed call(s)\n`,
    );

    const whole = join(temp(), "whole.jsonl");
    const uninterrupted = await runCli(runArgs({ tasks, output: whole, url: server.url, trials: TRIALS }), {
      env: ENV,
    });
    expect(uninterrupted.code).toBe(0);
    expect(readRecords(output).map(stable)).toEqual(readRecords(whole).map(stable));
  });
});
