/**
 * kill -9 of `fabench discover-call run --execute` at 10 seeded random points (before the first
 * record, inside a torn line, between records, near the end), then --resume: the uninterrupted
 * run's records. Slow tier: each point starts a fabench child and its adapters.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDraw } from "../../src/core/index.ts";
import { checkRecords } from "../../src/discover-call/records.ts";
import { OBSERVED_FIELDS, PENDING } from "../../src/discover-call/run.ts";
import type { DiscoverCallTask } from "../../src/discover-call/tasks.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";
import { type ImitationServer, startImitationServer } from "./imitation-server.ts";
import {
  CALLING,
  CATALOG,
  ENV,
  type Json,
  KEY,
  KILL_AT_LINE,
  type Rec,
  readRecords,
  runArgs,
  stable,
  UNGROUNDED,
  writeTasks,
} from "./run-fixtures.ts";

interface KillPoint {
  readonly kind: "before the first record" | "inside a torn line" | "between records" | "near the end";
  readonly after: number;
  /** 0: the next line is not begun; otherwise how far into it, scaled to [1, length - 2] bytes. */
  readonly permille: number;
  readonly concurrency: number;
}

/**
 * Ten kill points drawn with a seeded generator, so every run of the test kills at the same ones.
 * The draw is stratified, so any seed covers each kind of point: right before the first record,
 * inside a torn line anywhere, between two whole records, and in the last two records' lines.
 */
function drawKillPoints(seed: number, total: number): KillPoint[] {
  const draw = createDraw("seedrandom", seed);
  const concurrency = () => 1 + draw(3);
  const torn = () => 1 + draw(999);
  const points: KillPoint[] = [
    { kind: "before the first record", after: 0, permille: 0, concurrency: concurrency() },
  ];
  for (let i = 0; i < 3; i++)
    points.push({
      kind: "inside a torn line",
      after: draw(total),
      permille: torn(),
      concurrency: concurrency(),
    });
  // Three distinct boundaries among 1 .. total - 1 (total - 1: right before the last record).
  const boundaries = Array.from({ length: total - 1 }, (_, i) => i + 1);
  for (let i = 0; i < 3; i++) {
    const [after] = boundaries.splice(draw(boundaries.length), 1);
    points.push({ kind: "between records", after: after as number, permille: 0, concurrency: concurrency() });
  }
  for (let i = 0; i < 3; i++)
    points.push({
      kind: "near the end",
      after: total - 2 + draw(2),
      permille: torn(),
      concurrency: concurrency(),
    });
  return points;
}

/** Runs at most `slots` tasks at once, the others waiting their turn in order. */
function limiter(slots: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < slots) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiting task, if any.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

const pointName = (p: KillPoint) =>
  p.permille === 0
    ? `${p.kind}: after ${p.after} whole record(s), --concurrency ${p.concurrency}`
    : `${p.kind}: ${p.permille / 10}% into record ${p.after + 1}'s line, --concurrency ${p.concurrency}`;

