/**
 * Issue #25 items 1 and 2 for `fabench run` and `fabench judge run`, against fake providers on
 * 127.0.0.1: a dead base URL or a refused key stops the run at the preflight, before any episode,
 * with one line naming the URL (exit 2, nothing written); a provider that starts failing mid-run
 * trips the circuit breaker (exit 1, how to resume), and --resume --retry-errors then finishes; a
 * reply trickled a byte at a time becomes a retried, labelled `provider_timeout`. Nothing here
 * measures time: stops are shown by counting requests and records.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/conditions/runner/index.ts";
import type { Judgment } from "../../src/judge/record.ts";
import { bundled } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { startFakeProvider, type Fault, type FakeProvider } from "../helpers/fake-providers.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";
import { GOOD_REPLY, startFakeJudge, type FakeAnswer, type FakeJudge } from "../judge/fake-judge.ts";

const { corpus } = bundled();
const KEY = "sk-fail-fast-SECRET-0123456789";
const ENV = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
const cli = (argv: readonly string[]) => runCli(argv, { env: ENV });
/** 6 tasks × 1 catalog size × 2 conditions: 12 episodes a trial. */
const SMALL = [
  "--task",
  "v4-*-en-01",
  "--catalog-size",
  "100",
  "--condition",
  "FULL,SR-PROGRESSIVE",
  "--retry-base-delay",
  "1",
];

const read = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as T);

