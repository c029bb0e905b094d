/**
 * `fabench run` against the fake provider behind a fault-injecting proxy (issue #16, items 4, 5, 7,
 * 8, 9): truncated bodies are retried; an 8 MB reply is one `response_too_large` episode while the
 * others finish; a malformed batch poll fails nothing; an OpenAI-compatible server gets no key
 * unless --api-key-env names one; a base URL with credentials is refused.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundled } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-providers.ts";
import { join, useTempDir } from "../helpers/temp.ts";
import { startFaultProxy, type FaultProxy, type WireFault } from "./fault-proxy.ts";

const KEY = "sk-run-faults-SECRET-0123456789";
const ENV = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
const cli = (argv: readonly string[], env: Record<string, string> = ENV) => runCli(argv, { env });
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
  metadata: { agent_settings: Record<string, unknown>; unlocked_by?: unknown };
};
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

describe("fabench run against wire faults", () => {
  const temp = useTempDir();
  let provider: FakeProvider;
  let proxy: FaultProxy;
  let faults: (n: number, method: string, path: string) => WireFault | null = () => null;
  beforeAll(async () => {
    provider = await startFakeProvider({ tasks: bundled().corpus.tasks });
    proxy = await startFaultProxy(provider.url, (n, method, path) => faults(n, method, path));
  });
  afterAll(async () => {
    await proxy.close();
    await provider.close();
  });

  const run = async (
    agent: string,
    baseUrl: string,
    extra: string[] = [],
    env: Record<string, string> = ENV,
  ) => {
    const dir = mkdtempSync(join(temp(), "run-"));
    const conveyor = await satisfiedConveyor(dir);
    const out = join(dir, "run.jsonl");
    const argv = ["run", "--agent", agent, "--base-url", baseUrl, "--conveyor", conveyor, "--out", out];
    const result = await cli([...argv, ...SMALL, ...extra, "--json"], env);
    return { result, out, dir };
  };

  it("retries bodies cut short of their Content-Length: no episode errors when a retry succeeds", async () => {
    const from = proxy.seen.length;
    faults = (n) => ((n - from) % 2 === 0 ? { kind: "truncated_body" } : null);
    const { result, out, dir } = await run("anthropic:claude-test", proxy.url);
    faults = () => null;
    // The lock was opened by this conveyor: every record says so, with the file's hash.
    const conveyor = join(dir, "conveyor.json");
    const sha = createHash("sha256").update(readFileSync(conveyor)).digest("hex");
    for (const r of read(out))
      expect(r.metadata.unlocked_by).toEqual({
        gate_stage: "#432",
        conveyor_path: conveyor,
        conveyor_sha256: sha,
      });
    const truncated = proxy.seen.slice(from).filter((s) => s.fault === "truncated_body").length;
    expect(truncated).toBeGreaterThanOrEqual(12);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ errors: 0 });
    expect(read(out).every((r) => r.status === "completed")).toBe(true);
  });

  it("makes an 8 MB reply one response_too_large episode while the others finish", async () => {
    const from = proxy.seen.length;
    faults = (n) => (n === from ? { kind: "huge_reply", bytes: 8_000_000, format: "openai" } : null);
    const { result, out } = await run("openai:gpt-test", `${proxy.url}/v1`, ["--concurrency", "4"]);
    faults = () => null;
    expect(result.code).toBe(0);
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(records.filter((r) => r.error_code === "response_too_large")).toHaveLength(1);
    expect(records.filter((r) => r.status === "completed")).toHaveLength(11);
    expect(JSON.parse(result.out)).toMatchObject({ errors: 1, written: 12 });
  });

  it("sends an OpenAI-compatible server no key, unless --api-key-env names one", async () => {
    let from = proxy.seen.length;
    let preflights = proxy.preflights.length;
    const plain = await run("openai-compatible:local-model", `${proxy.url}/v1`);
    expect(plain.result.code).toBe(0);
    // The preflight (one models list) goes without a key too.
    const sent = [...proxy.preflights.slice(preflights), ...proxy.seen.slice(from)];
    expect(proxy.preflights.length - preflights).toBe(1);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.every((s) => s.authorization === "" && s.apiKey === "")).toBe(true);
    expect(read(plain.out)[0]!.metadata.agent_settings["base_url"]).toBe(`${proxy.url}/v1`);

    from = proxy.seen.length;
    preflights = proxy.preflights.length;
    const local = "local-SECRET-key-42";
    const named = await run(
      "openai-compatible:local-model",
      `${proxy.url}/v1`,
      ["--api-key-env", "LOCAL_KEY"],
      {
        ...ENV,
        LOCAL_KEY: local,
      },
    );
    expect(named.result.code).toBe(0);
    expect(proxy.preflights.length - preflights).toBe(1);
    expect(
      [...proxy.preflights.slice(preflights), ...proxy.seen.slice(from)].every(
        (s) => s.authorization === `Bearer ${local}`,
      ),
    ).toBe(true);
    for (const name of readdirSync(named.dir)) {
      const text = readFileSync(join(named.dir, name), "utf8");
      expect(text).not.toContain(local);
      expect(text).not.toContain(KEY);
    }
    expect(named.result.out + named.result.err).not.toContain(local);
  });

  it.each([
    ["a user and password", (url: string) => url.replace("http://", "http://user:PW-secret@")],
    ["a query string", (url: string) => `${url}?api_key=PW-secret`],
  ])(
    "refuses a base URL with %s (exit 2, pointing to --api-key-env), before the lock or an estimate",
    async (_l, make) => {
      const from = proxy.seen.length;
      const dir = temp();
      const baseUrl = make(`${proxy.url}/v1`);
      for (const extra of [["--out", join(dir, "r.jsonl")], ["--estimate"]]) {
        // The default conveyor is unmet: the base URL is refused before the lock is even read.
        const result = await cli([
          "run",
          "--agent",
          "openai-compatible:m",
          "--base-url",
          baseUrl,
          ...extra,
          ...SMALL,
        ]);
        expect(result.code).toBe(2);
        expect(result.err).toContain("base_url_credentials");
        expect(result.err).toContain("--api-key-env");
        expect(result.out + result.err).not.toContain("PW-secret");
      }
      expect(proxy.seen.length).toBe(from);
    },
  );

  it("refuses to send a key in plain HTTP to a host other than this machine (exit 2)", async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const result = await cli([
      "run",
      "--agent",
      "openai:gpt-test",
      "--base-url",
      "http://192.0.2.1:8000/v1", // TEST-NET-1: never contacted, refused before sending
      "--conveyor",
      conveyor,
      "--out",
      join(dir, "r.jsonl"),
      ...SMALL,
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("insecure_base_url");
    expect(result.err).not.toContain(KEY);
  });

  it("retries a malformed batch poll: no episode fails", async () => {
    let polls = 0;
    faults = (_n, method, path) =>
      method === "GET" && /^\/v1\/messages\/batches\/[^/]+$/.test(path) && polls++ === 0
        ? { kind: "malformed_json" }
        : null;
    const { result, out } = await run("anthropic:claude-test", proxy.url, [
      "--batch",
      "--batch-poll-ms",
      "5",
    ]);
    faults = () => null;
    expect(polls).toBeGreaterThan(1);
    expect(result.code).toBe(0);
    const records = read(out);
    expect(records).toHaveLength(12);
    expect(records.every((r) => r.status === "completed")).toBe(true);
  });
});
