/**
 * Model agents end to end against fake providers on 127.0.0.1 (the official SDKs pointed at them
 * through their base URL): the prerequisite lock, every agent kind and tool protocol, injected
 * faults, keys never written, estimate and budget.
 */
import { chmodSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { bundled } from "../helpers/bundled.ts";
import { startFakeProvider, type Fault, type FakeProvider } from "../helpers/fake-providers.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const { corpus } = bundled();
const KEY = "sk-test-SECRET-0123456789";
/** What the CLI sees as its environment: the keys, passed in, never set on `process.env`. */
const ENV = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
const cli = (argv: readonly string[]) => runCli(argv, { env: ENV });
const REV = "a".repeat(40);
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

type Rec = {
  status: string;
  error_code: string | null;
  final_text: string;
  turns: Array<{ model: string | null; provider_usage: unknown }>;
  attempts: Array<{ error_code: string | null }>;
  metadata: { agent: string; model: string; agent_settings: Record<string, unknown> };
};
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

describe("model agents against fake providers", () => {
  const temp = useTempDir();
  let provider: FakeProvider;
  let faults: (n: number) => Fault | null = () => null;
  beforeAll(async () => {
    provider = await startFakeProvider({ tasks: corpus.tasks, fault: (n) => faults(n) });
  });
  afterAll(async () => {
    await provider.close();
  });

  it("refuses to run while the prerequisite is unmet, before any request, and says what blocks", async () => {
    const before = provider.requests.count;
    const result = await cli([
      "run",
      "--agent",
      "anthropic:claude-test",
      "--base-url",
      provider.url,
      "--out",
      join(temp(), "r.jsonl"),
      ...SMALL,
    ]);
    expect(result.code).toBe(3);
    expect(result.err).toContain("#432: is pending; needs succeeded");
    expect(provider.requests.count).toBe(before);
  });

  it("refuses to record a stage as succeeded while its own prerequisites are unmet", async () => {
    const dir = temp();
    const conveyor = join(dir, "conveyor.json");
    copyFileSync("manifests/conveyor.json", conveyor);
    writeFileSync(join(dir, "432.json"), "{}\n");
    const result = await cli([
      "conveyor",
      "record",
      "#432",
      "--state",
      "succeeded",
      "--artifact",
      join(dir, "432.json"),
      "--source-revision",
      REV,
      "--conveyor",
      conveyor,
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toContain("#431 is pending; needs terminal");
    expect(readFileSync(conveyor, "utf8")).toBe(readFileSync("manifests/conveyor.json", "utf8"));
  });

  it.each([
    ["anthropic native", ["--agent", "anthropic:claude-test"]],
    ["openai native", ["--agent", "openai:gpt-test"]],
    ["openai responses API", ["--agent", "openai:gpt-test", "--openai-api", "responses"]],
    ["openai-compatible native", ["--agent", "openai-compatible:local-model"]],
    [
      "openai-compatible text protocol",
      ["--agent", "openai-compatible:local-model", "--tool-protocol", "text"],
    ],
    ["anthropic text protocol", ["--agent", "anthropic:claude-test", "--tool-protocol", "text"]],
  ])("runs whole episodes through %s", async (_label, agent) => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const baseUrl = agent[1]!.startsWith("anthropic") ? provider.url : `${provider.url}/v1`;
    const result = await cli([
      "run",
      ...agent,
      "--base-url",
      baseUrl,
      "--conveyor",
      conveyor,
      "--out",
      out,
      ...SMALL,
      "--json",
    ]);
    expect(result.code).toBe(0);
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(records.every((r) => r.status === "completed")).toBe(true);
    // The fake model follows the fixture, so every answer is a full envelope.
    expect(records.every((r) => r.final_text.includes('"facts":[{'))).toBe(true);
    expect(records[0]!.turns[0]!.model).toMatch(/-fake-2026-11-01$/);
    expect(records[0]!.metadata.agent_settings).toMatchObject({ temperature: 0, lane: "configured-model" });
  });

  it("recovers from 429 with Retry-After, 500 and 529, and records episodes that still fail with their code", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const start = provider.requests.count;
    // Requests 0–2 fail once each (429, 500, 529) and succeed on retry; from request 12 on, every request fails.
    faults = (n) => {
      const i = n - start;
      if (i === 0) return { kind: "status", status: 429, retryAfter: "0" };
      if (i === 2) return { kind: "status", status: 500 };
      if (i === 4) return { kind: "status", status: 529 };
      return i >= 12 ? { kind: "status", status: 503 } : null;
    };
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
      "--max-retries",
      "2",
      // Every episode is to be recorded, however many fail in a row (the breaker is tested in fail-fast.test.ts).
      "--breaker",
      "0",
    ]);
    faults = () => null;
    const records = read(out);
    expect(records).toHaveLength(12);
    const failed = records.filter((r) => r.status === "error");
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((r) => r.error_code))).toEqual(new Set(["provider_server_error"]));
    expect(records.filter((r) => r.status === "completed").length).toBeGreaterThan(0);
    expect(result.code).toBe(0);
    // --resume --retry-errors reruns exactly the failed ones, now that the provider is healthy.
    const retry = await cli([
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
      "--resume",
      "--retry-errors",
      "--json",
    ]);
    expect(JSON.parse(retry.out)).toMatchObject({ written: failed.length, errors: 0 });
    expect(read(out).every((r) => r.status === "completed")).toBe(true);
    expect(read(out)).toHaveLength(12);
  });

  it("turns time-outs, malformed JSON, truncated arguments and unknown tools into codes, never a lost episode", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const cases: Array<[Fault, string[], (records: Rec[]) => void]> = [
      // A request that is never answered times out, whatever the machine's speed; the limit is
      // generous so the healthy requests of the same run never meet it.
      [
        { kind: "stall" },
        ["--request-timeout", "3000", "--max-retries", "1"],
        (rs) => expect(rs.some((r) => r.error_code === "provider_timeout")).toBe(true),
      ],
      [
        { kind: "malformed_json" },
        ["--max-retries", "0"],
        (rs) => expect(rs.some((r) => r.error_code === "provider_bad_response")).toBe(true),
      ],
      [
        { kind: "truncated_arguments" },
        [],
        (rs) =>
          expect(rs.some((r) => r.attempts.some((a) => a.error_code === "malformed_tool_call"))).toBe(true),
      ],
      [
        { kind: "unknown_tool" },
        [],
        (rs) => expect(rs.some((r) => r.attempts.some((a) => a.error_code === "unknown_tool"))).toBe(true),
      ],
    ];
    for (const [index, [fault, extra, check]] of cases.entries()) {
      const out = join(dir, `fault-${index}.jsonl`);
      const start = provider.requests.count;
      // The first request and its retries fail; the rest of the run is healthy.
      faults = (n) => (n - start < 2 ? fault : null);
      await cli([
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
        ...extra,
      ]);
      faults = () => null;
      const records = read(out);
      expect(records).toHaveLength(12);
      check(records);
    }
  });

  it("never writes an API key into any file or output", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    faults = (n) => (n % 5 === 0 ? { kind: "status", status: 401 } : null);
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
    ]);
    faults = () => null;
    expect(provider.requests.authorization.some((a) => a.includes(KEY))).toBe(true); // it was sent, as a header
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name), "utf8")).not.toContain(KEY);
    expect(result.out + result.err).not.toContain(KEY);
    expect(readFileSync(out, "utf8")).not.toContain("sk-should-never-be-logged");
    expect(read(out).some((r) => r.error_code === "provider_auth_error")).toBe(true);
  });

  it("estimates without sending anything, and the estimate agrees with what the run spends", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const prices = join(dir, "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({
        currency: "USD",
        unit: "per_million_tokens",
        models: { "gpt-test": { input: 2, cached_input: 0.5, output: 8 } },
      }),
    );
    const before = provider.requests.count;
    const estimate = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--estimate",
      "--prices",
      prices,
      ...SMALL,
      "--json",
    ]);
    expect(provider.requests.count).toBe(before);
    const e = JSON.parse(estimate.out) as { model_calls: number; cost_usd: { expected: number } };
    const out = join(dir, "run.jsonl");
    const run = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      `${provider.url}/v1`,
      "--conveyor",
      conveyor,
      "--prices",
      prices,
      "--out",
      out,
      ...SMALL,
      "--json",
    ]);
    const spent = JSON.parse(run.out).spent_usd as number;
    expect(provider.requests.count - before).toBe(e.model_calls);
    // Same prompts, counted by the provider on its own wire format: within 15 %.
    expect(Math.abs(spent - e.cost_usd.expected) / e.cost_usd.expected).toBeLessThan(0.15);
  });

  it("stops before a request that could exceed --budget-usd, and resumes later", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const prices = join(dir, "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({
        currency: "USD",
        unit: "per_million_tokens",
        models: { "gpt-test": { input: 2, cached_input: 0.5, output: 8 } },
      }),
    );
    const out = join(dir, "run.jsonl");
    // A FULL request on the 100 catalog sends about 19,300 input tokens ($0.039, $0.043 with its 512
    // output tokens reserved); an episode costs $0.008 to $0.20 and the 12 about $0.90. $0.25 lets
    // any first episode finish (at most $0.16 spent before its last request's $0.045 reservation)
    // and stops the run well before the end.
    const command = (budget: string) => [
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      `${provider.url}/v1`,
      "--conveyor",
      conveyor,
      "--prices",
      prices,
      "--budget-usd",
      budget,
      "--max-output-tokens",
      "512",
      "--out",
      out,
      ...SMALL,
      "--json",
    ];
    type Summary = { stop_reason: string | null; spent_usd: number; written: number; skipped: number };
    const result = await cli(command("0.25"));
    const summary = JSON.parse(result.out) as Summary;
    expect(result.code).toBe(1);
    expect(summary.stop_reason).toBe("budget_exhausted");
    expect(summary.spent_usd).toBeLessThanOrEqual(0.25);
    expect(summary.written).toBeGreaterThan(0);
    expect(summary.written).toBeLessThan(12);
    const first = readFileSync(out, "utf8");
    expect(read(out)).toHaveLength(summary.written);
    expect(read(out).every((r) => r.status === "completed")).toBe(true);
    // The same command with --resume (and room in the budget) runs only what is left.
    const resumed = await cli([...command("2"), "--resume"]);
    const rest = JSON.parse(resumed.out) as Summary;
    expect(resumed.code, resumed.err).toBe(0);
    expect([rest.skipped, rest.written]).toEqual([summary.written, 12 - summary.written]);
    expect(readFileSync(out, "utf8").startsWith(first)).toBe(true);
    expect(read(out)).toHaveLength(12);
    expect(read(out).every((r) => r.status === "completed")).toBe(true);
  });

  it("runs a command agent with a minimal environment and never records its stderr", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const script = join(dir, "agent.mjs");
    writeFileSync(
      script,
      `#!/usr/bin/env node
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const input = JSON.parse(s);
  process.stderr.write("debug: " + (process.env.ANTHROPIC_API_KEY ?? "no key") + " secret-stderr\\n");
  const answer = { answer: "env " + Object.keys(process.env).sort().join(","), facts: [], sources: [] };
  process.stdout.write(JSON.stringify({ text: JSON.stringify(answer), protocol: input.protocol_version }));
});\n`,
    );
    chmodSync(script, 0o755);
    const out = join(dir, "run.jsonl");
    // The CLI's environment holds the API keys and two other variables; the agent may see only
    // PATH, HOME and what --pass-env names.
    const env = {
      ...ENV,
      PATH: process.env["PATH"],
      HOME: dir,
      FABENCH_TEST_VISIBLE: "1",
      FABENCH_TEST_HIDDEN: "1",
    };
    const result = await runCli(
      [
        "run",
        "--agent",
        `command:${script}`,
        "--pass-env",
        "FABENCH_TEST_VISIBLE",
        "--conveyor",
        conveyor,
        "--out",
        out,
        ...SMALL,
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain("secret-stderr");
    expect(text).not.toContain(KEY);
    const records = read(out);
    expect(records).toHaveLength(12);
    for (const r of records)
      expect(JSON.parse(r.final_text).answer).toBe("env FABENCH_TEST_VISIBLE,HOME,PATH");
  });
});

describe("a run in which nothing was measured", () => {
  const temp = useTempDir();

  it("exits 1 and says so when every episode ended in an infrastructure error", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    // An agent that dies on every turn: each episode ends error-coded.
    const script = join(dir, "broken-agent.mjs");
    writeFileSync(script, "#!/usr/bin/env node\nprocess.exit(3);\n");
    chmodSync(script, 0o755);
    const out = join(dir, "run.jsonl");
    const result = await runCli(
      // --breaker 0: every episode runs, so every one of them can fail (the breaker would stop at 5).
      [
        "run",
        "--agent",
        `command:${script}`,
        "--conveyor",
        conveyor,
        "--out",
        out,
        ...SMALL,
        "--breaker",
        "0",
      ],
      {
        env: { PATH: process.env["PATH"] },
      },
    );
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(records.every((r) => r.status === "error")).toBe(true);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `${out}: every one of the 12 episode(s) ended in an infrastructure error: nothing was measured`,
    );
  });
});