/** A port on 127.0.0.1 nothing listens on: bound by the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("fabench run: fail fast", () => {
  const temp = useTempDir();
  let provider: FakeProvider;
  let faults: (n: number) => Fault | null = () => null;
  let preflightFaults: (n: number) => Fault | null = () => null;
  beforeAll(async () => {
    provider = await startFakeProvider({
      tasks: corpus.tasks,
      fault: (n) => faults(n),
      preflight: (n) => preflightFaults(n),
    });
  });
  afterAll(async () => {
    await provider.close();
  });

  it("stops a run of 24 episodes against a closed port at the preflight: exit 2, one line naming the base URL, nothing written", async () => {
    const port = await closedPort();
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const cases = [
      { agent: "openai-compatible:local-model", baseUrl: `http://127.0.0.1:${port}/v1`, extra: [] },
      { agent: "anthropic:claude-test", baseUrl: `http://127.0.0.1:${port}`, extra: [] },
      // Batch mode talks to the same endpoint: it stops there too, before any checkpoint.
      { agent: "anthropic:claude-test", baseUrl: `http://127.0.0.1:${port}`, extra: ["--batch"] },
    ];
    for (const [i, c] of cases.entries()) {
      // A folder that does not exist yet: the refused run must not even make it.
      const out = join(dir, `runs-${i}`, "run.jsonl");
      const result = await cli([
        "run",
        "--agent",
        c.agent,
        "--base-url",
        c.baseUrl,
        "--conveyor",
        conveyor,
        "--out",
        out,
        ...SMALL,
        "--trials",
        "2",
        ...c.extra,
      ]);
      expect(result.code, result.err).toBe(2);
      expect(result.err.trim().split("\n")).toEqual([
        `provider_unreachable: ${c.baseUrl}: connection refused (ECONNREFUSED); nothing was run — check --base-url`,
      ]);
      expect(result.out).toBe("");
      expect(existsSync(join(dir, `runs-${i}`))).toBe(false);
      expect(result.err).not.toContain(KEY);
    }
    // Only the conveyor and its evidence: no run file, lock or batch checkpoint beside them.
    expect(readdirSync(dir).sort()).toEqual(["431.json", "432.json", "conveyor.json", "held-out.json"]);
  });

  it("stops at the preflight when the provider refuses the key (401): exit 2, no episode request, no run file", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const before = provider.requests.count;
    const preflights = provider.requests.models.length;
    preflightFaults = () => ({ kind: "status", status: 401 });
    const result = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      `${provider.url}/v1`,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
    ]);
    preflightFaults = () => null;
    expect(result.code).toBe(2);
    expect(result.err.trim().split("\n")).toEqual([
      `provider_auth_error: ${provider.url}/v1: the API key was refused (HTTP 401); nothing was run — check the key (the variable --api-key-env names, or the provider's own)`,
    ]);
    // The one preflight carried the key; no model request followed it.
    expect(provider.requests.models.slice(preflights)).toEqual([`Bearer ${KEY}`]);
    expect(provider.requests.count).toBe(before);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("trips the breaker when the provider starts failing mid-run, says how to resume (exit 1), and --resume --retry-errors finishes", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const start = provider.requests.count;
    // The preflight and the first 6 requests are answered; then every request is a 500.
    faults = (n) => (n - start >= 6 ? { kind: "status", status: 500 } : null);
    const argv = [
      "run",
      "--agent",
      "anthropic:claude-test",
      "--base-url",
      provider.url,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
      "--trials",
      "2",
      "--max-retries",
      "0",
    ];
    const stopped = await cli([...argv, "--json"]);
    expect(stopped.code, stopped.err).toBe(1);
    expect(stopped.err).toContain(
      "stopped after 5 infrastructure errors in a row, all provider_server_error (the circuit breaker, --breaker 5; 0 turns it off); fix the cause, then continue with the same command and --resume --retry-errors",
    );
    expect(JSON.parse(stopped.out)).toMatchObject({
      ok: false,
      planned: 24,
      stopped: true,
      stop_reason: "breaker",
      breaker: { code: "provider_server_error", count: 5 },
      errors: 5,
    });
    // At concurrency 1 each failing episode sent one request (no retries): exactly 5 after the 6 answered.
    expect(provider.requests.count - start).toBe(6 + 5);
    const records = read<RunRecord>(out);
    expect(records.length).toBeLessThan(24);
    expect(records.slice(-5).map((r) => r.error_code)).toEqual(Array(5).fill("provider_server_error"));
    expect(records.slice(0, -5).every((r) => r.status === "completed")).toBe(true);

    // The provider is back: the same command with --resume --retry-errors finishes the run.
    faults = () => null;
    const resumed = await cli([...argv, "--resume", "--retry-errors", "--json"]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({ ok: true, errors: 0, stopped: false, breaker: null });
    const all = read<RunRecord>(out);
    expect(all).toHaveLength(24);
    expect(all.every((r) => r.status === "completed")).toBe(true);
  });

  it("--breaker 0 turns the breaker off: every episode is recorded, and the progress line counts the errors", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const start = provider.requests.count;
    // Connections closed without an answer from the 7th request on: the first episode finishes.
    faults = (n) => (n - start >= 6 ? { kind: "close" } : null);
    const result = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      `${provider.url}/v1`,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
      "--max-retries",
      "0",
      "--breaker",
      "0",
    ]);
    faults = () => null;
    const records = read<RunRecord>(out);
    expect(records).toHaveLength(12);
    const errors = records.filter((r) => r.status === "error");
    expect(errors.length).toBeLessThan(12);
    // More same-code errors in a row than the default breaker (5) would have let through.
    expect(errors.length).toBeGreaterThan(5);
    expect(records.slice(-errors.length).every((r) => r.status === "error")).toBe(true);
    expect(new Set(errors.map((r) => r.error_code))).toEqual(new Set(["provider_connection_error"]));
    expect(result.code).toBe(0); // some episodes completed: the run measured something
    expect(result.err).toContain(`12/12 episodes, `);
    expect(result.err).toContain(`, ${errors.length} infrastructure error(s)`);
  });

  it("turns a reply trickled a byte at a time into a retried provider_timeout episode; the rest of the run finishes", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const start = provider.requests.count;
    // The first request and its retry: headers at once, then a byte every 200 ms (minutes for a reply).
    faults = (n) => (n - start < 2 ? { kind: "trickle", intervalMs: 200 } : null);
    const result = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      `${provider.url}/v1`,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
      // Generous, so that the healthy requests of this run never meet it, whatever the machine's speed.
      "--request-timeout",
      "3000",
      "--max-retries",
      "1",
      "--json",
    ]);
    faults = () => null;
    expect(result.code, result.err).toBe(0);
    const records = read<RunRecord>(out);
    expect(records).toHaveLength(12);
    expect(records.filter((r) => r.status === "error").map((r) => r.error_code)).toEqual([
      "provider_timeout",
    ]);
    expect(JSON.parse(result.out)).toMatchObject({ errors: 1, written: 12 });
  });

  it("stops a run whose every reply trickles with the breaker on provider_timeout, each request tried twice", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const start = provider.requests.count;
    faults = () => ({ kind: "trickle", intervalMs: 200 });
    const result = await cli([
      "run",
      "--agent",
      "anthropic:claude-test",
      "--base-url",
      provider.url,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
      "--request-timeout",
      "1000",
      "--max-retries",
      "1",
      "--concurrency",
      "5",
    ]);
    faults = () => null;
    expect(result.code).toBe(1);
    expect(result.err).toContain("infrastructure errors in a row, all provider_timeout (the circuit breaker");
    expect(result.err).toContain("--resume --retry-errors");
    const records = read<RunRecord>(out);
    // Five trip the breaker; episodes already in flight finish and are kept.
    expect(records.length).toBeGreaterThanOrEqual(5);
    expect(records.length).toBeLessThan(12);
    expect(records.every((r) => r.error_code === "provider_timeout")).toBe(true);
    // Every episode's first request was tried twice (1 + --max-retries 1), and no more was sent.
    expect(provider.requests.count - start).toBe(2 * records.length);
  });
});

describe("fabench judge run: fail fast", () => {
  const dir = useSuiteTempDir();
  let fake: FakeJudge;
  let answer: (n: number) => FakeAnswer = () => ({ kind: "text", text: GOOD_REPLY });
  let runFile = "";
  let n = 0;
  const out = () => join(dir(), `judgments-${++n}.jsonl`);
  const judgeArgs = (file: string, baseUrl = fake.url) => [
    "judge",
    "run",
    runFile,
    "--judge",
    "openai-compatible:judge-model",
    "--base-url",
    baseUrl,
    "--out",
    file,
    "--retry-base-delay",
    "1",
  ];

  beforeAll(async () => {
    fake = await startFakeJudge((i) => answer(i));
    runFile = join(dir(), "run.jsonl");
    const made = await runCli(["run", "--agent", "reference", ...SMALL, "--out", runFile]);
    expect(made.code, made.err).toBe(0);
    // Every episode's answer is rated: 12 requests.
    expect(read<RunRecord>(runFile).every((r) => r.status === "completed")).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await fake.close();
  });

  it("stops against a closed port before any request: exit 2, one line naming the base URL, no judgments file", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const file = join(dir(), "nowhere", "judgments.jsonl");
    const result = await runCli(judgeArgs(file, baseUrl), { env: ENV });
    expect(result.code).toBe(2);
    expect(result.err.trim().split("\n")).toEqual([
      `provider_unreachable: ${baseUrl}: connection refused (ECONNREFUSED); nothing was run — check --base-url`,
    ]);
    expect(existsSync(join(dir(), "nowhere"))).toBe(false);
  });

  it("turns a trickled reply into a retried provider_timeout line; the others are judged", async () => {
    const before = fake.bodies.length;
    const models = fake.models.count;
    answer = (i) =>
      i - before < 2
        ? { kind: "trickle", text: GOOD_REPLY, intervalMs: 200 }
        : { kind: "text", text: GOOD_REPLY };
    const file = out();
    const result = await runCli(
      [...judgeArgs(file), "--request-timeout", "3000", "--max-retries", "1", "--json"],
      { env: ENV },
    );
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    expect(result.code, result.err).toBe(0);
    expect(fake.models.count - models).toBe(1); // the preflight
    const lines = read<Judgment>(file);
    expect(lines).toHaveLength(12);
    expect(lines.filter((l) => l.status === "error").map((l) => l.reason)).toEqual(["provider_timeout"]);
    expect(lines.filter((l) => l.status === "judged")).toHaveLength(11);
    // 12 requests, and the trickled one sent twice.
    expect(fake.bodies.length - before).toBe(13);
  });

  it("trips the breaker on 5xx in a row (exit 1, how to resume), and --resume --retry-errors finishes", async () => {
    const before = fake.bodies.length;
    answer = (i) => (i - before >= 2 ? { kind: "status", status: 503 } : { kind: "text", text: GOOD_REPLY });
    const file = out();
    const argv = [...judgeArgs(file), "--max-retries", "0", "--breaker", "3"];
    const stopped = await runCli(argv, { env: ENV });
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain(
      "stopped after 3 infrastructure errors in a row, all provider_server_error (the circuit breaker, --breaker 3; 0 turns it off); fix the cause, then continue with the same command and --resume --retry-errors",
    );
    expect(fake.bodies.length - before).toBe(2 + 3);
    const lines = read<Judgment>(file);
    expect(lines.map((l) => l.status).sort()).toEqual(["error", "error", "error", "judged", "judged"]);
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    const resumed = await runCli([...argv, "--resume", "--retry-errors"], { env: ENV });
    expect(resumed.code, resumed.err).toBe(0);
    const all = read<Judgment>(file);
    expect(all).toHaveLength(12);
    expect(all.every((l) => l.status === "judged")).toBe(true);
  });
});