describe("kill -9 at 10 seeded random points of an --execute run, then --resume", () => {
  const SEED = 17;
  // A call that succeeds, one stopped at the select gate, a call that fails: two trials each.
  const TASKS = [CALLING[0] as DiscoverCallTask, UNGROUNDED, CALLING[3] as DiscoverCallTask];
  const TRIALS = 2;
  const TOTAL = TASKS.length * TRIALS;
  const PLAN = TASKS.flatMap((t) => [1, 2].map((trial) => [t.id, trial]));
  const POINTS = drawKillPoints(SEED, TOTAL);

  const dir = useSuiteTempDir();
  let server: ImitationServer;
  let tasks = "";
  let uninterrupted: Rec[] = [];

  beforeAll(async () => {
    server = await startImitationServer({ key: KEY, catalog: CATALOG });
    tasks = writeTasks(dir(), TASKS);
    const output = join(dir(), "uninterrupted.jsonl");
    const run = await runCli(runArgs({ tasks, output, url: server.url, trials: TRIALS }), { env: ENV });
    expect(run.code).toBe(0);
    uninterrupted = readRecords(output);
    expect(uninterrupted.map((r) => [r.task_id, r.trial])).toEqual(PLAN);
  }, 60_000);
  afterAll(() => server.close());

  /** The byte length (newline included) of record `index` as a killed run writes it: observed fields pending. */
  const pendingLineBytes = (index: number) => {
    const record = uninterrupted[index] as Rec;
    const pending = Object.fromEntries(OBSERVED_FIELDS.map((field) => [field, PENDING]));
    return Buffer.byteLength(
      `${JSON.stringify({ ...record, metadata: { ...record.metadata, ...pending } })}\n`,
    );
  };

  /** Runs `fabench discover-call run` as a child that kills itself with SIGKILL at the point. */
  async function killedRun(argv: readonly string[], output: string, after: number, tear: number) {
    const env = {
      ...process.env,
      QVERIS_API_KEY: KEY,
      FABENCH_TEST_KILL_FILE: output,
      FABENCH_TEST_KILL_AFTER: String(after),
      FABENCH_TEST_KILL_TEAR: String(tear),
    };
    const child = spawn(process.execPath, ["--import", KILL_AT_LINE, "bin/fabench.mjs", ...argv], {
      stdio: ["ignore", "ignore", "pipe"],
      env,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    const signal = await new Promise((resolve) => child.on("close", (_code, s) => resolve(s)));
    return { pid: child.pid as number, signal, stderr };
  }

  it(`draws ten distinct points with seed ${SEED}, every kind of point among them`, () => {
    const count = (keep: (p: KillPoint) => boolean) => POINTS.filter(keep).length;
    expect(POINTS).toHaveLength(10);
    expect(new Set(POINTS.map((p) => `${p.after}/${p.permille}`)).size).toBe(10);
    expect(POINTS.every((p) => p.after >= 0 && p.after < TOTAL && p.permille >= 0 && p.permille < 1000)).toBe(
      true,
    );
    // Before the first record; inside a torn line; between two records; inside one of the last two.
    expect(count((p) => p.after === 0 && p.permille === 0)).toBe(1);
    expect(count((p) => p.permille > 0)).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.after > 0 && p.permille === 0)).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.after >= TOTAL - 2 && p.permille > 0)).toBeGreaterThanOrEqual(3);
  });

  // Two cycles at a time: each starts a fabench child (most of a cycle's time), and two keep a
  // 2-core machine busy without slowing the adapters' processes towards their timeout.
  const cycle = limiter(2);
  POINTS.forEach((point, i) =>
    it.concurrent(
      `seed ${SEED}, point ${i + 1}/10, ${pointName(point)}: the uninterrupted run's records`,
      ({ expect }) =>
        cycle(async () => {
          const { after, permille, concurrency } = point;
          const length = pendingLineBytes(after);
          const tear = permille === 0 ? 0 : 1 + Math.floor((permille * (length - 2)) / 1000);
          const output = join(dir(), `killed-${i + 1}.jsonl`);
          const lockFile = `${output}.lock`;
          const argv = runArgs({
            tasks,
            output,
            url: server.url,
            trials: TRIALS,
            extra: ["--concurrency", String(concurrency)],
          });

          const killed = await killedRun(argv, output, after, tear);
          expect(killed.signal, killed.stderr).toBe("SIGKILL");

          // The file: empty, or whole JSONL records (this plan's first ones, observed fields pending)
          // with at most one cut-off last line.
          const bytes = readFileSync(output);
          const text = bytes.toString("utf8");
          if (after === 0 && tear === 0) expect(text).toBe("");
          const end = bytes.lastIndexOf(0x0a) + 1;
          const whole = bytes.subarray(0, end);
          const tail = bytes.subarray(end).toString("utf8");
          expect(Buffer.byteLength(tail)).toBe(tear);
          if (tear > 0) expect(() => JSON.parse(tail)).toThrow();
          if (after > 0) {
            const checked = checkRecords(whole, output);
            if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
            expect(checked.value.kind).toBe("raw");
            const records = checked.value.records as Rec[];
            expect(records.map((r) => [r.task_id, r.trial])).toEqual(PLAN.slice(0, after));
            for (const r of records)
              for (const field of OBSERVED_FIELDS) expect(r.metadata[field]).toBe(PENDING);
          } else expect(whole.length).toBe(0);

          // The killed writer's lock is left behind, naming the dead process; no takeover is under way.
          const holder = JSON.parse(readFileSync(lockFile, "utf8")) as Json;
          expect(holder).toMatchObject({
            pid: killed.pid,
            host: hostname(),
            command: "fabench discover-call run",
          });
          expect(existsSync(`${lockFile}.takeover`)).toBe(false);

          const resumed = await runCli([...argv, "--resume"], { env: ENV });
          expect(resumed.code, resumed.err).toBe(0);
          // The stale lock does not block the resume: it is taken over with one warning line.
          expect(resumed.err.split("\n").filter((line) => line.includes("warning"))).toEqual([
            `warning: ${output}: taking over the stale lock ${lockFile} of pid ${killed.pid} on ${hostname()} (fabench discover-call run, since ${holder.started_at}): that process is no longer running`,
          ]);
          const calls = uninterrupted.slice(after).filter((r) => r.call.attempted).length;
          expect(resumed.out).toContain(
            `${TOTAL} of ${TOTAL} trial(s) recorded (${TOTAL - after} new, ${after} already finished); ${calls} billed call(s)`,
          );
          if (tear > 0) expect(resumed.err).toContain(`dropped a cut-off last line (${tear} bytes)`);
          else expect(resumed.err).not.toContain("dropped a cut-off last line");
          expect(readRecords(output).map(stable)).toEqual(uninterrupted.map(stable));
          expect(existsSync(lockFile)).toBe(false);
          expect(existsSync(`${lockFile}.takeover`)).toBe(false);
        }),
      120_000,
    ),
  );
});
