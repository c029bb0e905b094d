/**
 * `fabench judge run` end to end against a fake OpenAI-compatible judge on 127.0.0.1 that records
 * every request body: one request per answer and none revealing how it was made; the frozen prompt
 * refused when changed; kill -9 and --resume; malformed replies, 5xx and time-outs, and
 * --resume --retry-errors; the estimate, the budget and the usage errors. No network, no clocks.
 */
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgmentSchema, type Judgment } from "../../src/judge/record.ts";
import type { RunRecord } from "../../src/conditions/runner/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { main } from "../../src/cli.ts";
import { runCli } from "../helpers/cli.ts";
import { BUNDLED_PROTOCOL_PATH } from "../helpers/protocol.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";
import {
  type FakeAnswer,
  GOOD_REPLY,
  startFakeJudge,
  userMessage,
  type FakeJudge,
} from "../judge/fake-judge.ts";

const KILL_AT_LINE = fileURLToPath(new URL("../helpers/kill-at-line.mjs", import.meta.url));
const { protocol, catalogs, corpus } = bundled();
const CONDITIONS = protocol.conditions.map((c) => c.id);
const KEY = "sk-judge-SECRET-0123456789";
const ENV = { JUDGE_KEY: KEY, OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
/** 6 tasks × 1 catalog size × 3 conditions: 18 episodes. */
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-5,SR-PROGRESSIVE"];
const EPISODES = 18;

const lines = (path: string): Judgment[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => judgmentSchema.parse(JSON.parse(l)));
const key = (j: Judgment) =>
  `${j.episode.semantic_task_id}|${j.episode.catalog_size}|${j.episode.condition}|${j.episode.trial}`;
const recordKey = (r: RunRecord) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`;

describe("fabench judge run", () => {
  const dir = useSuiteTempDir();
  let fake: FakeJudge;
  let answer: (n: number, body: string) => FakeAnswer = () => ({ kind: "text", text: GOOD_REPLY });
  /** The run file: the reference run with one episode turned into an error and one final text that is no envelope. */
  let runFile = "";
  let records: RunRecord[] = [];
  let n = 0;
  const out = () => join(dir(), `judgments-${++n}.jsonl`);
  const judgeArgs = (file: string) => [
    "judge",
    "run",
    runFile,
    "--judge",
    "openai-compatible:judge-model",
    "--base-url",
    fake.url,
    "--out",
    file,
    "--retry-base-delay",
    "1",
  ];
  const cli = (argv: readonly string[]) => runCli(argv, { env: ENV });

  beforeAll(async () => {
    fake = await startFakeJudge((i, body) => answer(i, body));
    const reference = join(dir(), "reference.jsonl");
    const made = await runCli(["run", "--agent", "reference", ...SMALL, "--out", reference]);
    expect(made.code, made.err).toBe(0);
    records = readFileSync(reference, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RunRecord);
    records[1] = {
      ...records[1]!,
      status: "error",
      error_code: "provider_timeout",
      end_reason: "infrastructure_error",
    };
    records[2] = { ...records[2]!, final_text: "I could not finish." };
    runFile = join(dir(), "run.jsonl");
    writeFileSync(runFile, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  }, 120_000);
  afterAll(async () => {
    await fake.close();
  });

  it("sends one request per answer, none revealing condition, catalog, router or route; one valid line per episode", async () => {
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    const before = fake.bodies.length;
    const file = out();
    const result = await cli([
      ...judgeArgs(file),
      "--api-key-env",
      "JUDGE_KEY",
      "--concurrency",
      "3",
      "--json",
    ]);
    expect(result.code, result.err).toBe(0);
    const bodies = fake.bodies.slice(before);
    expect(bodies).toHaveLength(EPISODES - 2);
    const metadata = records[0]!.metadata;
    const forbidden = [
      ...CONDITIONS,
      "catalog_size",
      metadata.router_id,
      metadata.router_config_sha256,
      metadata.condition_manifest_sha256,
      ...metadata.catalogs.map((c) => c.sha256),
      ...records.map((r) => r.semantic_task_id),
      ...catalogs.flatMap((c) => c.catalog.endpoints.flatMap((e) => [e.route_id, e.function_name])),
    ];
    // The word "condition" may be a user's own (v4-multi_source_comparison-en-01 asks for "the
    // H1025 condition" of a steel), so it is sought everywhere but in the query; the rest everywhere.
    const outsideQuery = (body: string) => {
      const user = userMessage(body);
      const query = user.slice("Request:\n".length, user.indexOf("\n\nAnswer:\n"));
      return body.split(JSON.stringify(query).slice(1, -1)).join("");
    };
    const leaks = bodies.flatMap((body) => [
      ...forbidden.filter((term) => body.includes(term)),
      ...(outsideQuery(body).includes("condition") ? ["condition"] : []),
    ]);
    expect(leaks).toEqual([]);
    // What each request holds: the frozen prompt, and the template filled with a query and an answer.
    const queries = new Set(corpus.tasks.map((t) => t.query));
    for (const body of bodies) {
      const sent = JSON.parse(body) as {
        messages: Array<{ role: string; content: string }>;
        tools?: unknown;
        response_format: { json_schema: { name: string } };
      };
      expect(sent.messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(sent.tools).toBeUndefined();
      expect(sent.response_format.json_schema.name).toBe("fabench_judgment");
      const user = userMessage(body);
      expect(queries.has(user.slice("Request:\n".length, user.indexOf("\n\nAnswer:\n")))).toBe(true);
    }
    const judged = lines(file);
    expect(judged.map(key).sort()).toEqual(records.map(recordKey).sort());
    expect(judged.filter((j) => j.status === "judged")).toHaveLength(EPISODES - 2);
    expect(
      judged
        .filter((j) => j.status === "not_judged")
        .map((j) => j.reason)
        .sort(),
    ).toEqual(["envelope_not_json", "episode_error"]);
    expect(judged[0]).toMatchObject({
      judge: {
        agent: "openai-compatible",
        model: "judge-model",
        reported_model: expect.stringMatching(/^judge-model-fake/) as unknown,
        settings: { base_url: fake.url, response_format: "fabench_judgment" },
      },
      seed: protocol.statistics.seed,
      prompt_sha256: protocol.judge.prompt_sha256,
    });
    expect(JSON.parse(result.out)).toMatchObject({
      ok: true,
      planned: EPISODES,
      written: EPISODES,
      judged: EPISODES - 2,
      requests: EPISODES - 2,
    });
    // The key went only to the judge, never into the file or the output.
    expect(readFileSync(file, "utf8") + result.out + result.err).not.toContain(KEY);
    expect(existsSync(`${file}.lock`)).toBe(false);
    // The same inputs and a deterministic judge give the same file, byte for byte.
    const again = out();
    expect((await cli([...judgeArgs(again), "--api-key-env", "JUDGE_KEY", "--concurrency", "5"])).code).toBe(
      0,
    );
    expect(readFileSync(again, "utf8")).toBe(readFileSync(file, "utf8"));
    // Written in the seeded order, not grouped by condition.
    const conditions = judged.map((j) => j.episode.condition);
    expect(conditions.slice(1).filter((c, i) => c === conditions[i]).length).toBeLessThan(EPISODES / 2);
  });

  it("refuses a prompt one byte longer than the protocol pins (exit 2) and sends nothing", async () => {
    const copy = join(dir(), "changed-protocol");
    mkdirSync(join(copy, "prompts"), { recursive: true });
    copyFileSync(BUNDLED_PROTOCOL_PATH, join(copy, "preregistration.json"));
    writeFileSync(
      join(copy, "prompts", "judge.md"),
      Buffer.concat([readFileSync("manifests/prompts/judge.md"), Buffer.from("\n")]),
    );
    const before = fake.bodies.length;
    const file = out();
    const result = await cli([...judgeArgs(file), "--protocol", join(copy, "preregistration.json")]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${join(copy, "prompts", "judge.md")}: judge_prompt_changed:`);
    expect(result.err).toContain(protocol.judge.prompt_sha256);
    expect(result.err).toContain("changing it is a protocol change");
    expect(fake.bodies.length).toBe(before);
    expect(existsSync(file)).toBe(false);
  });

  it("after kill -9 mid-run, --resume judges every episode exactly once", { timeout: 90_000 }, async () => {
    // A slow judge, so requests are in flight when the writer dies.
    answer = () => ({ kind: "text", text: GOOD_REPLY, delayMs: 20 });
    const file = out();
    const child = spawn(
      process.execPath,
      ["--import", KILL_AT_LINE, "bin/fabench.mjs", ...judgeArgs(file), "--concurrency", "3"],
      {
        stdio: "ignore",
        env: {
          ...process.env,
          FABENCH_TEST_KILL_FILE: file,
          FABENCH_TEST_KILL_AFTER: "5",
          FABENCH_TEST_KILL_TEAR: "100",
        },
      },
    );
    const signal = await new Promise((resolve) => child.on("close", (_code, s) => resolve(s)));
    expect(signal).toBe("SIGKILL");
    expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({
      pid: child.pid,
      host: hostname(),
    });
    const result = await cli([...judgeArgs(file), "--resume", "--concurrency", "3", "--json"]);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain(`taking over the stale lock ${file}.lock of pid ${child.pid}`);
    expect(result.err).toContain("dropped a torn last line (100 bytes)");
    expect(JSON.parse(result.out)).toMatchObject({ skipped: 5, written: EPISODES - 5 });
    const judged = lines(file);
    expect(judged.map(key).sort()).toEqual(records.map(recordKey).sort());
    expect(new Set(judged.map(key)).size).toBe(EPISODES);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("stops on Ctrl-C with exit 130 after the requests in flight; --resume finishes the same file an uninterrupted run writes", async () => {
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    const whole = out();
    expect((await cli([...judgeArgs(whole), "--api-key-env", "JUDGE_KEY"])).code).toBe(0);
    const file = out();
    let interrupt: (() => void) | undefined;
    let err = "";
    const code = await main([...judgeArgs(file), "--api-key-env", "JUDGE_KEY", "--concurrency", "2"], {
      out: () => undefined,
      err: (t) => {
        err += t;
        // The first progress line arrives after the first judgment: press Ctrl-C then.
        const press = interrupt;
        if (t.includes("episodes") && press) {
          interrupt = undefined;
          press();
        }
      },
      env: ENV,
      isTty: true, // a progress line per judgment, so the test can press Ctrl-C early
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => undefined;
      },
    });
    expect(code).toBe(130);
    expect(err).toContain("interrupted; continue with the same command and --resume");
    const partial = lines(file);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(EPISODES);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const resumed = await cli([...judgeArgs(file), "--api-key-env", "JUDGE_KEY", "--resume", "--json"]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({
      skipped: partial.length,
      written: EPISODES - partial.length,
    });
    expect(readFileSync(file, "utf8")).toBe(readFileSync(whole, "utf8"));
  });

  it("gives malformed replies their reason, makes 5xx and time-outs error lines, and --retry-errors resends only those", async () => {
    // One request at a time, so request n is the n-th answer in the seeded order.
    answer = (i) =>
      i === 0
        ? { kind: "text", text: "Coherence 4, completeness 3." }
        : i === 1
          ? { kind: "text", text: '{"coherence": 9, "completeness": 3, "rationale": "x"}' }
          : i === 2
            ? { kind: "status", status: 500 }
            : i === 3
              ? { kind: "stall" }
              : { kind: "text", text: GOOD_REPLY };
    const start = fake.bodies.length;
    const shifted = answer;
    answer = (i, body) => shifted(i - start, body);
    const file = out();
    // The stalled request times out; the time limit is generous so that no answered request on a busy machine does.
    const args = [...judgeArgs(file), "--max-retries", "0", "--request-timeout", "5000"];
    const first = await cli([...args, "--json"]);
    expect(first.code, first.err).toBe(0);
    const judged = lines(file);
    const by = (status: string) => judged.filter((j) => j.status === status);
    expect(by("malformed").map((j) => [j.reason, j.raw_reply])).toEqual([
      ["reply_not_json", "Coherence 4, completeness 3."],
      ["rating_out_of_range", '{"coherence": 9, "completeness": 3, "rationale": "x"}'],
    ]);
    expect(by("error").map((j) => j.reason)).toEqual(["provider_server_error", "provider_timeout"]);
    expect(
      by("error").every((j) => j.ratings === null && j.raw_reply === null && j.answer_sha256 !== null),
    ).toBe(true);
    expect(JSON.parse(first.out)).toMatchObject({
      malformed: 2,
      errors: 2,
      judged: EPISODES - 6,
      not_judged: 2,
    });
    const errorKeys = by("error").map(key);

    // --resume alone: everything has a line, nothing is sent.
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    const sent = fake.bodies.length;
    const resumed = await cli([...args, "--resume", "--json"]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(fake.bodies.length).toBe(sent);
    expect(JSON.parse(resumed.out)).toMatchObject({ skipped: EPISODES, written: 0 });

    // --resume --retry-errors: only the two error lines are sent again.
    const retried = await cli([...args, "--resume", "--retry-errors", "--json"]);
    expect(retried.code, retried.err).toBe(0);
    expect(retried.err).toContain("2 error line(s) will be judged again");
    expect(fake.bodies.length).toBe(sent + 2);
    const after = lines(file);
    expect(after).toHaveLength(EPISODES);
    expect(new Set(after.map(key)).size).toBe(EPISODES);
    expect(after.filter((j) => errorKeys.includes(key(j))).map((j) => j.status)).toEqual([
      "judged",
      "judged",
    ]);
    expect(after.filter((j) => j.status === "malformed")).toHaveLength(2);
  });

  it("refuses to resume a file judged with other settings", async () => {
    answer = () => ({ kind: "text", text: GOOD_REPLY });
    const file = out();
    expect((await cli(judgeArgs(file))).code).toBe(0);
    const sent = fake.bodies.length;
    const result = await cli([...judgeArgs(file), "--resume", "--temperature", "0.5"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("resume_judgment_mismatch");
    expect(result.err).toContain("judge.settings");
    expect(fake.bodies.length).toBe(sent);
  });

  it("estimates requests, tokens and cost without sending anything, and stops before exceeding the budget", async () => {
    const prices = join(dir(), "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({
        currency: "USD",
        unit: "per_million_tokens",
        models: { "judge-model": { input: 3, cached_input: 0.3, output: 15 } },
      }),
    );
    const sent = fake.bodies.length;
    const file = out();
    const estimate = await cli([...judgeArgs(file), "--estimate", "--prices", prices, "--json"]);
    expect(estimate.code, estimate.err).toBe(0);
    const e = JSON.parse(estimate.out) as {
      requests: number;
      not_judged: number;
      input_tokens: number;
      cost_usd: { expected: number; worst_case: number };
    };
    expect(e).toMatchObject({ episodes: EPISODES, requests: EPISODES - 2, not_judged: 2 });
    expect(e.input_tokens).toBeGreaterThan(0);
    expect(e.cost_usd.worst_case).toBeGreaterThan(e.cost_usd.expected);
    expect(existsSync(file)).toBe(false);
    const budget = await cli([...judgeArgs(file), "--prices", prices, "--budget-usd", "0.000001"]);
    expect(budget.code).toBe(1);
    expect(budget.err).toContain("stopped before a request that could exceed --budget-usd");
    expect(fake.bodies.length).toBe(sent);
  });

  it("runs a command:PATH judge: the two messages and no tools on stdin, its reply read like a model's", async () => {
    const script = join(dir(), "judge.mjs");
    const log = join(dir(), "judge-stdin.jsonl");
    writeFileSync(
      script,
      `#!/usr/bin/env node
import { appendFileSync } from "node:fs";
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", () => {
  appendFileSync(process.argv[2], raw.replace(/\\n/g, " ") + "\\n");
  process.stdout.write(JSON.stringify({ text: ${JSON.stringify(GOOD_REPLY)} }));
});
`,
    );
    chmodSync(script, 0o755);
    const file = out();
    const result = await runCli(
      [
        "judge",
        "run",
        runFile,
        "--judge",
        `command:${script}`,
        "--agent-arg",
        log,
        "--out",
        file,
        "--concurrency",
        "2",
      ],
      { env: { ...ENV, PATH: process.env["PATH"] } },
    );
    expect(result.code, result.err).toBe(0);
    const inputs = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { messages: Array<{ role: string }>; tools: unknown[] });
    expect(inputs).toHaveLength(EPISODES - 2);
    expect(
      inputs.every((i) => i.messages.map((m) => m.role).join() === "system,user" && i.tools.length === 0),
    ).toBe(true);
    const judged = lines(file);
    expect(judged.filter((j) => j.status === "judged")).toHaveLength(EPISODES - 2);
    expect(judged[0]?.judge).toMatchObject({ agent: `command:${script}`, model: null, reported_model: null });
    expect(readFileSync(log, "utf8")).not.toContain("SR-PROGRESSIVE");
  });

  it("refuses the reference agent, an existing output and an output that is an input (exit 2)", async () => {
    const sent = fake.bodies.length;
    const file = out();
    const reference = await cli(["judge", "run", runFile, "--judge", "reference", "--out", file]);
    expect([reference.code, reference.err]).toEqual([
      2,
      expect.stringContaining("reference_not_a_judge") as unknown,
    ]);
    writeFileSync(file, "");
    const exists = await cli(judgeArgs(file));
    expect([exists.code, exists.err]).toEqual([2, expect.stringContaining("output_exists") as unknown]);
    const input = await cli(judgeArgs(runFile));
    expect([input.code, input.err]).toEqual([2, expect.stringContaining("output_is_input") as unknown]);
    expect(fake.bodies.length).toBe(sent);
  });
});
